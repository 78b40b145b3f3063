import styled from 'styled-components';
import { type Bundle, offerLabel, oneMoreHint, priceTickets } from '../../../contract/bundles';
import { formatPence } from '../../../contract/money';

// Multi-buy offers on the competition page and in the number selector
// (docs/product.md#multi-buy-pricing): "Buy 5 for £4.00", and the price of a quantity with them.

const Offers = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    padding: 2px ${({ theme }) => theme.space.sm};
    border-radius: ${({ theme }) => theme.radii.md};
    border: 1px solid ${({ theme }) => theme.colors.success};
    color: ${({ theme }) => theme.colors.success};
    font-weight: 600;
  }
`;

const Hint = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.success};
  font-weight: 600;
`;

/** The offers, smallest first; nothing without any. */
export function BundleOffers({ bundles }: { bundles: readonly Bundle[] }) {
  if (!bundles.length) return null;
  return (
    <Offers aria-label="Multi-buy offers" data-testid="bundle-offers">
      {bundles.map((b) => (
        <li key={b.quantity}>{offerLabel(b)}</li>
      ))}
    </Offers>
  );
}

/** "Add 1 more ticket to get 5 for £4.00" when one more ticket completes a bundle. */
export function OneMoreHint({
  quantity,
  unitPence,
  bundles,
}: {
  quantity: number;
  unitPence: number;
  bundles: readonly Bundle[];
}) {
  const hint = oneMoreHint(quantity, unitPence, bundles);
  return hint ? <Hint data-testid="bundle-hint">{hint}</Hint> : null;
}

/** What `quantity` tickets cost with the bundles, as the cart and checkout will charge it. */
export const quantityPrice = (quantity: number, unitPence: number, bundles: readonly Bundle[]) =>
  formatPence(priceTickets(quantity, unitPence, bundles).totalPence);
