import type { Logger } from 'pino';
import type { ClientToServerEvents } from '../contract/realtime';
import type { SocketLimiter } from './socketLimits';
import type { RealtimeServer, RealtimeSocket } from './sockets';

/**
 * What the server does with one client event: the socket, then what the client sent, unchecked
 * (each handler validates its payload, and calls `ack` only if it is a function).
 */
export type ClientEventHandler = (socket: RealtimeSocket, payload: unknown, ack: unknown) => unknown;

/** Every client event of the contract, each with its handler (a missing one is a type error). */
export type ClientEventHandlers = Record<keyof ClientToServerEvents, ClientEventHandler>;

/**
 * Every event a client sends goes through one function shared by all sockets: the socket's event
 * rate first (any event, known or not: over the rate it is dropped, its ack answered
 * `{ ok: false, message }`), then the event's handler. One Socket.IO catch-all listener per
 * socket instead of a middleware and a listener per event, each a closure over its socket: what
 * a watching socket costs beyond plain Socket.IO (docs/performance.md#memory-per-socket).
 */
export function serveClientEvents(
  io: RealtimeServer,
  handlers: ClientEventHandlers,
  { limiter, logger }: { limiter: SocketLimiter; logger: Logger },
): void {
  const table = new Map<string, ClientEventHandler>(Object.entries(handlers));
  const failed = (err: unknown, event: string) => logger.error({ err, event }, 'socket event failed');
  // Socket.IO calls catch-all listeners with the socket as `this`.
  function receive(this: RealtimeSocket, event: string, ...args: unknown[]): void {
    if (!this.connected) return;
    const refused = limiter.refuseEvent(this);
    if (refused) {
      const ack = args.at(-1);
      if (typeof ack === 'function') ack({ ok: false, message: refused });
      return;
    }
    const handler = table.get(event);
    if (!handler) return;
    try {
      const done = handler(this, args[0], args[1]);
      if (done instanceof Promise) done.catch((err: unknown) => failed(err, event));
    } catch (err) {
      failed(err, event);
    }
  }
  io.on('connection', (socket) => socket.onAny(receive));
}
