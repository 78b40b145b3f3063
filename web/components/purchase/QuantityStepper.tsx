import styled from 'styled-components';
import type { Bundle } from '../../../contract/bundles';
import { MAX_TICKETS_PER_PURCHASE } from '../../../contract/competitions';
import { poundsToPence } from '../../../contract/money';
import { OneMoreHint, quantityPrice } from './BundleOffers';

const Stepper = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  flex-wrap: wrap;
  button {
    width: 44px;
    height: 44px;
    border-radius: ${({ theme }) => theme.radii.md};
    border: 1px solid ${({ theme }) => theme.colors.border};
    background: ${({ theme }) => theme.colors.surface};
    font-size: 1.25rem;
    cursor: pointer;
  }
  button:disabled { opacity: 0.4; cursor: not-allowed; }
  output { min-width: 2ch; text-align: center; font-weight: 700; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  small { color: ${({ theme }) => theme.colors.textMuted}; }
`;

/** How many tickets (1 to the per-purchase maximum), the total price and both limits. */
export function QuantityStepper({
  quantity,
  onChange,
  ticketPrice,
  bundles = [],
  perPersonCap,
  disabled,
}: {
  quantity: number;
  onChange: (update: (quantity: number) => number) => void;
  ticketPrice: number;
  /** The competition's multi-buy offers (pence): the total is the cheapest mix. */
  bundles?: readonly Bundle[];
  perPersonCap: number;
  /** Not hydrated yet: a press would be lost. */
  disabled: boolean;
}) {
  return (
    <Stepper>
      <button
        type="button"
        aria-label="Fewer tickets"
        disabled={disabled || quantity <= 1}
        onClick={() => onChange((q) => Math.max(1, q - 1))}
      >
        −
      </button>
      <output aria-live="polite" aria-label="Tickets">
        {quantity}
      </output>
      <button
        type="button"
        aria-label="More tickets"
        disabled={disabled || quantity >= MAX_TICKETS_PER_PURCHASE}
        onClick={() => onChange((q) => Math.min(MAX_TICKETS_PER_PURCHASE, q + 1))}
      >
        +
      </button>
      <span>
        Total:{' '}
        <strong data-testid="total-price">
          {quantityPrice(quantity, poundsToPence(ticketPrice), bundles)}
        </strong>
      </span>
      {quantity < MAX_TICKETS_PER_PURCHASE && (
        <OneMoreHint quantity={quantity} unitPence={poundsToPence(ticketPrice)} bundles={bundles} />
      )}
      <small>Max {MAX_TICKETS_PER_PURCHASE} per purchase</small>
      <small data-testid="per-person-cap">Max {perPersonCap} tickets per person</small>
    </Stepper>
  );
}
