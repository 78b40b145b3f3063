import styled from 'styled-components';
import { Button } from '../ui/Button';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
  margin-top: ${({ theme }) => theme.space.md};
  button { flex: 1 1 140px; }
`;

/** Cancel and Pay Now under either card form. Pay Now submits the surrounding form. */
export function PaymentActions({
  onCancel,
  ready,
  processing,
}: {
  onCancel: () => void;
  /** The card form can take a payment (Stripe's element has loaded, the amount is above zero). */
  ready: boolean;
  processing: boolean;
}) {
  return (
    <Row>
      <Button type="button" $variant="ghost" onClick={onCancel} disabled={processing}>
        Cancel
      </Button>
      <Button type="submit" disabled={!ready || processing}>
        {processing ? 'Processing...' : 'Pay Now'}
      </Button>
    </Row>
  );
}

/** Two buttons for the dialog's failure states: Retry and Close. */
export function RetryCloseActions({ onRetry, onClose }: { onRetry: () => void; onClose: () => void }) {
  return (
    <Row>
      <Button type="button" $variant="ghost" onClick={onClose}>
        Close
      </Button>
      <Button type="button" onClick={onRetry}>
        Retry
      </Button>
    </Row>
  );
}
