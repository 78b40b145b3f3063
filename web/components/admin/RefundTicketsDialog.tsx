import { useEffect, useState } from 'react';
import type { AdminOrderDetail } from '../../../contract/admin';
import { ADMIN_BACK_OFFICE_ROUTES } from '../../../contract/apiAdminBackOffice';
import type { RefundTarget } from '../../../contract/backOffice';
import { formatPence, formatPounds, poundsToPence } from '../../../contract/money';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Control } from './AdminUi';
import { ConfirmDialog } from './ConfirmDialog';
import { RefundTargetChoice } from './RefundTargetChoice';

/**
 * Refund some tickets of one line of a paid order: the ticked numbers go back on sale and their
 * price goes back to the card or as site credit (the server refuses all of them: cancel instead).
 */
export function RefundTicketsDialog({
  order,
  item,
  onClose,
  onDone,
}: {
  order: AdminOrderDetail;
  item: AdminOrderDetail['items'][number] | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  const [chosen, setChosen] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [refundTo, setRefundTo] = useState<RefundTarget>('card');
  const [busy, setBusy] = useState(false);
  // A fresh form for each line opened.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another line is opened
  useEffect(() => {
    setChosen([]);
    setReason('');
    setRefundTo('card');
  }, [item]);
  // What each number cost on the order: a bundle's tickets refund their share of it.
  const costOf = (n: number) => item?.ticketCosts?.[item.numbers.indexOf(n)] ?? item?.ticketPrice ?? 0;
  const refundPence = chosen.reduce((sum, n) => sum + poundsToPence(costOf(n)), 0);
  const toggle = (n: number) => setChosen((c) => (c.includes(n) ? c.filter((x) => x !== n) : [...c, n]));
  const refund = async () => {
    if (!item || chosen.length === 0 || reason.trim().length < 3) {
      toast({
        title: 'Refund not sent',
        description: 'Tick the tickets and give a reason.',
        variant: 'destructive',
      });
      return;
    }
    setBusy(true);
    try {
      const result = await call(ADMIN_BACK_OFFICE_ROUTES.refundTickets, {
        params: { id: order.id },
        body: { competitionId: item.competitionId, numbers: chosen, reason: reason.trim(), refundTo },
      });
      toast({ title: 'Tickets refunded', description: result.message, variant: 'success' });
      onDone();
    } catch (err) {
      toast({
        title: 'Refund failed',
        description: messageOf(err, 'The tickets could not be refunded'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open={item !== undefined}
      title="Refund Tickets"
      confirmLabel={`Refund ${formatPence(refundPence)}`}
      cancelLabel="Close"
      busy={busy}
      onConfirm={() => void refund()}
      onClose={onClose}
      testId="refund-tickets-dialog"
    >
      <p>
        {item?.title}: tick the numbers to put back on sale. Each refunds what it cost
        {item?.saved ? ' (its share of the multi-buy price)' : ` (${formatPounds(item?.ticketPrice ?? 0)})`}.
      </p>
      <fieldset>
        <legend>Numbers</legend>
        {item?.numbers.map((n) => (
          <label key={n} style={{ marginRight: 12, display: 'inline-block' }}>
            <input type="checkbox" checked={chosen.includes(n)} onChange={() => toggle(n)} /> {n}
          </label>
        ))}
      </fieldset>
      <Control>
        <label htmlFor="refund-reason">Reason</label>
        <input
          id="refund-reason"
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
      </Control>
      <RefundTargetChoice
        legend="Refund to"
        name="tickets-refund-to"
        value={refundTo}
        onChange={setRefundTo}
        allowCredit={Boolean(order.user)}
      />
    </ConfirmDialog>
  );
}
