import styled from 'styled-components';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { plural } from './selection';

const DialogActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
`;

/** 'Added to Cart!' after a confirmed selection: continue shopping or go to the cart. */
export function AddedToCartDialog({
  added,
  title,
  onClose,
}: {
  /** How many tickets were added; null: closed. */
  added: number | null;
  title: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={added !== null} onClose={onClose} title="Added to Cart!" testId="added-dialog">
      <p>
        {added} {plural(added ?? 0, 'ticket')} for {title} {added === 1 ? 'has' : 'have'} been added to your
        cart.
      </p>
      <DialogActions>
        <Button type="button" $variant="ghost" onClick={onClose}>
          Continue Shopping
        </Button>
        <Button type="button" onClick={() => window.location.assign('/cart')}>
          View Cart
        </Button>
      </DialogActions>
    </Dialog>
  );
}
