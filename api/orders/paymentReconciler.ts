import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect';
import type { IntentState, PaymentGateway } from '../payments/gateway';
import type { AppDeps } from '../platform/context';
import { startPeriodicJob } from '../platform/jobs/periodicJob';
import { sendOwedRefunds } from './backOffice/owedRefunds';
import { fulfilPayment } from './fulfilment/fulfilment';
import { recordPaymentCanceled } from './fulfilment/outcomes';
import { type FulfilmentResult, type PaymentDeps, paymentDepsOf, reportOf } from './payment';

// The payment reconciler: every captured payment ends fulfilled or refunded, whatever died in
// between (the process after a sandbox capture, a Stripe webhook that never came or kept failing);
// and every card refund owed for part of an order (backOffice/owedRefunds.ts) is sent.
// At start-up and then every RECONCILE_INTERVAL_MS it finds payments the gateway has taken whose
// order is neither completed nor refunded, and settles each through fulfilPayment, the same
// idempotent path the webhook and the sandbox confirm use. Runs in every process: a payment is
// claimed by inserting its row in payment_reconciliations (unique per payment), so one process
// settles it; a claim whose process died is taken over once its lease has run out.

export interface ReconcilerDeps extends PaymentDeps {
  /** A payment captured (sandbox) or an order touched (Stripe) less than this long ago is left to the live path. */
  graceMs: number;
  /** A claim older than this and never settled was left by a process that died: it is taken over. */
  leaseMs: number;
  /** A Stripe payment still open this long after its order was made is cancelled at Stripe. */
  abandonAfterMs: number;
}

/**
 * The reconciler's settings from the app's: a claim's lease is the grace period (at least 5 s), and
 * a Stripe payment is abandoned an hour after its payment window has ended.
 */
export function reconcilerDepsOf(app: AppDeps, gateway: PaymentGateway): ReconcilerDeps {
  const graceMs = app.config.reconcile.graceSeconds * 1000;
  return {
    ...paymentDepsOf(app, gateway),
    graceMs,
    leaseMs: Math.max(graceMs, 5000),
    abandonAfterMs: (app.config.payments.windowSeconds + 3600) * 1000,
  };
}

export type ReconcileOutcome = 'fulfilled' | 'refunded' | 'refund_pending' | 'rejected';

export interface Reconciled {
  orderId: number;
  intentId: string;
  outcome: ReconcileOutcome;
  detail?: string;
}

export interface ReconcileRun {
  /** Captured payments this process settled (or tried to: refund_pending is retried next run). */
  settled: Reconciled[];
  /** Orders whose Stripe payment was cancelled (abandoned, or cancelled at Stripe): no money moved. */
  closed: number[];
  /** Card refunds of part of an order that were owed and are now sent (backOffice/owedRefunds.ts). */
  refundsSent: number[];
}

interface Candidate {
  intentId: string;
  orderId: number;
  status: string;
  createdAt: number;
}

const TABLE = 'paymentReconciliations';
const BATCH = 100;

/** No settled reconciliation of this payment yet (a pending refund stays unsettled, so it is retried). */
const notSettled = (db: Knex, provider: string, intentColumn: string) =>
  db(`${TABLE} as r`)
    .where('r.provider', provider)
    .where('r.paymentIntentId', db.ref(intentColumn))
    .whereNotNull('r.settledAt')
    .select(db.raw('1'));

/** Sandbox intents that took the money, whose order is neither completed nor refunded. */
async function sandboxCandidates(db: Knex, cutoff: number): Promise<Candidate[]> {
  return db('sandboxPaymentIntents as i')
    .join('orders as o', 'o.paymentIntentId', 'i.id')
    .where('i.status', 'succeeded')
    .where('o.paymentProvider', 'sandbox')
    .whereNot('o.status', 'completed')
    .whereNull('o.refundedAt')
    .where('i.updatedAt', '<=', cutoff)
    .whereNotExists(notSettled(db, 'sandbox', 'i.id'))
    .orderBy('i.updatedAt')
    .limit(BATCH)
    .select('i.id as intentId', 'o.id as orderId', 'o.status as status', 'o.createdAt as createdAt');
}

/**
 * Stripe orders whose payment may have succeeded unseen: open ones (pending, or failed and open to
 * another card) and cancelled ones whose refund has not gone through. Their PaymentIntents are then
 * asked for one by one.
 */
async function stripeCandidates(db: Knex, cutoff: number): Promise<Candidate[]> {
  return db('orders as o')
    .where('o.paymentProvider', 'stripe')
    .whereNotNull('o.paymentIntentId')
    .where((q) =>
      q
        .whereIn('o.status', ['pending', 'failed'])
        .orWhere((c) =>
          c.where('o.status', 'cancelled').whereNotNull('o.refundReason').whereNull('o.refundedAt'),
        ),
    )
    .where('o.updatedAt', '<=', cutoff)
    .whereNotExists(notSettled(db, 'stripe', 'o.paymentIntentId'))
    .orderBy('o.id')
    .limit(BATCH)
    .select(
      'o.paymentIntentId as intentId',
      'o.id as orderId',
      'o.status as status',
      'o.createdAt as createdAt',
    );
}

/**
 * Claims a payment for this process: the first to insert its row, or the first to take over a
 * claim whose lease has run out (its process died). Returns the claim's token, or null.
 */
async function claim(deps: ReconcilerDeps, c: Candidate, now: number): Promise<string | null> {
  const provider = deps.gateway.name;
  const token = randomBytes(12).toString('hex');
  try {
    await deps.db(TABLE).insert({
      provider,
      paymentIntentId: c.intentId,
      orderId: c.orderId,
      foundAt: now,
      claimedAt: now,
      claimToken: token,
    });
    return token;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const taken = await deps
    .db(TABLE)
    .where({ provider, paymentIntentId: c.intentId })
    .whereNull('settledAt')
    .where('claimedAt', '<=', now - deps.leaseMs)
    .update({ claimedAt: now, claimToken: token });
  return taken === 1 ? token : null;
}

const outcomeOf = (result: FulfilmentResult): ReconcileOutcome | 'already' => {
  if (result.outcome === 'completed') return 'fulfilled';
  if (result.outcome === 'already_completed') return 'already';
  // not_completed is a credit-only order, which has no captured payment to reconcile.
  if (result.outcome === 'rejected' || result.outcome === 'not_completed') return 'rejected';
  return result.refundPending ? 'refund_pending' : 'refunded';
};

/** Settles one captured payment through fulfilment, once across every process. */
async function settle(deps: ReconcilerDeps, c: Candidate, state: IntentState, now: number) {
  const token = await claim(deps, c, now);
  if (!token) return null;
  deps.faults?.reach('after-reconcile-claim');
  const mine = () =>
    deps.db(TABLE).where({ provider: deps.gateway.name, paymentIntentId: c.intentId, claimToken: token });
  let result: FulfilmentResult;
  try {
    result = await fulfilPayment(deps, reportOf(deps.gateway.name, state));
  } catch (err) {
    // Let the next run (of any process) try again at once rather than after the lease.
    await mine().update({ claimedAt: 0 });
    throw err;
  }
  const outcome = outcomeOf(result);
  if (outcome === 'already') {
    // The live path settled it a moment ago: it never needed reconciling.
    await mine().delete();
    return null;
  }
  const detail = 'reason' in result ? result.reason : undefined;
  await mine().update({
    outcome,
    detail: detail ?? null,
    // A refund the gateway has not accepted yet stays unsettled and unclaimed: the next run retries.
    ...(outcome === 'refund_pending' ? { claimedAt: 0 } : { settledAt: Date.now() }),
  });
  const done: Reconciled = {
    orderId: c.orderId,
    intentId: c.intentId,
    outcome,
    ...(detail ? { detail } : {}),
  };
  deps.metrics?.reconcilerSettled.inc({ outcome });
  if (outcome === 'rejected' || outcome === 'refund_pending') {
    deps.logger.error(done, 'reconciler could not settle a captured payment');
  } else {
    deps.logger.info(done, 'reconciler settled a captured payment');
  }
  return done;
}

/** One pass: every unsettled captured payment of the configured gateway (up to a batch per pass). */
export async function reconcilePayments(deps: ReconcilerDeps, now = Date.now()): Promise<ReconcileRun> {
  const run: ReconcileRun = { settled: [], closed: [], refundsSent: [] };
  const cutoff = now - deps.graceMs;
  const sandbox = deps.gateway.name === 'sandbox';
  const candidates = sandbox
    ? await sandboxCandidates(deps.db, cutoff)
    : await stripeCandidates(deps.db, cutoff);
  for (const c of candidates) {
    try {
      let state = await deps.gateway.retrieveIntent(c.intentId);
      const open = c.status === 'pending' || c.status === 'failed';
      if (!sandbox && open && state.status === 'open' && Number(c.createdAt) <= now - deps.abandonAfterMs) {
        // Abandoned long ago: cancel it so it can never take money later. If it succeeded in
        // the meantime Stripe refuses, and the payment is settled below.
        await deps.gateway.cancelIntent(c.intentId);
        state = await deps.gateway.retrieveIntent(c.intentId);
      }
      if (state.status === 'succeeded') {
        const done = await settle(deps, c, state, now);
        if (done) run.settled.push(done);
      } else if (!sandbox && open && state.status === 'canceled') {
        await recordPaymentCanceled(deps, c.intentId);
        run.closed.push(c.orderId);
      }
    } catch (err) {
      // One payment the gateway or database cannot settle now does not hold up the others.
      deps.logger.error({ err, orderId: c.orderId }, 'reconciling a payment failed; retried on the next run');
    }
  }
  run.refundsSent = await sendOwedRefunds(deps, cutoff);
  return run;
}

/**
 * Runs reconcilePayments at start-up and then every `intervalMs` (0: at start-up only). The
 * returned stop waits for a run in progress, so the database can be closed after it.
 */
export function startPaymentReconciler(deps: ReconcilerDeps, intervalMs: number): () => Promise<void> {
  return startPeriodicJob(
    intervalMs,
    () =>
      reconcilePayments(deps)
        .then(({ settled, closed, refundsSent }) => {
          if (settled.length || closed.length || refundsSent.length) {
            deps.logger.info(
              { settled: settled.length, closed: closed.length, refundsSent: refundsSent.length },
              'payment reconciler: captured payments settled, abandoned payments closed',
            );
          }
        })
        .catch((err) => deps.logger.error({ err }, 'payment reconciler run failed')),
    { runNow: true },
  );
}
