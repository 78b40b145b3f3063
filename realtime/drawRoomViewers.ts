import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { WatchRequestSchema } from '../contract/realtime';
import type { ClientEventHandler } from './clientEvents';
import { drawRoom } from './rooms';
import type { RealtimeServer, RealtimeSocket } from './sockets';

// The draw room's live viewer count (docs/product.md#draws). Cheap: each process counts its own
// sockets in each draw room (the room's size, no list is read), and with several processes each
// reports its count to the others; a report not renewed in REPORT_TTL_MS (a dead process) drops.

export const VIEWERS_FLUSH_MS = 1000;
const REPORT_TTL_MS = 5000;
/** A socket is in at most this many draw rooms (a page shows one). */
const MAX_DRAW_ROOMS = 2;

/**
 * Counts and tells the draw rooms' viewers; returns the handlers of `draw-room:join` and
 * `draw-room:leave`, shared by every socket (realtime/clientEvents.ts), and a stop function. A
 * viewer that disconnects needs no listener: every flush recounts each room that had viewers.
 */
export function serveDrawRoomViewers(
  io: RealtimeServer,
  flushMs = VIEWERS_FLUSH_MS,
): { handlers: Record<'draw-room:join' | 'draw-room:leave', ClientEventHandler>; stop: () => void } {
  const self = randomUUID();
  const dirty = new Set<number>();
  /** Other processes' latest reports: competition → process → viewers and when. */
  const others = new Map<number, Map<string, { viewers: number; at: number }>>();
  const localCount = (id: number) => io.of('/').adapter.rooms.get(drawRoom(id))?.size ?? 0;

  io.on('draw-room:count', ({ process, competitionId, viewers }) => {
    if (process === self) return;
    const reports = others.get(competitionId) ?? new Map();
    reports.set(process, { viewers, at: Date.now() });
    others.set(competitionId, reports);
    dirty.add(competitionId);
  });

  const handlers = {
    'draw-room:join': async (socket: RealtimeSocket, payload: unknown, ack: unknown) => {
      const parsed = v.safeParse(WatchRequestSchema, payload);
      const answer = typeof ack === 'function' ? (ack as (a: { ok: boolean }) => void) : () => undefined;
      if (!parsed.success) return answer({ ok: false });
      const rooms = [...socket.rooms].filter((r) => r.startsWith('draw-room:'));
      const room = drawRoom(parsed.output.competitionId);
      if (!rooms.includes(room) && rooms.length >= MAX_DRAW_ROOMS) return answer({ ok: false });
      await socket.join(room);
      dirty.add(parsed.output.competitionId);
      answer({ ok: true });
    },
    'draw-room:leave': async (socket: RealtimeSocket, payload: unknown) => {
      const parsed = v.safeParse(WatchRequestSchema, payload);
      if (!parsed.success) return;
      await socket.leave(drawRoom(parsed.output.competitionId));
      dirty.add(parsed.output.competitionId);
    },
  };

  /** Rooms with viewers here (reported to the other processes every flush) and what each was told. */
  const active = new Set<number>();
  const told = new Map<number, number>();
  const flush = async () => {
    const now = Date.now();
    for (const [id, reports] of others)
      for (const [process, r] of reports)
        if (now - r.at > REPORT_TTL_MS) {
          reports.delete(process);
          dirty.add(id);
        }
    const ids = new Set([...dirty, ...active]);
    dirty.clear();
    if (!ids.size) return;
    const several = (await io.of('/').adapter.serverCount()) > 1;
    for (const id of ids) {
      const mine = localCount(id);
      if (mine > 0) active.add(id);
      else active.delete(id);
      if (several) io.serverSideEmit('draw-room:count', { process: self, competitionId: id, viewers: mine });
      let viewers = mine;
      for (const r of others.get(id)?.values() ?? []) viewers += r.viewers;
      if (told.get(id) === viewers) continue;
      if (viewers > 0) told.set(id, viewers);
      else told.delete(id);
      // Each process tells its own sockets: one message per viewer, never twice.
      io.local.to(drawRoom(id)).emit('draw-room:viewers', { competitionId: id, viewers });
    }
  };
  const timer = setInterval(() => void flush().catch(() => undefined), flushMs);
  timer.unref();
  return { handlers, stop: () => clearInterval(timer) };
}
