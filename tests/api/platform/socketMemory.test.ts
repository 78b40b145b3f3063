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
});
