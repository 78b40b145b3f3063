import type { Knex } from 'knex';
import { formatOrderNumber } from '../../../contract/checkout';
import { type EntrantContact, entrantAddress, entrantKey, greetingOf } from '../../platform/email/recipients';
import { competitionCancelledEmail } from '../../platform/email/templates/competitionChanges';
import { HttpError } from '../../platform/errors';
import type { FaultInjector } from '../../platform/faults';
import { type OutboxKey, oweMails } from '../../platform/outbox/owe';
import { refundTickets } from '../backOffice/partialRefund';
import { type CancelDeps, cancelOrder } from '../cancellation';
import { unrecoveredCreditNotice } from '../instantWins/awards';
import { publishJobProgress } from './jobView';

// The bulk refund of a cancelled competition (docs/product.md#minimum-sales-and-cancellation): one
// row per order, taken in order by one process at a time (a lease a dead process gives up). Each
// order is refunded exactly once because the refund is a state change of the order itself, in one
// transaction: an order already cancelled, or whose numbers here are no longer sold, is found done
// when a crash between that COMMIT and the row's update makes the job look at it again. Card
// refunds after COMMIT are retried by the payment reconciler (one per order, its idempotency key).
// When every order is done, each entrant is owed one e-mail, with the job's end, in one transaction.

export interface BulkRefundDeps extends CancelDeps {
  faults?: FaultInjector;
}

/** How long a process may work on a job before another may take it over. */
const LEASE_MS = 30_000;

interface JobRow {
  id: number;
  competitionId: number;
  reason: string;
  status: string;
  notes: string | null;
}

/** Takes the job for this process, or answers false (another has it, or it is finished). */
async function takeLease(db: Knex, jobId: number, now: number): Promise<boolean> {
  const taken = await db('bulkRefundJobs')
    .where({ id: jobId, status: 'running' })
    .where((q) => q.whereNull('leaseUntil').orWhere('leaseUntil', '<', now))
    .update({ leaseUntil: now + LEASE_MS, updatedAt: now });
  return taken === 1;
}

type Outcome = { status: 'refunded' | 'failed'; message: string | null; note?: string | null };

/** The numbers this order holds in the competition, still sold, and whether it holds any elsewhere. */
async function soldOf(db: Knex, orderId: number, competitionId: number) {
  const rows = (await db('tickets')
    .where({ orderId, status: 'sold' })
    .select('competitionId', 'number')) as Array<{
    competitionId: number;
    number: number;
  }>;
  const here = rows.filter((r) => Number(r.competitionId) === competitionId).map((r) => Number(r.number));
  return { here, elsewhere: rows.length - here.length };
}

/** Refunds one order's part in the competition, once; an order already refunded is found done. */
async function refundOrder(deps: BulkRefundDeps, job: JobRow, orderId: number): Promise<Outcome> {
  const order = await deps.db('orders').where({ id: orderId }).first('status', 'userId');
  if (!order || order.status === 'cancelled') return { status: 'refunded', message: null };
  const { here, elsewhere } = await soldOf(deps.db, orderId, job.competitionId);
  if (!here.length) return { status: 'refunded', message: null };
  try {
    if (!elsewhere) {
      const done = await cancelOrder(
        deps,
        null,
        orderId,
        { reason: job.reason, refundTo: 'card' },
        Date.now(),
        false,
      );
      return { status: 'refunded', message: null, note: unrecoveredCreditNotice(done.instantWinsReturned) };
    }
    // An order with numbers in other competitions too: only this competition's go back.
    const input = { competitionId: job.competitionId, numbers: here, reason: job.reason };
    try {
      await refundTickets(deps, null, orderId, { ...input, refundTo: 'card' });
    } catch (err) {
      // What is left on the card does not cover it (credit paid for part): as site credit.
      if (!(err instanceof HttpError) || err.status !== 409 || !order.userId) throw err;
      if ((await soldOf(deps.db, orderId, job.competitionId)).here.length !== here.length) throw err;
      await refundTickets(deps, null, orderId, { ...input, refundTo: 'credit' });
    }
    return { status: 'refunded', message: null };
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { status: 'failed', message: `${formatOrderNumber(orderId)}: ${err.message}` };
  }
}

/** Records one order's outcome and the job's counts, then tells the admins. */
async function recordOutcome(
  deps: BulkRefundDeps,
  job: JobRow,
  rowId: number,
  outcome: Outcome,
  now: number,
) {
  await deps.db.transaction(async (trx) => {
    const changed = await trx('bulkRefundOrders')
      .where({ id: rowId, status: 'owed' })
      .update({ status: outcome.status, message: outcome.message, doneAt: now });
    if (!changed) return;
    await trx('bulkRefundJobs')
      .where({ id: job.id })
      .increment(outcome.status === 'refunded' ? 'done' : 'failed', 1)
      .update({ leaseUntil: now + LEASE_MS, updatedAt: now });
    const note = outcome.note ?? outcome.message;
    if (note) {
      const current = await trx('bulkRefundJobs').where({ id: job.id }).first('notes');
      const notes = [...(JSON.parse(current?.notes ?? '[]') as string[]), note];
      await trx('bulkRefundJobs')
        .where({ id: job.id })
        .update({ notes: JSON.stringify(notes) });
    }
  });
}

/** Who is told: each account once (not deleted), and each postcard without one. */
async function entrantMails(trx: Knex, job: JobRow) {
  const rows = (await trx('bulkRefundOrders as r')
    .join('orders as o', 'o.id', 'r.orderId')
    .leftJoin('users as u', 'u.id', 'o.userId')
    .leftJoin('postalEntries as pe', 'pe.orderId', 'o.id')
    .where('r.jobId', job.id)
    .orderBy('r.orderId')
    .select(
      'r.orderId',
      'o.userId',
      'o.totalPence',
      'u.email',
      'u.firstName',
      'u.username',
      'u.deletedAt',
      'pe.email as postalEmail',
      'pe.name as postalName',
    )) as Array<EntrantContact & { orderId: number; totalPence: number }>;
  const { title } = await trx('competitions').where({ id: job.competitionId }).first('title');
  const byRecipient = new Map<
    string,
    { to: string; userId: number | null; name: string; orders: string[] }
  >();
  for (const r of rows) {
    const to = entrantAddress(r);
    if (!to) continue;
    const key = entrantKey(r, to);
    const entry = byRecipient.get(key) ?? {
      to,
      userId: r.userId ? Number(r.userId) : null,
      name: greetingOf(r),
      orders: [],
    };
    // A postcard's £0 order had nothing to refund: it is not listed as a refund.
    if (Number(r.totalPence) > 0 || r.userId) entry.orders.push(formatOrderNumber(Number(r.orderId)));
    byRecipient.set(key, entry);
  }
  return [...byRecipient.entries()].map(([key, e]) => ({
    template: competitionCancelledEmail,
    subject: `competition-cancelled:${job.competitionId}:${key}`,
    recipient: { to: e.to, userId: e.userId },
    props: { name: e.name, title: String(title), reason: job.reason, orders: e.orders },
  }));
}

/** Every order done: the job's end and the entrants' e-mails, in one transaction. */
async function finish(deps: BulkRefundDeps, job: JobRow, now: number): Promise<OutboxKey[]> {
  return deps.db.transaction(async (trx) => {
    const left = await trx('bulkRefundOrders').where({ jobId: job.id, status: 'owed' }).first('id');
    if (left) return [];
    const counts = await trx('bulkRefundJobs').where({ id: job.id }).first('failed');
    const changed = await trx('bulkRefundJobs')
      .where({ id: job.id, status: 'running' })
      .update({
        status: Number(counts?.failed) ? 'failed' : 'done',
        finishedAt: now,
        leaseUntil: null,
        updatedAt: now,
      });
    if (!changed) return [];
    return oweMails(trx, await entrantMails(trx, job), now);
  });
}

/**
 * Works through one job until every order is done, if no other process holds it. Safe to call any
 * number of times, from any process, and after a crash at any point.
 */
export async function runBulkRefundJob(deps: BulkRefundDeps, jobId: number): Promise<void> {
  if (!(await takeLease(deps.db, jobId, Date.now()))) return;
  const job = (await deps.db('bulkRefundJobs').where({ id: jobId }).first()) as JobRow;
  for (;;) {
    const next = await deps
      .db('bulkRefundOrders')
      .where({ jobId, status: 'owed' })
      .orderBy('id')
      .first('id', 'orderId');
    if (!next) break;
    const outcome = await refundOrder(deps, job, Number(next.orderId));
    deps.faults?.reach('after-bulk-refund-order');
    await recordOutcome(deps, job, Number(next.id), outcome, Date.now());
    await publishJobProgress(deps, jobId);
  }
  const mail = await finish(deps, job, Date.now());
  await publishJobProgress(deps, jobId);
  await deps.mailer.outbox.deliver(mail);
}
