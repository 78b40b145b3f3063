import { useState } from 'react';
import styled from 'styled-components';
import type { AdminCompetitionDetail } from '../../../contract/admin';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import type { BulkRefundJobView } from '../../../contract/minimumSales';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { useBulkRefundJob } from '../../live/adminJobs';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Control } from './AdminUi';
import { ConfirmDialog } from './ConfirmDialog';

// Cancel and refund a whole competition (docs/product.md#minimum-sales-and-cancellation): the
// reason goes to every entrant; a job refunds each order, and its progress shows here live.

const Bar = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  progress { width: 100%; height: 14px; }
  ul { margin: 0; padding-left: 1.2em; }
`;

const STATUS_TEXT: Record<BulkRefundJobView['status'], string> = {
  running: 'Refunding orders',
  done: 'Every order refunded',
  failed: 'Finished: some orders need you',
};

/** The job's progress bar, counting orders. */
export function RefundProgress({ job }: { job: BulkRefundJobView | undefined }) {
  if (!job) return <p>Loading the refund's progress…</p>;
  const settled = job.done + job.failed;
  return (
    <Bar data-testid="refund-progress">
      <label htmlFor={`refund-job-${job.id}`}>
        {STATUS_TEXT[job.status]}: {settled} of {job.total}
        {job.failed ? ` (${job.failed} failed)` : ''}
      </label>
      <progress id={`refund-job-${job.id}`} value={settled} max={Math.max(job.total, 1)} />
      {!!job.notes.length && (
        <ul aria-label="To deal with by hand">
          {job.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </Bar>
  );
}

/** Whether the admin may still cancel: not cancelled, its draw neither fixed nor made. */
const cancellable = (c: AdminCompetitionDetail) =>
  c.status !== 'cancelled' && !c.draw && c.drawStatus?.state !== 'drawn' && !c.drawStatus?.beaconRound;

export function CancelCompetition({
  competition: c,
  onChanged,
}: {
  competition: AdminCompetitionDetail;
  onChanged: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const job = useBulkRefundJob(c.refundJobId);

  if (c.status === 'cancelled')
    return (
      <>
        <p>Cancelled: {c.cancellationReason}</p>
        <RefundProgress job={job} />
      </>
    );
  if (!cancellable(c)) return <p>The draw is fixed or made: the competition can no longer be cancelled.</p>;

  const cancel = async () => {
    if (reason.trim().length < 3) {
      setError('Please give a reason: entrants see it');
      return;
    }
    setBusy(true);
    try {
      await call(ADMIN_ORDER_ROUTES.cancelCompetition, {
        params: { id: c.id },
        body: { reason: reason.trim() },
      });
      toast({
        title: 'Competition cancelled',
        description: 'Every order is being refunded.',
        variant: 'success',
      });
      setOpen(false);
      onChanged();
    } catch (err) {
      setError(messageOf(err, 'The competition could not be cancelled.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p>
        Cancelling stops sales and the draw, and refunds every order: card payments to the card, site credit
        to the account.
      </p>
      <Button type="button" $variant="danger" onClick={() => setOpen(true)}>
        Cancel and refund
      </Button>
      <ConfirmDialog
        open={open}
        title="Cancel and refund this competition"
        confirmLabel="Cancel and refund"
        cancelLabel="Keep it"
        busy={busy}
        onConfirm={() => void cancel()}
        onClose={() => setOpen(false)}
        testId="cancel-competition-dialog"
      >
        <p>
          All {c.ticketsSold} tickets sold will be refunded and every entrant e-mailed once. This cannot be
          undone.
        </p>
        <Control>
          <label htmlFor="cancel-competition-reason">Reason (shown on the page and in the e-mail)</label>
          <textarea
            id="cancel-competition-reason"
            value={reason}
            maxLength={300}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'cancel-competition-error' : undefined}
            onChange={(e) => {
              setReason(e.target.value);
              setError(undefined);
            }}
          />
          {error && <small id="cancel-competition-error">{error}</small>}
        </Control>
      </ConfirmDialog>
    </>
  );
}
