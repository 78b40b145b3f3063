import type { BulkRefundJobView } from '../../../contract/minimumSales';

// The bulk refund's and the minimum-sales rule's events; realtime/ sends them on.
declare module '../../platform/events' {
  interface DomainEvents {
    /** A bulk refund job moved on (an order done, or the job finished): the admins' progress bars. */
    'bulk-refund.progress': { job: BulkRefundJobView };
    /** A competition short of its minimum was extended: its new end date (epoch ms). */
    'competition.extended': { competitionId: number; endDate: number; extensionsUsed: number };
  }
}
