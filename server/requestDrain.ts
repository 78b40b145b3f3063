import type http from 'node:http';
import type net from 'node:net';
import { ERROR_CODES } from '../contract/errors';

export const RESTARTING_MESSAGE = 'The site is restarting. Please try again in a moment.';
/** Seconds a refused client is told to wait: another process (or this one, restarted) is there by then. */
const RETRY_AFTER_SECONDS = 2;
/**
 * How long a kept-alive connection must have been quiet before a shutdown closes it. HTTP/1.1 has
 * no way to tell a client not to reuse an idle connection, so one closed just as its client sends
 * on it loses that request. A client sends its next request within moments of the last answer, so
 * waiting this long after each connection's last answer turns that race into a retryable 503.
 */
export const QUIET_BEFORE_CLOSE_MS = 1000;

/**
 * Counts the HTTP requests in flight so a shutdown can wait for them. Once draining, a request
 * that still arrives (on a kept-alive connection) is refused before anything is done, with a 503
 * the client may safely retry, and every answer closes its connection.
 */
export class RequestDrain {
  private readonly active = new Set<http.ServerResponse>();
  /** Each open connection and when a request on it last began or ended. */
  private readonly lastActive = new Map<net.Socket, number>();
  private draining = false;
  private onIdle: (() => void) | undefined;

  get inFlight(): number {
    return this.active.size;
  }

  /** Tracks the server's connections, for `quiet`. */
  watch(server: http.Server): void {
    server.on('connection', (socket: net.Socket) => {
      this.lastActive.set(socket, Date.now());
      socket.once('close', () => this.lastActive.delete(socket));
    });
  }

  wrap(handler: http.RequestListener): http.RequestListener {
    return (req, res) => {
      this.touch(req.socket);
      if (this.draining) return refuse(res);
      this.active.add(res);
      res.once('close', () => {
        this.touch(req.socket);
        this.active.delete(res);
        if (this.draining && this.active.size === 0) this.onIdle?.();
      });
      handler(req, res);
    };
  }

  /** Refuses new requests; true when those in flight have all finished, false when `graceMs` ran out first. */
  drain(graceMs: number): Promise<boolean> {
    this.draining = true;
    // Answers still to come close their connection, so clients reconnect (to another process).
    for (const res of this.active) if (!res.headersSent) res.setHeader('Connection', 'close');
    if (this.active.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.onIdle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  /**
   * After `drain`: resolves once every connection still open has been quiet for `quietMs` (a request
   * arriving meanwhile is refused, which closes its connection), or after `maxMs` at most.
   */
  async quiet(quietMs = QUIET_BEFORE_CLOSE_MS, maxMs = quietMs): Promise<void> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const now = Date.now();
      let latest = 0;
      for (const at of this.lastActive.values()) latest = Math.max(latest, at);
      const wait = Math.min(latest + quietMs, deadline) - now;
      if (wait <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private touch(socket: net.Socket): void {
    if (this.lastActive.has(socket)) this.lastActive.set(socket, Date.now());
  }
}

function refuse(res: http.ServerResponse): void {
  const body = JSON.stringify({ message: RESTARTING_MESSAGE, code: ERROR_CODES.unavailable });
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': String(RETRY_AFTER_SECONDS),
    Connection: 'close',
  });
  res.end(body);
}
