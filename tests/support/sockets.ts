import { io, type Socket } from 'socket.io-client';
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

export function watch(socket: TestSocket, competitionId: number): Promise<WatchAck> {
  return new Promise((resolve) => socket.emit('competition:watch', { competitionId }, resolve));
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

export async function waitFor(check: () => boolean, timeoutMs = 2000, what = 'condition') {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
