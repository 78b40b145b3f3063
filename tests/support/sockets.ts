import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, WatchAck } from '../../contract/realtime';

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

/** Collects every payload of one event name. */
export function collect<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) {
  const received: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed `on` is awkward to call generically
  (socket as any).on(event, (payload: Parameters<ServerToClientEvents[E]>[0]) => received.push(payload));
  return received;
}

export async function waitFor(check: () => boolean, timeoutMs = 2000, what = 'condition') {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
