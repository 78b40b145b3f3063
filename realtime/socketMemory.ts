import type { IncomingMessage } from 'node:http';
import type { Socket } from 'socket.io';

/** What a released handshake and request hold instead of their headers and query: one frozen empty object. */
const NOTHING = Object.freeze({});
const NO_RAW_HEADERS: string[] = Object.freeze([]) as unknown as string[];

/**
 * Drops what a connected socket keeps of its HTTP upgrade only for the handshake: the request
 * (IncomingMessage with its headers, raw headers and query) and Socket.IO's handshake copy of
 * them. Nothing reads them after the middleware has read the session, and every watcher would
 * otherwise hold them for life (heap snapshot diff, docs/performance.md#memory-per-socket). What
 * replaces them is shared by every socket, frozen so that no socket can write into another's. The
 * peer address stays, for the limit log.
 */
export function releaseHandshake(socket: Socket): void {
  const handshake = socket.handshake as {
    -readonly [K in keyof Socket['handshake']]: Socket['handshake'][K];
  };
  handshake.headers = NOTHING;
  handshake.query = NOTHING;
  handshake.auth = NOTHING;
  handshake.url = '';
  const conn = socket.conn as { request?: Partial<IncomingMessage> & { _query?: unknown } };
  const request = conn.request;
  conn.request = undefined;
  // engine.io's upgrade response keeps the request for the connection's life (a close listener):
  // empty what it holds instead.
  if (request) {
    request.rawHeaders = NO_RAW_HEADERS;
    request.headers = NOTHING;
    request._query = NOTHING;
  }
}
