import { useEffect, useState } from 'react';
import { ADMIN_ORDER_ROUTES } from '../../contract/apiAdminOrders';
import type { BulkRefundJobView } from '../../contract/minimumSales';
import { call } from '../api/call';
import { getSocket } from './socket';

/**
 * A cancelled competition's bulk refund, live (docs/product.md#minimum-sales-and-cancellation):
 * read once, then moved on by each `admin:job` pushed to the admins' room. A push older than what
 * is shown (fewer orders settled) is ignored.
 */
export function useBulkRefundJob(jobId: number | null | undefined): BulkRefundJobView | undefined {
  const [job, setJob] = useState<BulkRefundJobView>();
  useEffect(() => {
    if (!jobId) return;
    let live = true;
    const settled = (j: BulkRefundJobView) => j.done + j.failed + (j.status === 'running' ? 0 : 1);
    const take = (j: BulkRefundJobView) =>
      setJob((shown) => (shown && settled(shown) > settled(j) ? shown : j));
    const onJob = (j: BulkRefundJobView) => {
      if (live && j.id === jobId) take(j);
    };
    const socket = getSocket();
    socket.on('admin:job', onJob);
    void call(ADMIN_ORDER_ROUTES.bulkRefundJob, { params: { jobId } })
      .then((j) => live && take(j))
      .catch(() => undefined);
    return () => {
      live = false;
      socket.off('admin:job', onJob);
    };
  }, [jobId]);
  return job;
}
