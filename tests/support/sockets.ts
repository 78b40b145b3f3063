import { io, type Socket } from 'socket.io-client';
import type { EventBus } from '../../api/platform/events';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
  TicketChange,
  WatchAck,
} from '../../contract/realtime';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A socket with the given cookies (a visitor's tab), connected. It sends the site's own Origin, as
 * the site's pages do: a socket with no Origin is a guest whatever its cookie (docs/security.md).
 * Pass `origin: null` to send none.
 */
export async function connectSocket(
  baseUrl: string,
  cookie = '',
  origin: string | null = new URL(baseUrl).origin,
): Promise<TestSocket> {
  const socket: TestSocket = io(baseUrl, {
    transports: ['websocket'],
    forceNew: true,
    extraHeaders: { ...(cookie ? { Cookie: cookie } : {}), ...(origin ? { Origin: origin } : {}) },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Watches a competition; with `timeoutMs`, a missing acknowledgement fails instead of hanging. */
export function watch(socket: TestSocket, competitionId: number, timeoutMs?: number): Promise<WatchAck> {
  if (timeoutMs === undefined)
    return new Promise((resolve) => socket.emit('competition:watch', { competitionId }, resolve));
  return socket.timeout(timeoutMs).emitWithAck('competition:watch', { competitionId });
}

const TICKET_EVENTS: Record<string, TicketChange['type']> = {
  'tickets:reserved': 'reserved',
  'tickets:released': 'released',
  'tickets:purchased': 'purchased',
};

/**
 * Collects every payload of one event name. For a ticket event, the changes of that type that came
 * in a `tickets:batch` are collected too, as the single events they stand for, in order: the server
 * coalesces a burst (realtime/ticketBatches.ts) and a client applies a batch as the singles, so a
 * test sees each change once whichever way it was framed. Tests of the framing itself listen to
 * `tickets:batch` directly.
 */
export function collect<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) {
  const received: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed `on` is awkward to call generically
  (socket as any).on(event, (payload: Parameters<ServerToClientEvents[E]>[0]) => received.push(payload));
  const type = TICKET_EVENTS[event];
  if (type)
    socket.on('tickets:batch', ({ competitionId, changes }) => {
      for (const { type: changed, ...change } of changes)
        if (changed === type)
          received.push({ competitionId, ...change } as Parameters<ServerToClientEvents[E]>[0]);
    });
  return received;
}

/**
 * Polls `check` every `intervalMs` until it holds; throws naming `what` once `timeoutMs` has passed.
 * The deadline is only for failures: a passing test waits exactly as long as the condition takes.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 2000,
  what = 'condition',
  intervalMs = 10,
) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** What the server answers a watch of competition 0 (contract/realtime.ts, WatchRequestSchema). */
const BARRIER_ANSWER = 'competitionId must be a positive whole number';

/**
 * An acknowledged round trip over `socket`, to show that something did NOT arrive. The server
 * handles a socket's events in order and writes to it in order, so once the ack of this later
 * emit is back, every event the server had sent this socket before it has arrived. It must follow
 * a condition showing the earlier action's broadcast was sent (its HTTP answer, or the same
 * broadcast reaching another socket). There is no ping event: it watches competition 0, which
 * the server refuses at once without joining a room. It costs one of the socket's event tokens
 * (docs/security.md#socket-limits), so a refusal for the rate is reported, not taken as the ack.
 */
export async function barrier(socket: TestSocket, timeoutMs = 5000): Promise<void> {
  const answer = await socket.timeout(timeoutMs).emitWithAck('competition:watch', { competitionId: 0 });
  if (answer.ok || answer.message !== BARRIER_ANSWER)
    throw new Error(`barrier: unexpected answer ${JSON.stringify(answer)}`);
}

/**
 * A round trip through a competition room, for ticket changes the batcher may still hold
 * (realtime/ticketBatches.ts): publishes `draw.started` for it on the server's bus. A room's held
 * changes go out before any other event to that room (realtime/broadcaster.ts), so once
 * `draw:started` is here, every change published before it has arrived. Only for tests that
 * publish on the bus themselves or whose changes were published before the call.
 */
export async function roomBarrier(
  events: EventBus,
  sockets: TestSocket | TestSocket[],
  competitionId: number,
  timeoutMs = 5000,
): Promise<void> {
  const arrived = (Array.isArray(sockets) ? sockets : [sockets]).map(
    (socket) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('roomBarrier: no draw:started')), timeoutMs);
        const onStarted = (e: { competitionId: number }) => {
          if (e.competitionId !== competitionId) return;
          clearTimeout(timer);
          socket.off('draw:started', onStarted);
          resolve();
        };
        socket.on('draw:started', onStarted);
      }),
  );
  events.publish('draw.started', { competitionId });
  await Promise.all(arrived);
}
