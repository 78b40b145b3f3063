import type http from 'node:http';
import { ERROR_CODES } from '../contract/errors';

export const RESTARTING_MESSAGE = 'The site is restarting. Please try again in a moment.';
/** Seconds a refused client is told to wait: another process (or this one, restarted) is there by then. */
const RETRY_AFTER_SECONDS = 2;

/**
 * Counts the HTTP requests in flight so a shutdown can wait for them. Once draining, a request
 * that still arrives (on a kept-alive connection) is refused before anything is done, with a 503
 * the client may safely retry, and every answer closes its connection.
 */
export class RequestDrain {
  private readonly active = new Set<http.ServerResponse>();
  private draining = false;
  private onIdle: (() => void) | undefined;

  get inFlight(): number {
    return this.active.size;
  }

  wrap(handler: http.RequestListener): http.RequestListener {
    return (req, res) => {
      if (this.draining) return refuse(res);
      this.active.add(res);
      res.once('close', () => {
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
