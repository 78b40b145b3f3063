import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { buyWithCard, signedInCustomer } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import { collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 20, memory per socket: a connected socket no longer keeps its upgrade request's headers,
// yet still gets its private pushes and live tickets (docs/performance.md#memory-per-socket).
describe.skipIf(engineUnavailable())(`what a connected socket keeps on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  it('drops the request and handshake headers, keeps the address, and still gets its pushes', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const { client: customer } = await signedInCustomer(server.url);
    const socket = await connectSocket(server.url, customer.cookieHeader);
    try {
      const ack = await watch(socket, id);
      expect(ack.ok).toBe(true);
      const cart = collect(socket, 'cart:updated');
      const purchased = collect(socket, 'tickets:purchased');

      const [serverSide] = await server.io.fetchSockets();
      const local = server.io.of('/').sockets.get(serverSide!.id)!;
      expect(local.conn.request).toBeUndefined();
      expect(local.handshake.headers).toEqual({});
      expect(local.handshake.address).toMatch(/127\.0\.0\.1/);

      await buyWithCard(customer, id, [7]);
      await waitFor(() => cart.length > 0 && purchased.length > 0, 3000, 'cart and ticket pushes');
      expect(purchased.flatMap((e) => e.numbers)).toContain(7);
    } finally {
      socket.disconnect();
    }
  });

  it("keeps no handler of its own per socket: one shared catch-all, limits in the socket's data", async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const sockets = [await connectSocket(server.url), await connectSocket(server.url)];
    try {
      for (const s of sockets) expect((await watch(s, id)).ok).toBe(true);
      const [a, b] = sockets.map((s) => server.io.of('/').sockets.get(s.id!)!);
      // Client events reach their handlers through one function shared by every socket.
      expect(a!.listenersAny()).toHaveLength(1);
      expect(a!.listenersAny()[0]).toBe(b!.listenersAny()[0]);
      for (const event of ['competition:watch', 'competition:unwatch', 'draw-room:join', 'draw-room:leave'])
        expect(a!.listeners(event as 'disconnect')).toEqual([]);
      // What the application listens to on the socket is the same function for both, and on its
      // connection nothing (the shutdown hand-over reads the write buffers when it runs).
      expect(a!.listeners('disconnect')).toEqual(b!.listeners('disconnect'));
      for (const event of ['packetCreate', 'flush'] as const) expect(a!.conn.listeners(event)).toEqual([]);
      // ws copies these per connection; copies of a frozen object share one hidden class.
      expect(Object.isFrozen(server.io.engine.opts.perMessageDeflate)).toBe(true);
      // The event bucket is one number in the socket's data: no objects of the limits' own.
      expect(a!.data).toEqual({ guestId: null, userId: null, bucketFullAt: expect.any(Number) });
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });
});

describe.skipIf(engineUnavailable())(`the shared event check on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer(
    (s) => {
      server = s;
    },
    { env: { SOCKET_EVENT_BURST: '3', SOCKET_EVENTS_PER_SECOND: '1', SOCKET_STRIKES: '3' } },
  );

  it("counts every client event against the socket's rate, unknown ones and the draw room's too", async () => {
    const socket = await connectSocket(server.url);
    try {
      const errors = collect(socket, 'socket:error');
      let reason = '';
      socket.on('disconnect', (r) => {
        reason = r;
      });
      const stray = () => (socket as unknown as { emit(event: string): void }).emit('no-such-event');
      // Three events no handler knows use up the burst; the draw room's join is then refused.
      for (let i = 0; i < 3; i++) stray();
      const refused = await socket.timeout(5000).emitWithAck('draw-room:join', { competitionId: 1 });
      const message = 'Too many requests on this connection. Please slow down.';
      expect(refused).toEqual({ ok: false, message });
      stray();
      stray();
      // The third strike disconnects.
      await waitFor(() => reason !== '', 3000, 'the disconnect');
      expect(reason).toBe('io server disconnect');
      expect(errors.slice(0, 3)).toEqual(Array(3).fill({ code: 'rate_limited', message }));
    } finally {
      socket.disconnect();
    }
  });
});
