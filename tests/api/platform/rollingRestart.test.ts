import net from 'node:net';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { TicketsPurchasedEvent } from '../../../contract/realtime';
import { type AppProcess, freePort, sleep, startAppProcess } from '../../support/appProcess';
import { card } from '../../support/checkout';
import { makeCustomers, type Shopper, signIn } from '../../support/fastCustomers';
import { insertCompetition } from '../../support/fixtures';
import { doubleSales, miscounted, orphanedHolds, unsettledPayments } from '../../support/paymentInvariants';
import { redisAvailable, TEST_REDIS_URL } from '../../support/redis';
import type { TestSocket } from '../../support/sockets';
import { waitFor } from '../../support/sockets';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// A zero-downtime rolling restart (docs/operations.md#rolling-restart): two processes on one
// MariaDB and one Redis behind a proxy, customers buying and browsers watching through it. One
// process is stopped with SIGTERM and started again while the customers carry on: no purchase is
// lost, the sockets on the stopped process reconnect (to the other one), and every watcher keeps
// seeing every sale.

const CUSTOMERS = 6;
const PURCHASES_EACH = 3;
// Generous: with eight engineers on two cores a process can take 40 s to start; 10 s when idle.
const STARTUP_MS = 60_000;

/**
 * The proxy in front (nginx in docker-compose.yml, in miniature): each new connection goes to the
 * next process in turn, and to the other one when that refuses it.
 */
async function failoverProxy(ports: number[]) {
  let next = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.pause();
    const first = next++ % ports.length;
    const tryBackend = (attempt: number) => {
      if (attempt === ports.length) return client.destroy();
      const backend = net.connect(ports[(first + attempt) % ports.length]!, '127.0.0.1');
      backend.once('error', () => tryBackend(attempt + 1));
      backend.once('connect', () => {
        backend.removeAllListeners('error');
        backend.on('error', () => client.destroy());
        client.on('error', () => backend.destroy());
        client.pipe(backend).pipe(client);
        client.resume();
      });
    };
    tryBackend(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = () => {
    for (const socket of open) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  };
  return { url: `http://127.0.0.1:${port}`, close };
}

/** A browser tab watching the competition: it watches again each time its socket (re)connects. */
function watcher(url: string, competitionId: number) {
  const socket: TestSocket = io(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
    extraHeaders: { Origin: new URL(url).origin },
  });
  const state = { connects: 0, watched: 0, sold: new Set<number>(), socket };
  socket.on('connect', () => {
    state.connects++;
    socket.emit('competition:watch', { competitionId }, (ack) => {
      if (ack.ok) state.watched++;
    });
  });
  socket.on('tickets:purchased', (e: TicketsPurchasedEvent) => {
    for (const n of e.numbers) state.sold.add(n);
  });
  // Sales in a burst may come coalesced (realtime/ticketBatches.ts).
  socket.on('tickets:batch', (e) => {
    for (const c of e.changes) if (c.type === 'purchased') for (const n of c.numbers) state.sold.add(n);
  });
  return state;
}

/**
 * A request as a browser behind the proxy makes it: retried every 100 ms while refused retryably
 * (503, no connection), for up to 10 s.
 */
async function retrying(s: Shopper, path: string, body: unknown) {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    try {
      const res = await s.client.post(path, body);
      if (res.status !== 503) return res;
      expect(res.headers.get('retry-after')).toBeTruthy();
    } catch (err) {
      const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
      // The proxy closes the browser's connection when no process takes it.
      if (code !== 'ECONNREFUSED' && code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET')
        throw new Error(`${path}: ${(err as Error).message} (${code})`);
    }
    await sleep(100);
  }
  throw new Error(`${path}: still refused after 10 s`);
}

/** Purchases completed so far (the restart waits for the first). */
let purchasesDone = 0;

async function buy(s: Shopper, competitionId: number, n: number) {
  const held = await retrying(s, '/api/cart', { competitionId, quantity: 1, selectedNumbers: [n] });
  expect(held.status, held.text).toBe(201);
  const intent = await retrying(s, '/api/create-payment-intent', {});
  expect(intent.status, intent.text).toBe(200);
  const paid = await retrying(s, '/api/payments/sandbox/confirm', {
    clientSecret: intent.body.clientSecret,
    ...card(),
  });
  expect(paid.status, paid.text).toBe(200);
  purchasesDone++;
}

describe.skipIf(testEngine() !== 'mysql' || engineUnavailable())('rolling restart', () => {
  let database: TestDatabase | undefined;
  const processes: AppProcess[] = [];
  let proxy: Awaited<ReturnType<typeof failoverProxy>> | undefined;
  const sockets: TestSocket[] = [];
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all(processes.map((p) => p.kill()));
    await proxy?.close();
    await database?.drop();
  });

  it('restarting one of two processes with SIGTERM loses no purchase, and every watcher keeps seeing sales', async (ctx) => {
    if (!(await redisAvailable('the rolling restart test'))) return ctx.skip();
    database = await createTestDatabase();
    const { db } = database;
    const competitionId = await insertCompetition(db, { totalTickets: 200, ticketPricePence: 100 });
    const [portA, portB] = [await freePort(), await freePort()];
    const settings = (port: number) => ({
      port,
      databaseUrl: database!.databaseUrl,
      dataDir: database!.dataDir,
      env: { REDIS_URL: TEST_REDIS_URL, SHUTDOWN_GRACE_MS: '20000', SWEEP_INTERVAL_MS: '1000' },
    });
    const a = startAppProcess(settings(portA));
    const b = startAppProcess(settings(portB));
    processes.push(a, b);
    const ids = await makeCustomers(db, CUSTOMERS, 'rolling', 0);
    expect(await Promise.all([a.ready(STARTUP_MS), b.ready(STARTUP_MS)])).toEqual([true, true]);
    proxy = await failoverProxy([portA, portB]);
    const url = proxy.url;

    // Two tabs: the proxy puts the first on A, the second on B.
    const onA = watcher(url, competitionId);
    const onB = watcher(url, competitionId);
    sockets.push(onA.socket, onB.socket);
    await waitFor(() => onA.watched === 1 && onB.watched === 1, 10_000, 'both watching');
    const shoppers = await Promise.all(ids.map((id, i) => signIn(url, id, `rolling${i}`, [competitionId])));

    const numbers = (i: number) => Array.from({ length: PURCHASES_EACH }, (_, j) => i * 10 + j + 1);
    const buying = Promise.all(
      shoppers.map(async (s, i) => {
        for (const n of numbers(i)) await buy(s, competitionId, n);
      }),
    );
    // A is restarted while they buy (once the first purchase is through, the others in flight):
    // SIGTERM, a clean exit, then a new process on its port.
    await waitFor(() => purchasesDone > 0, 30_000, 'the first purchase');
    expect(await a.kill('SIGTERM'), a.log.join('')).toBe(0);
    const a2 = startAppProcess(settings(portA));
    processes.push(a2);
    await buying;
    expect(await a2.ready(STARTUP_MS)).toBe(true);

    // A's tab reconnected (to B, or to the new A) and watches again; B's tab never dropped.
    await waitFor(() => onA.connects >= 2 && onA.watched >= 2, 10_000, "A's tab back");
    expect(onB.connects).toBe(1);
    const bought = shoppers.flatMap((_, i) => numbers(i));
    // Every sale reached the tab that stayed, wherever it was made.
    await waitFor(() => bought.every((n) => onB.sold.has(n)), 5000, 'every sale on B');
    // And a sale after the restart reaches both, through either process.
    const after = await signIn(url, ids[0]!, 'rolling0', [competitionId]);
    await buy(after, competitionId, 199);
    await waitFor(() => onA.sold.has(199) && onB.sold.has(199), 5000, 'the last sale on both tabs');

    const completed = await db('orders').where({ status: 'completed' }).count({ n: '*' }).first();
    expect(Number(completed!.n)).toBe(bought.length + 1);
    expect(await unsettledPayments(db), 'captured payments neither fulfilled nor refunded').toEqual([]);
    expect(await doubleSales(db), 'numbers sold twice or not as bought').toEqual([]);
    expect(await miscounted(db), 'tickets_sold against the sold rows').toEqual([]);
    expect(await orphanedHolds(db), 'holds without their cart line').toEqual([]);
  }, 150_000);
});
