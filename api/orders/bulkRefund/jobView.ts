import type { Knex } from 'knex';
import type { BulkRefundJobView } from '../../../contract/minimumSales';
import { JOB_NOT_FOUND } from '../../../contract/minimumSales';
import { notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type {} from './events';

// A bulk refund job as the admin sees it (GET /api/admin/jobs/:jobId, the `admin:job` event),
// counting orders: done (refunded), failed (the admin must act), of total.

type Row = {
  id: number;
  competitionId: number;
  status: BulkRefundJobView['status'];
  done: number;
  total: number;
  failed: number;
  notes: string | null;
};

export const presentJob = (r: Row): BulkRefundJobView => ({
  id: Number(r.id),
  competitionId: Number(r.competitionId),
  status: r.status,
  done: Number(r.done),
  total: Number(r.total),
  failed: Number(r.failed),
  notes: r.notes ? (JSON.parse(r.notes) as string[]) : [],
});

const COLUMNS = ['id', 'competitionId', 'status', 'done', 'total', 'failed', 'notes'];

/** One job; 404 when there is none. */
export async function bulkRefundJob(db: Knex, jobId: number): Promise<BulkRefundJobView> {
  const row = (await db('bulkRefundJobs').where({ id: jobId }).first(COLUMNS)) as Row | undefined;
  if (!row) throw notFound(JOB_NOT_FOUND);
  return presentJob(row);
}

/** After each order (its own COMMIT): the admins' progress bars move. */
export async function publishJobProgress(deps: { db: Knex; events: EventBus }, jobId: number) {
  deps.events.publish('bulk-refund.progress', { job: await bulkRefundJob(deps.db, jobId) });
}
