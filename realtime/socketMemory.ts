import type { IncomingMessage } from 'node:http';
import type { Socket } from 'socket.io';

/**
 * Drops what a connected socket keeps of its HTTP upgrade only for the handshake: the request
 * (IncomingMessage with its headers, raw headers and query) and Socket.IO's handshake copy of
 * them. Nothing reads them after the middleware has read the session, and every watcher would
 * otherwise hold them for life (heap snapshot diff, docs/performance.md#memory-per-socket). The
 * peer address stays, for the limit log.
 */
export function releaseHandshake(socket: Socket): void {
  const { address, time, issued, secure, xdomain } = socket.handshake;
  (socket as { handshake: Socket['handshake'] }).handshake = {
    address,
    time,
    issued,
    secure,
    xdomain,
    headers: {},
    query: {},
    auth: {},
    url: '',
  };
  const conn = socket.conn as { request?: Partial<IncomingMessage> & { _query?: unknown } };
  const request = conn.request;
  conn.request = undefined;
  // engine.io's upgrade response keeps the request for the connection's life (a close listener):
  // empty what it holds instead.
  if (request) {
    request.rawHeaders = [];
    request.headers = {};
    request._query = {};
  }
}
