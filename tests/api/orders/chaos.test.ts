import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { pickDistinct, seededRandom } from '../../../server/seeds/random';
import { ledgerMismatches } from '../../support/admin';
import { type AppProcess, freePort, sleep, startAppProcess } from '../../support/appProcess';
import { card } from '../../support/checkout';
import { makeCustomers, type Shopper, signIn } from '../../support/fastCustomers';
import { insertCompetition, sellTickets } from '../../support/fixtures';
import { duplicateOrMissingMessages, unconfirmedOrders, unsentDrawMail } from '../../support/mailInvariants';
import { outboxDrained } from '../../support/outbox';
import {
  doubleSales,
  miscounted,
  staleHolds,
  unpaidCompletedOrders,
  unsettledPayments,
} from '../../support/paymentInvariants';
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
// the sweeper run, and then the money and ticket invariants must hold, and every e-mail owed (the
// confirmations of the sales, the results of the draws made meanwhile) has been sent exactly once,
// one message per Message-ID in the captured mail (DATA_DIR/outbox). A last crashing life runs a
// cancelled competition's bulk refund and is killed between refunding an order and recording it:
// the clean life resumes the job, and each of its orders is refunded exactly once, its entrant
// e-mailed once. MariaDB only: several
// processes share one database there, which is what a restart is. CHAOS_SEED replays a run.

const SEED = process.env.CHAOS_SEED ?? 'chaos-2026';
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
  // Killed between an e-mail going out and its outbox row being marked sent, if not after a sale.
  (r) => `after-sale-committed@${1 + Math.floor(r() * 3)},after-mail-sent@${2 + Math.floor(r() * 4)}`,
  // Killed right after a draw's COMMIT, before its e-mails (each life's draw is made by the job).
  () => 'after-draw-committed@1',
];

/** A life of the server: quick holds, sweeps and reconciler runs, and this life's crash point. */
const startLife = (database: TestDatabase, port: number, faults: string | undefined): AppProcess =>
  startAppProcess({
    port,
    databaseUrl: database.databaseUrl,
    dataDir: database.dataDir,
    env: {
      RESERVATION_TTL_SECONDS: '10',
      PAYMENT_WINDOW_SECONDS: '60',
      SWEEP_INTERVAL_MS: '1000',
      RECONCILE_INTERVAL_MS: '1000',
      RECONCILE_GRACE_SECONDS: '1',
      // The job draws each life's ended auto-win competition at once on the in-process beacon.
      DRAW_BEACON: 'on-demand',
      DRAW_BEACON_DELAY_SECONDS: '1',
      DRAW_BEACON_PERIOD_SECONDS: '1',
      // Owed e-mails left by a crash are sent again quickly.
      OUTBOX_INTERVAL_MS: '500',
      OUTBOX_RETRY_BASE_MS: '200',
      OUTBOX_LEASE_SECONDS: '2',
      ...(faults ? { FAULT_INJECTION: faults } : {}),
    },
  });

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

describe.skipIf(testEngine() !== 'mysql' || engineUnavailable())(
  `chaos: SIGKILL mid-purchase on ${testEngine()}`,
  () => {
    let database: TestDatabase | undefined;
    let current: AppProcess | undefined;
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
      const customerIds = await makeCustomers(db, CUSTOMERS, 'chaos');
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;

      const shoppers: Shopper[] = [];
      const outcomes: string[] = [];
      const lives: string[] = [];
      const processes: AppProcess[] = [];
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

        // A competition for this life's draw job: ended, auto-win, three customers' entries.
        const toDraw = await insertCompetition(db, {
          totalTickets: 30,
          autoWin: true,
          title: `Chaos draw ${lives.length}`,
        });
        for (const [i, userId] of customerIds.slice(0, 3).entries()) {
          const numbers = [i + 1, i + 11];
          const orderId = await sellTickets(db, toDraw, userId, numbers);
          // The order's line, as a sale writes it (the invariants compare sold rows with it).
          await db('orderItems').insert({
            orderId,
            competitionId: toDraw,
            title: 'Chaos draw',
            ticketPricePence: 100,
            quantity: numbers.length,
            paidPence: 100 * numbers.length,
            selectedNumbers: JSON.stringify(numbers),
            createdAt: Date.now(),
          });
        }
        await db('competitions')
          .where({ id: toDraw })
          .update({ status: 'ended', endDate: Date.now() - 1000 });

        current = startLife(database, port, faults);
        processes.push(current);
        if (!(await current.ready(STARTUP_TIMEOUT_MS))) continue; // died at start-up (the reconciler's own fault point)
        const server = current;
        if (faults.startsWith('after-draw-committed')) {
          // This life is the draw's: its job draws within a second of start and the process dies
          // right after that COMMIT, before the e-mails. Waited for by its exit, not a clock.
          await Promise.race([server.exited, sleep(SETTLE_TIMEOUT_MS)]);
          await server.kill();
          continue;
        }
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

      // The bulk refund's life: a competition short of its minimum at its end date is cancelled
      // at start-up and its refund job dies after its third order (docs/product.md).
      const cancelled = await cardPaidCompetition(db, customerIds);
      current = startLife(database, port, 'after-bulk-refund-order@3');
      processes.push(current);
      lives.push('after-bulk-refund-order@3');
      await Promise.race([current.exited, sleep(SETTLE_TIMEOUT_MS)]);
      await current.kill();
      const refundJob = () => db('bulkRefundJobs').where({ competitionId: cancelled.id }).first();
      expect(Number((await refundJob())?.done), 'orders refunded before the crash').toBe(2);

      // A last clean life: the reconciler and the sweeper close every window the crashes left open.
      current = startLife(database, port, undefined);
      expect(await current.ready(STARTUP_TIMEOUT_MS)).toBe(true);
      const until = Date.now() + SETTLE_TIMEOUT_MS;
      while ((await unsettledPayments(db)).length && Date.now() < until) await sleep(500);
      const undrawn = () => db('competitions').where('title', 'like', 'Chaos draw%').whereNull('drawnAt');
      while ((await undrawn()).length && Date.now() < until) await sleep(500);
      while ((await refundJob())?.status !== 'done' && Date.now() < until) await sleep(500);
      await sleep(2500); // one more sweep past the last expiry
      await outboxDrained(db, 20_000);

      const captured = Number(
        (await db('sandboxPaymentIntents').where('status', 'succeeded').count({ n: '*' }).first())!.n,
      );
      const mail = await db('mailOutbox')
        .groupBy('kind', 'status')
        .select('kind', 'status')
        .count({ n: '*' });
      // Which fault point each life died at (else the seeded SIGKILL), from its own log.
      const died = processes.map(
        (p) => /fault injection: SIGKILL at ([a-z-]+)/.exec(p.log.join(''))?.[1] ?? 'SIGKILL',
      );
      const summary = { seed: SEED, lives, died, captured, outcomes: countBy(outcomes), mail };
      // The run must have taken money for the invariants below to mean anything.
      expect(captured, JSON.stringify(summary)).toBeGreaterThan(0);
      expect(await unsettledPayments(db), 'captured payments neither fulfilled nor refunded').toEqual([]);
      expect(await unpaidCompletedOrders(db), 'completed orders without their payment').toEqual([]);
      expect(await doubleSales(db), 'numbers sold twice or not as bought').toEqual([]);
      expect(await miscounted(db), 'tickets_sold against the sold rows').toEqual([]);
      expect(await ledgerMismatches(db), 'credit balances against their ledger').toEqual([]);
      expect(await staleHolds(db, Date.now()), 'holds past their expiry').toEqual([]);
      // E-mails: every one owed was sent, once, whatever died in between.
      expect(await undrawn(), 'competitions the job never drew').toEqual([]);
      expect(await unconfirmedOrders(db), 'card orders without exactly one confirmation sent').toEqual([]);
      expect(await unsentDrawMail(db), 'draws whose e-mails were not all sent once').toEqual([]);
      // The bulk refund: every order cancelled and refunded at the gateway once, in full, and each
      // entrant told once.
      expect(await refundJob(), 'the bulk refund job').toMatchObject({
        status: 'done',
        done: 6,
        failed: 0,
        total: 6,
      });
      const refunds = await db('sandboxRefunds as r')
        .join('orders as o', 'o.paymentIntentId', 'r.paymentIntentId')
        .whereIn('o.id', cancelled.orders)
        .select('o.id', 'o.status', 'r.amountPence');
      expect(refunds.map((r) => [r.id, r.status, Number(r.amountPence)]).sort()).toEqual(
        cancelled.orders.map((id) => [id, 'cancelled', 200]).sort(),
      );
      const told = await db('mailOutbox').where('kind', 'competition-cancelled').where('status', 'sent');
      expect(told.map((m) => m.recipient).sort()).toEqual(cancelled.recipients);
      expect(
        await duplicateOrMissingMessages(db, database.dataDir),
        'Message-IDs captured twice, or sent rows not captured',
      ).toEqual([]);
      console.info(`chaos run: ${JSON.stringify(summary)}`);
    }, 175_000);
  },
);

/**
 * A competition that missed its minimum: ended, never extended, six orders paid by sandbox card
 * (two numbers at £1 each), two per customer.
 */
async function cardPaidCompetition(db: Knex, customerIds: number[]) {
  const id = await insertCompetition(db, { totalTickets: 30, title: 'Chaos cancel' });
  const orders: number[] = [];
  for (let i = 0; i < 6; i++) {
    const userId = customerIds[i % 3]!;
    const numbers = [2 * i + 1, 2 * i + 2];
    const orderId = await sellTickets(db, id, userId, numbers);
    const intentId = `sbx_pi_chaos_cancel_${orderId}`;
    const t = Date.now();
    await db('sandboxPaymentIntents').insert({
      id: intentId,
      clientSecret: `${intentId}_secret_x`,
      orderId,
      amountPence: 200,
      currency: 'gbp',
      status: 'succeeded',
      createdAt: t,
      updatedAt: t,
    });
    await db('orders')
      .where({ id: orderId })
      .update({ paymentProvider: 'sandbox', paymentIntentId: intentId, paidAt: t });
    await db('orderItems').insert({
      orderId,
      competitionId: id,
      title: 'Chaos cancel',
      ticketPricePence: 100,
      paidPence: 200,
      quantity: numbers.length,
      selectedNumbers: JSON.stringify(numbers),
      createdAt: t,
    });
    orders.push(orderId);
  }
  await db('competitions')
    .where({ id })
    .update({ minTicketsSold: 30, maxExtensions: 0, endDate: Date.now() - 1000 });
  const recipients = (await db('users').whereIn('id', customerIds.slice(0, 3)).select('email'))
    .map((u) => u.email)
    .sort();
  return { id, orders, recipients };
}

function countBy(values: string[]) {
  const counts: Record<string, number> = {};
  for (const v of values) {
    const key = v.startsWith('died') ? 'died (server killed)' : v;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
