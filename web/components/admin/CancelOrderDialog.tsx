import { useEffect, useState } from 'react';
import type { AdminOrderDetail } from '../../../contract/admin';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import type { RefundTarget } from '../../../contract/backOffice';
import { formatPounds } from '../../../contract/money';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Control } from './AdminUi';
import { ConfirmDialog } from './ConfirmDialog';
import { RefundTargetChoice } from './RefundTargetChoice';

/** A card payment still to refund: the admin chooses the card or the customer's site credit. */
const cardRefundable = (o: AdminOrderDetail) =>
  o.status === 'completed' && o.total > 0 && Boolean(o.paymentIntentId) && !o.refund?.refundedAt;

/**
 * Cancel Order with the reason the customer's e-mail quotes, and where a card payment goes back:
 * to the card, or as site credit (a ledger row).
 */
export function CancelOrderDialog({
  order,
  open,
  onClose,
  onCancelled,
}: {
  order: AdminOrderDetail | undefined;
  open: boolean;
  onClose: () => void;
  onCancelled: () => void;
}) {
  const [reason, setReason] = useState('');
  const [refundTo, setRefundTo] = useState<RefundTarget>('card');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (open) {
      setReason('');
      setRefundTo('card');
      setError(undefined);
    }
  }, [open]);

  const cancel = async () => {
    if (!order) return;
    if (reason.trim().length < 3) {
      setError('Give a reason of at least 3 characters; the customer sees it.');
      return;
    }
    setBusy(true);
    try {
      const result = await call(ADMIN_ORDER_ROUTES.cancelOrder, {
        params: { id: order.id },
        body: { reason: reason.trim(), refundTo },
      });
      toast({ title: 'Order Cancelled', description: result.message, variant: 'success' });
      onCancelled();
    } catch (err) {
      toast({
        title: 'Cancellation Failed',
        description: messageOf(err, 'Failed to cancel order'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const choose = order && cardRefundable(order) && order.user;
  return (
    <ConfirmDialog
      open={open}
      title="Cancel Order"
      confirmLabel="Cancel Order"
      cancelLabel="Keep Order"
      busy={busy}
      onConfirm={() => void cancel()}
      onClose={onClose}
      testId="cancel-order-dialog"
    >
      <p>
        Cancel order {order?.orderNumber}? Its tickets return to general sale
        {order?.status === 'completed' ? ' and the payment is refunded' : ''}. This cannot be undone.
      </p>
      <Control>
        <label htmlFor="cancel-reason">Reason (shown in the customer's e-mail)</label>
        <textarea
          id="cancel-reason"
          value={reason}
          maxLength={500}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'cancel-reason-error' : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
        />
        {error && <small id="cancel-reason-error">{error}</small>}
      </Control>
      {choose && (
        <RefundTargetChoice
          legend={`Refund ${formatPounds(order.total)} to`}
          name="refund-to"
          value={refundTo}
          onChange={setRefundTo}
          allowCredit
        />
      )}
    </ConfirmDialog>
  );
}
