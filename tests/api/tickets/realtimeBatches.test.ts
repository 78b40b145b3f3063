import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TicketsBatchEventSchema } from '../../../contract/realtime';
import { shopper } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import { connectSocket, roomBarrier, type TestSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

/** Every ticket frame a socket receives, in arrival order, with the versions it carries. */
function frames(socket: TestSocket) {
  const seen: Array<{ event: string; versions: number[]; numbers: number[] }> = [];
  socket.onAny((event: string, payload: Record<string, unknown>) => {
    if (event === 'tickets:batch') {
      const parsed = v.parse(TicketsBatchEventSchema, payload);
      seen.push({
        event,
        versions: parsed.changes.map((c) => c.version),
        numbers: parsed.changes.flatMap((c) => c.numbers),
      });
    } else if (event.startsWith('tickets:'))
      seen.push({ event, versions: [payload.version as number], numbers: payload.numbers as number[] });
    else seen.push({ event, versions: [], numbers: [] });
  });
  const versions = () => seen.flatMap((f) => f.versions);
  return { seen, versions };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

// Under a burst the server coalesces a competition's ticket changes into `tickets:batch` frames
// (realtime/ticketBatches.ts); a watcher must still get every change exactly once, in order.
describe.skipIf(engineUnavailable())(`ticket changes in a burst on ${testEngine()}`, () => {
  let server: TestServer;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startTestServer({ HOLD_RATE_PER_ADDRESS: '100000' });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.stop();
  });

  /**
   * Every change published so far has reached `sockets` once a `draw:started` sent after them is
   * there (held changes go out first); that marker frame is then dropped from what they saw.
   */
  async function allArrived(id: number, sockets: TestSocket[], received: Array<ReturnType<typeof frames>>) {
    await roomBarrier(server.deps.events, sockets, id);
    for (const r of received)
      expect(r.seen.pop()).toEqual({ event: 'draw:started', versions: [], numbers: [] });
  }

  async function watchers(id: number, count: number) {
    const list = await Promise.all(Array.from({ length: count }, () => connectSocket(server.url)));
    sockets.push(...list);
    for (const w of list) {
      const ack = await watch(w, id);
      if (!ack.ok) throw new Error(ack.message);
    }
    return list;
  }

  it('a burst of 200 changes reaches every watcher as batches, each version exactly once, in order', async () => {
    const id = await insertCompetition(server.database.db, { totalTickets: 1000 });
    const sockets = await watchers(id, 3);
    const received = sockets.map(frames);
    // The publisher is the one the services use, after COMMIT; 200 changes in one go.
    for (let version = 1; version <= 200; version++)
      server.deps.events.publish('tickets.reserved', { competitionId: id, version, numbers: [version] });
    await waitFor(() => received.every((r) => r.versions().length >= 200), 3000, '200 versions everywhere');
    await allArrived(id, sockets, received); // and nothing more (no change sent twice)
    for (const r of received) {
      expect(r.versions()).toEqual(range(1, 200));
      expect(r.seen.flatMap((f) => f.numbers)).toEqual(range(1, 200));
      const batches = r.seen.filter((f) => f.event === 'tickets:batch');
      // One frame per tick instead of one per change.
      expect(batches.length).toBeGreaterThan(0);
      expect(r.seen.length).toBeLessThan(20);
    }
    // Every watcher got the same frames.
    expect(received[1]!.seen).toEqual(received[0]!.seen);
    expect(received[2]!.seen).toEqual(received[0]!.seen);
  });

  it('after the burst a change goes out alone, and nothing for the room overtakes held changes', async () => {
    const id = await insertCompetition(server.database.db, { totalTickets: 1000 });
    const [watcher] = await watchers(id, 1);
    const r = frames(watcher!);
    for (let version = 1; version <= 30; version++)
      server.deps.events.publish('tickets.reserved', { competitionId: id, version, numbers: [version] });
    server.deps.events.publish('draw.started', { competitionId: id });
    await waitFor(() => r.seen.some((f) => f.event === 'draw:started'), 2000, 'draw:started');
    // draw:started came after every change published before it, though some were held for a tick.
    expect(r.versions()).toEqual(range(1, 30));
    expect(r.seen.some((f) => f.event === 'tickets:batch')).toBe(true);

    // The room's next tick gathers nothing and ends the burst (a rule about time: waited for).
    await waitFor(() => !server.ticketBatcher.ticking(id), 2000, 'the burst to end');
    const before = r.seen.length;
    server.deps.events.publish('tickets.released', { competitionId: id, version: 31, numbers: [1] });
    await waitFor(() => r.seen.length === before + 1, 2000, 'the single change');
    expect(r.seen.at(-1)).toEqual({ event: 'tickets:released', versions: [31], numbers: [1] });
    // Sent at once, not held for a tick (which would have started one).
    expect(server.ticketBatcher.ticking(id)).toBe(false);
  });

  it('concurrent holds over HTTP: every version exactly once, in order, whatever the framing', async () => {
    const id = await insertCompetition(server.database.db, { totalTickets: 1000 });
    const sockets = await watchers(id, 2);
    const received = sockets.map(frames);
    const shoppers = await Promise.all(Array.from({ length: 60 }, () => shopper(server.url, id)));
    const results = await Promise.all(
      shoppers.map((s, i) =>
        s.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [i + 1] }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array(60).fill(201));
    await waitFor(() => received.every((r) => r.versions().length >= 60), 3000, '60 versions');
    await allArrived(id, sockets, received);
    for (const r of received) {
      expect(r.versions()).toEqual(range(1, 60));
      expect(r.seen.flatMap((f) => f.numbers).sort((a, b) => a - b)).toEqual(range(1, 60));
    }
  });
});

describe.skipIf(engineUnavailable())(`held changes at shutdown on ${testEngine()}`, () => {
  it('go out when Socket.IO closes, before the connections do', async () => {
    const server = await startTestServer();
    const id = await insertCompetition(server.database.db, { totalTickets: 1000 });
    const watcher = await connectSocket(server.url);
    try {
      expect((await watch(watcher, id)).ok).toBe(true);
      const r = frames(watcher);
      const disconnected = new Promise<void>((resolve) => watcher.once('disconnect', () => resolve()));
      for (let version = 1; version <= 40; version++)
        server.deps.events.publish('tickets.reserved', { competitionId: id, version, numbers: [version] });
      // Some are held for the next tick; closing sends them first.
      await server.io.close();
      await disconnected;
      expect(r.versions()).toEqual(range(1, 40));
      expect(r.seen.some((f) => f.event === 'tickets:batch')).toBe(true);
    } finally {
      watcher.disconnect();
      await server.stop();
    }
  });
});
