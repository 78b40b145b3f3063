import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { pickDistinct, seededRandom } from '../../../server/seeds/random';
import { ledgerMismatches } from '../../support/admin';
import { card, grantCredit } from '../../support/checkout';
import { insertCompetition, insertUser } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// Chaos: the real server (server/main.ts under tsx, as `npm run serve` runs it) on a fresh MariaDB
// database takes many concurrent card checkouts and is killed with SIGKILL mid-purchase, several
// times: at named fault points (FAULT_INJECTION, api/platform/faults.ts) and at seeded random
// moments while payments are being confirmed. After a last clean start the payment reconciler and
// the sweeper run, and then the money and ticket invariants must hold. MariaDB only: several
// processes share one database there, which is what a restart is. CHAOS_SEED replays a run.

const SEED = process.env.CHAOS_SEED ?? 'chaos-2026';
const ROOT = path.resolve(import.meta.dirname, '../../..');
const CUSTOMERS = 14;
const STARTUP_TIMEOUT_MS = 45_000;
const SETTLE_TIMEOUT_MS = 40_000;

/**
 * The crash point each life of the server carries before the last, clean one. A SIGKILL also
 * follows at a seeded moment once payments are being confirmed, whichever comes first, and
 * whatever is still running at the end of a round is killed too.
 */
const LIVES: Array<(r: () => number) => string> = [
  (r) => `after-capture@${4 + Math.floor(r() * 4)}`,
  // Its start-up reconciler claims a payment left above and dies: the next life takes it over.
  () => 'after-reconcile-claim@1',
  (r) => `after-sale-committed@${1 + Math.floor(r() * 3)}`,
];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class ServerProcess {
  readonly exited: Promise<void>;
  private alive = true;

  constructor(
    readonly child: ChildProcess,
    readonly log: string[],
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.alive = false;
        resolve();
      }),
    );
  }

  get running() {
    return this.alive;
  }

  /** Polls /api/health until it answers; false when the process died first. */
  async ready(url: string): Promise<boolean> {
    const until = Date.now() + STARTUP_TIMEOUT_MS;
    while (this.alive && Date.now() < until) {
      try {
        if ((await fetch(`${url}/api/health`)).status === 200) return true;
      } catch {
        // not listening yet
      }
      await sleep(150);
    }
    if (this.alive) throw new Error(`server did not start:\n${this.log.slice(-30).join('')}`);
    return false;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL') {
    if (this.alive) this.child.kill(signal);
    await this.exited;
  }
}

function startServerProcess(database: TestDatabase, port: number, faults: string | undefined): ServerProcess {
  const log: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.databaseUrl,
      DATA_DIR: database.dataDir,
      SEED_DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      REGISTRATIONS_PER_ADDRESS: '100000',
      RESERVATION_TTL_SECONDS: '10',
      PAYMENT_WINDOW_SECONDS: '60',
      SWEEP_INTERVAL_MS: '1000',
      RECONCILE_INTERVAL_MS: '1000',
      RECONCILE_GRACE_SECONDS: '1',
      ...(faults ? { FAULT_INJECTION: faults } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => log.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => log.push(b.toString()));
  return new ServerProcess(child, log);
}

interface Shopper {
  client: TestClient;
  userId: number;
}

const PASSWORD = 'chaos-password';

/**
 * The customers, made in the database with £5.00 of credit on their ledger. Their password hash
 * uses a small scrypt cost (the app reads the cost from the hash), so signing fourteen people in
 * on a busy machine takes a moment rather than most of the time budget.
 */
async function makeCustomers(db: Knex, count: number): Promise<number[]> {
  const salt = randomBytes(16);
  const key = scryptSync(PASSWORD, salt, 64, { N: 1024, r: 8, p: 1 });
  const passwordHash = ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = await insertUser(db, { username: `chaos${i}`, email: `chaos${i}@example.co.uk` });
    await db('users').where({ id }).update({ passwordHash });
    await grantCredit(db, id, 500);
    ids.push(id);
  }
  return ids;
}

/** Signs a customer in and answers the skill question of each competition. */
async function signIn(
  url: string,
  userId: number,
  username: string,
  competitionIds: number[],
): Promise<Shopper> {
  const client = new TestClient(url);
  await client.fetchCsrfToken();
  const login = await client.post('/api/login', { username, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  await client.fetchCsrfToken();
  for (const id of competitionIds) {
    const res = await client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
    if (res.body?.correct !== true) throw new Error(`skill answer failed: ${res.status} ${res.text}`);
  }
  return { client, userId };
}

/** One customer's attempt: hold, start checkout, pay by card. Any failure (a dead server) just ends it. */
interface Attempt {
  competitionId: number;
  numbers: number[];
  useCredit: boolean;
}

async function attempt(s: Shopper, a: Attempt, onConfirm: () => void): Promise<string> {
  try {
    const held = await s.client.post('/api/cart', {
      competitionId: a.competitionId,
      quantity: a.numbers.length,
      selectedNumbers: a.numbers,
    });
    if (held.status !== 201) return `hold ${held.status}`;
    const intent = await s.client.post('/api/create-payment-intent', { useCredit: a.useCredit });
    if (intent.status !== 200) return `checkout ${intent.status}`;
    if (!intent.body.clientSecret) return `checkout ${intent.body.status}`;
    onConfirm();
    const paid = await s.client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.body.clientSecret,
      ...card(),
    });
    return `confirm ${paid.status}`;
  } catch (err) {
    return `died: ${(err as Error).message}`;
  }
}

// ---- The invariants, each returning the rows that break it. ----

/** Every payment the sandbox took belongs to a completed order, or to one refunded in full. */
async function unsettledPayments(db: Knex) {
  const rows = (await db('sandboxPaymentIntents as i')
    .leftJoin('orders as o', 'o.stripePaymentIntentId', 'i.id')
    .where('i.status', 'succeeded')
    .select(
      'i.id as intentId',
      'i.orderId as intentOrderId',
      'i.amountPence',
      'o.id as orderId',
      'o.status',
      'o.refundedAt',
      'o.refundedPence',
    )) as Array<Record<string, unknown>>;
  const refunds = (await db('sandboxRefunds')
    .groupBy('paymentIntentId')
    .select('paymentIntentId')
    .sum({ total: 'amountPence' })) as Array<{ paymentIntentId: string; total: number }>;
  const refunded = new Map(refunds.map((r) => [r.paymentIntentId, Number(r.total)]));
  return rows.filter((r) => {
    const back = refunded.get(r.intentId as string) ?? 0;
    if (r.status === 'completed') return back !== 0; // sold and refunded: the customer lost out
    return !(r.refundedAt && back === Number(r.amountPence)); // neither sold nor refunded in full
  });
}

/** A completed card order without a payment taken for its exact total. */
async function unpaidCompletedOrders(db: Knex) {
  return db('orders as o')
    .leftJoin('sandboxPaymentIntents as i', 'i.id', 'o.stripePaymentIntentId')
    .where('o.status', 'completed')
    .where('o.paymentProvider', 'sandbox')
    .where((q) =>
      q
        .whereNull('i.id')
        .orWhereNot('i.status', 'succeeded')
        .orWhereRaw('?? <> ??', ['i.amountPence', 'o.totalPence']),
    )
    .select('o.id', 'o.totalPence', 'i.id as intentId', 'i.status as intentStatus', 'i.amountPence');
}

/** A number sold twice, or sold rows that do not match what completed orders bought. */
async function doubleSales(db: Knex) {
  const twice = await db('tickets')
    .where('status', 'sold')
    .groupBy('competitionId', 'number')
    .havingRaw('count(*) > 1')
    .select('competitionId', 'number')
    .count({ n: '*' });
  const items = (await db('orderItems as i')
    .join('orders as o', 'o.id', 'i.orderId')
    .where('o.status', 'completed')
    .select('i.orderId', 'i.competitionId', 'i.selectedNumbers')) as Array<{
    orderId: number;
    competitionId: number;
    selectedNumbers: string;
  }>;
  const bought = new Map<string, number[]>();
  for (const i of items) {
    for (const n of JSON.parse(i.selectedNumbers) as number[]) {
      const key = `${i.competitionId}:${n}`;
      bought.set(key, [...(bought.get(key) ?? []), Number(i.orderId)]);
    }
  }
  const sold = (await db('tickets')
    .where('status', 'sold')
    .select('competitionId', 'number', 'orderId')) as Array<{
    competitionId: number;
    number: number;
    orderId: number;
  }>;
  const soldKeys = new Map(sold.map((t) => [`${t.competitionId}:${t.number}`, Number(t.orderId)]));
  const boughtTwice = [...bought]
    .filter(([, orders]) => orders.length > 1)
    .map(([key, orders]) => ({ key, orders }));
  const notSold = [...bought]
    .filter(([key, orders]) => soldKeys.get(key) !== orders[0])
    .map(([key, orders]) => ({ key, orders, soldTo: soldKeys.get(key) ?? null }));
  const soldWithoutOrder = [...soldKeys]
    .filter(([key]) => !bought.has(key))
    .map(([key, orderId]) => ({ key, orderId }));
  return [...twice, ...boughtTwice, ...notSold, ...soldWithoutOrder];
}

/** competitions.tickets_sold against its sold rows. */
async function miscounted(db: Knex) {
  return db('competitions as c')
    .leftJoin('tickets as t', (j) => j.on('t.competitionId', 'c.id').andOnVal('t.status', 'sold'))
    .groupBy('c.id', 'c.ticketsSold')
    .select('c.id', 'c.ticketsSold')
    .count({ soldRows: 't.id' })
    .havingRaw('count(t.id) <> c.tickets_sold');
}

/** Holds (and cart lines) still in place well after they expired: the sweeper runs every second. */
async function staleHolds(db: Knex, now: number) {
  const slack = 3000;
  const tickets = await db('tickets')
    .where('status', 'reserved')
    .where('expiresAt', '<', now - slack)
    .select('id', 'competitionId', 'number', 'expiresAt');
  const items = await db('cartItems')
    .where('expiresAt', '<', now - slack)
    .select('id', 'competitionId', 'expiresAt');
  return [...tickets, ...items.map((i) => ({ cartItem: i }))];
}

describe.skipIf(testEngine() !== 'mysql' || engineUnavailable())(
  `chaos: SIGKILL mid-purchase on ${testEngine()}`,
  () => {
    let database: TestDatabase | undefined;
    let current: ServerProcess | undefined;
    afterAll(async () => {
      await current?.kill();
      await database?.drop();
    });

    it(`every captured payment ends fulfilled or refunded, whatever dies in between (seed ${SEED})`, async () => {
      const random = seededRandom(SEED);
      database = await createTestDatabase();
      const { db } = database;
      // A small competition where customers collide, and one where two tickets reach the £5.00
      // needed to spend the customers' credit (so fulfilment also debits the ledger).
      const small = await insertCompetition(db, {
        totalTickets: 40,
        ticketPricePence: 100,
        title: 'Chaos small',
      });
      const big = await insertCompetition(db, {
        totalTickets: 400,
        ticketPricePence: 250,
        title: 'Chaos big',
      });
      const customerIds = await makeCustomers(db, CUSTOMERS);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;

      const shoppers: Shopper[] = [];
      const outcomes: string[] = [];
      const lives: string[] = [];
      for (const life of LIVES) {
        const faults = life(random);
        // Every choice is drawn before anything runs, so one seed is one run.
        const attempts: Attempt[] = Array.from({ length: CUSTOMERS }, () => {
          const onBig = random() < 0.4;
          const competitionId = onBig ? big : small;
          const numbers = pickDistinct(random, onBig ? 400 : 40, 1 + Math.floor(random() * 2));
          return { competitionId, numbers, useCredit: onBig && numbers.length === 2 && random() < 0.5 };
        });
        const killAfter = 500 + Math.floor(random() * 2000);
        lives.push(`${faults}, else SIGKILL ${killAfter} ms into confirming`);

        current = startServerProcess(database, port, faults);
        if (!(await current.ready(url))) continue; // died at start-up (the reconciler's own fault point)
        const server = current;
        // The customers sign in once, in the first life; their sessions live in the database.
        if (!shoppers.length) {
          shoppers.push(
            ...(await Promise.all(customerIds.map((id, i) => signIn(url, id, `chaos${i}`, [small, big])))),
          );
        }
        let timer: NodeJS.Timeout | undefined;
        const firstConfirm = () => {
          if (!timer) timer = setTimeout(() => void server.kill(), killAfter);
        };
        outcomes.push(...(await Promise.all(shoppers.map((s, i) => attempt(s, attempts[i]!, firstConfirm)))));
        clearTimeout(timer);
        // Still alive (its fault point was never reached): a SIGKILL now, with whatever is in flight.
        await server.kill();
      }

      // A last clean life: the reconciler and the sweeper close every window the crashes left open.
      current = startServerProcess(database, port, undefined);
      expect(await current.ready(url)).toBe(true);
      const until = Date.now() + SETTLE_TIMEOUT_MS;
      while ((await unsettledPayments(db)).length && Date.now() < until) await sleep(500);
      await sleep(2500); // one more sweep past the last expiry

      const captured = Number(
        (await db('sandboxPaymentIntents').where('status', 'succeeded').count({ n: '*' }).first())!.n,
      );
      const summary = { seed: SEED, lives, captured, outcomes: countBy(outcomes) };
      // The run must have taken money for the invariants below to mean anything.
      expect(captured, JSON.stringify(summary)).toBeGreaterThan(0);
      expect(await unsettledPayments(db), 'captured payments neither fulfilled nor refunded').toEqual([]);
      expect(await unpaidCompletedOrders(db), 'completed orders without their payment').toEqual([]);
      expect(await doubleSales(db), 'numbers sold twice or not as bought').toEqual([]);
      expect(await miscounted(db), 'tickets_sold against the sold rows').toEqual([]);
      expect(await ledgerMismatches(db), 'credit balances against their ledger').toEqual([]);
      expect(await staleHolds(db, Date.now()), 'holds past their expiry').toEqual([]);
      console.info(`chaos run: ${JSON.stringify(summary)}`);
    }, 175_000);
  },
);

function countBy(values: string[]) {
  const counts: Record<string, number> = {};
  for (const v of values) {
    const key = v.startsWith('died') ? 'died (server killed)' : v;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
