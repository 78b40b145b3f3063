import type { Knex } from 'knex';
import {
  ALREADY_CANCELLED,
  CANCEL_DRAW_FIXED,
  CANCEL_DRAWN,
  type CancelCompetitionInput,
} from '../../../contract/minimumSales';
import { lockRows } from '../../../db/locks';
import { Competition } from '../../../db/models';
import { presentAdminCompetition } from '../../catalogue/adminPresenter';
import { emitCompetitionUpdated } from '../../draws/drawable';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { conflict, notFound } from '../../platform/errors';
import { inUnitOfWork, type UnitOfWork } from '../../platform/unitOfWork';
import { bumpVersionNow } from '../../tickets/competitionVersions';
import { releaseCompetitionHolds } from '../../tickets/holdRows';
import { kickBulkRefunds } from './kick';
import type { BulkRefundDeps } from './refundJob';

// Cancelling a competition (docs/product.md#minimum-sales-and-cancellation): in one transaction,
// with the competition row locked as a sale and a draw lock it, the status becomes 'cancelled'
// (no sale, hold, postal entry or draw after it), every hold is released, and a bulk refund job is
// written with one row per order that bought a number. The job refunds them after COMMIT, and
// resumes after a crash. Refused (409) once the draw is fixed or made.

/** In the caller's unit of work: cancels the competition and writes its refund job; returns the job id. */
export async function cancelInUnitOfWork(
  uow: UnitOfWork,
  actor: Actor | null,
  competitionId: number,
  reason: string,
  now: number,
): Promise<number> {
  const { trx } = uow;
  const current = (await lockRows(trx, 'competition', Competition.query(trx).findById(competitionId))) as
    | Competition
    | undefined;
  if (!current) throw notFound('Competition not found');
  if (current.status === 'cancelled') throw conflict(ALREADY_CANCELLED);
  if (current.drawnAt) throw conflict(CANCEL_DRAWN);
  if (current.drawBeaconRound) throw conflict(CANCEL_DRAW_FIXED);
  await trx('competitions')
    .where({ id: competitionId })
    .update({ status: 'cancelled', cancellationReason: reason, cancelledAt: now, updatedAt: now });
  await releaseCompetitionHolds(uow, competitionId, 'competition cancelled');
  const jobId = await writeRefundJob(trx, competitionId, reason, actor?.id ?? null, now);
  const updated = (await Competition.query(trx).findById(competitionId))!;
  await writeAudit(
    trx,
    actor,
    'competition.cancel',
    { type: 'competition', id: competitionId },
    presentAdminCompetition(current),
    { ...presentAdminCompetition(updated), refundJobId: jobId },
    now,
  );
  await emitCompetitionUpdated(uow, competitionId, await bumpVersionNow(trx, competitionId));
  return jobId;
}

/** The job and its rows: every order that bought (or was given, by post) a number here. */
async function writeRefundJob(
  trx: Knex.Transaction,
  competitionId: number,
  reason: string,
  requestedBy: number | null,
  now: number,
): Promise<number> {
  const orders = (await trx('tickets')
    .where({ competitionId, status: 'sold' })
    .whereNotNull('orderId')
    .distinct('orderId')
    .orderBy('orderId')) as Array<{ orderId: number }>;
  const [jobId] = await trx('bulkRefundJobs').insert({
    competitionId,
    reason,
    status: orders.length ? 'running' : 'done',
    total: orders.length,
    requestedBy,
    createdAt: now,
    updatedAt: now,
    finishedAt: orders.length ? null : now,
  });
  for (let i = 0; i < orders.length; i += 500) {
    await trx('bulkRefundOrders').insert(
      orders
        .slice(i, i + 500)
        .map((o) => ({ jobId: Number(jobId), orderId: Number(o.orderId), status: 'owed' })),
    );
  }
  return Number(jobId);
}

/** POST /api/admin/competitions/:id/cancel: the job starts at once; 202 with its id. */
export async function cancelCompetition(
  deps: BulkRefundDeps,
  actor: Actor,
  competitionId: number,
  input: CancelCompetitionInput,
  now = Date.now(),
): Promise<{ jobId: number }> {
  const jobId = await inUnitOfWork(deps, (uow) =>
    cancelInUnitOfWork(uow, actor, competitionId, input.reason, now),
  );
  kickBulkRefunds(deps);
  return { jobId };
}
