import { useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { CartItemView } from '../../../contract/cart';
import { MAX_TICKETS_PER_PURCHASE } from '../../../contract/competitions';
import { ERROR_CODES } from '../../../contract/errors';
import { formatUkDateTime } from '../../../contract/londonTime';
import { formatPence, poundsToPence } from '../../../contract/money';
import { ApiError, selfExcludedNoticeOf } from '../../api/client';
import { useCart } from '../../stores/cart';
import { toast } from '../../stores/toast';
import { media } from '../../theme/theme';
import { InlineSpinner } from '../ui/Spinner';
import { ReservationTimer } from './ReservationTimer';

/** Spec: quantity changes show a spinner for 0.5 s (at least; longer if the server is slower). */
export const QUANTITY_SPINNER_MS = 500;
const CHOSEN_NUMBERS_TOOLTIP = "Can't modify quantity for tickets with selected numbers";
/** Said on the line itself, not only in a tooltip no phone or screen reader shows. */
export const CHOSEN_NUMBERS_HINT =
  'You picked these numbers, so the quantity is fixed. To change it, remove this line and pick again.';

const Row = styled.tr`
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  /* Mobile: each item is a card; the cells stack with their column name. */
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 4px ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.sm} 0;
  td { padding: 0; }
  td[data-label]::before {
    content: attr(data-label) ': ';
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
  td:first-child { grid-column: 1 / -1; }
  ${media.md} {
    display: table-row;
    td { padding: ${({ theme }) => theme.space.sm}; vertical-align: middle; }
    td[data-label]::before { content: none; }
  }
`;

const Product = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
  align-items: flex-start;
  img { width: 72px; height: 54px; object-fit: cover; border-radius: ${({ theme }) => theme.radii.sm}; flex: none; }
  a { font-weight: 700; color: ${({ theme }) => theme.colors.brand}; text-decoration: none; }
  small { display: block; color: ${({ theme }) => theme.colors.textMuted}; }
`;

const Numbers = styled.div`
  margin-top: 4px;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  button { border: 0; background: none; padding: 0; color: ${({ theme }) => theme.colors.info}; cursor: pointer; font-weight: 600; }
  p { margin: 2px 0 0; word-break: break-word; }
`;

const Stepper = styled.div`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  button {
    width: 34px;
    height: 34px;
    border-radius: ${({ theme }) => theme.radii.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    background: ${({ theme }) => theme.colors.surface};
    cursor: pointer;
  }
  button:disabled { opacity: 0.4; cursor: not-allowed; }
  output { min-width: 2ch; text-align: center; font-weight: 700; }
`;

const Hint = styled.small`
  display: block;
  max-width: 220px;
  margin-top: 4px;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.xs};
`;

const Saving = styled.small`
  display: block;
  color: ${({ theme }) => theme.colors.success};
  font-weight: 600;
`;

const Remove = styled.button`
  border: 0;
  background: none;
  color: ${({ theme }) => theme.colors.danger};
  font-weight: 600;
  cursor: pointer;
  min-height: 36px;
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The line's competition: picture, title, draw, timer, bundle savings and its numbers. */
function ProductCell({ item, savings }: { item: CartItemView; savings: string[] }) {
  const [showNumbers, setShowNumbers] = useState(false);
  const chosen = item.selectedNumbers.length > 0;
  const numbers = [...item.heldNumbers].sort((a, b) => a - b).join(', ');
  return (
    <td>
      <Product>
        <img src={item.competition.image ?? '/images/placeholder.svg'} alt="" width={72} height={54} />
        <div>
          <Link href={`/competition/${item.competitionId}`}>{item.competition.title}</Link>
          {item.competition.endDate && <small>Draw: {formatUkDateTime(item.competition.endDate)}</small>}
          <ReservationTimer expiresAt={item.expiresAt} />
          {savings.map((s) => (
            <Saving key={s} data-testid="cart-line-saving">
              {s}
            </Saving>
          ))}
          <Numbers>
            {chosen ? (
              <>
                <button type="button" aria-expanded={showNumbers} onClick={() => setShowNumbers((s) => !s)}>
                  {showNumbers ? 'Hide lucky numbers' : 'Show lucky numbers'}
                </button>
                {showNumbers && <p data-testid="cart-numbers">Numbers: {numbers}</p>}
              </>
            ) : (
              <p data-testid="cart-numbers">Lucky Dip{numbers ? `: ${numbers}` : ''}</p>
            )}
          </Numbers>
        </div>
      </Product>
    </td>
  );
}

/** One cart item: a table row on wide screens, a card on phones. */
export function CartLine({
  item,
  linePence,
  savings = [],
}: {
  item: CartItemView;
  /** What the line costs within the cart (bundles applied); absent: quantity × price. */
  linePence?: number;
  /** The competition's multi-buy savings ("5 for £4.00: you save £1.00"), on its first line. */
  savings?: string[];
}) {
  const setQuantity = useCart((s) => s.setQuantity);
  const remove = useCart((s) => s.remove);
  const [updating, setUpdating] = useState(false);
  const [removing, setRemoving] = useState(false);
  const chosen = item.selectedNumbers.length > 0;
  const unit = poundsToPence(item.competition.ticketPrice);
  const hintId = `fixed-quantity-${item.id}`;

  const change = async (quantity: number) => {
    setUpdating(true);
    try {
      await Promise.all([setQuantity(item.id, quantity), sleep(QUANTITY_SPINNER_MS)]);
    } catch (err) {
      const onBreak = selfExcludedNoticeOf(err);
      if (onBreak) {
        toast({ title: 'Taking a break', description: onBreak });
        return;
      }
      const notEnough = err instanceof ApiError && err.code === ERROR_CODES.notEnoughTickets;
      toast({
        title: notEnough ? 'Not enough tickets available' : 'Update Failed',
        description: notEnough ? err.serverMessage : 'Failed to update cart item quantity. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setUpdating(false);
    }
  };

  const removeLine = async () => {
    setRemoving(true);
    try {
      await remove(item.id);
      toast({ title: 'Item Removed', description: 'Item removed from your cart.' });
    } catch {
      toast({
        title: 'Removal Failed',
        description: 'Failed to remove item from cart. Please try again.',
        variant: 'destructive',
      });
      setRemoving(false);
    }
  };

  return (
    <Row data-testid="cart-item" data-competition-id={item.competitionId}>
      <ProductCell item={item} savings={savings} />
      <td data-label="Price">{formatPence(unit)}</td>
      <td data-label="Tickets">
        <Stepper title={chosen ? CHOSEN_NUMBERS_TOOLTIP : undefined}>
          <button
            type="button"
            aria-label={`Fewer tickets for ${item.competition.title}`}
            aria-describedby={chosen ? hintId : undefined}
            disabled={chosen || updating || item.quantity <= 1}
            onClick={() => void change(item.quantity - 1)}
          >
            −
          </button>
          <output aria-label="Tickets">{updating ? <InlineSpinner /> : item.quantity}</output>
          <button
            type="button"
            aria-label={`More tickets for ${item.competition.title}`}
            aria-describedby={chosen ? hintId : undefined}
            disabled={chosen || updating || item.quantity >= MAX_TICKETS_PER_PURCHASE}
            onClick={() => void change(item.quantity + 1)}
          >
            +
          </button>
        </Stepper>
        {chosen && (
          <Hint id={hintId} data-testid="fixed-quantity-hint">
            {CHOSEN_NUMBERS_HINT}
          </Hint>
        )}
      </td>
      <td data-label="Total">
        <strong data-testid="cart-line-total">{formatPence(linePence ?? unit * item.quantity)}</strong>
      </td>
      <td>
        <Remove
          type="button"
          aria-label={`Remove ${item.competition.title}`}
          disabled={removing}
          onClick={() => void removeLine()}
        >
          ✕ Remove
        </Remove>
      </td>
    </Row>
  );
}
