import styled from 'styled-components';
import { Link } from 'wouter';
import { formatPence } from '../../../contract/money';
import { cartPricing, cartTicketCount, useCart } from '../../stores/cart';
import { plural } from '../purchase/selection';
import { ButtonLink } from '../ui/Button';
import { useDropdown } from './useDropdown';

const Wrap = styled.div`
  position: relative;
`;

const Toggle = styled.button`
  position: relative;
  min-width: 44px;
  min-height: 44px;
  border: 1px solid rgba(255, 255, 255, 0.4);
  border-radius: ${({ theme }) => theme.radii.md};
  background: transparent;
  color: ${({ theme }) => theme.colors.textInverse};
  display: inline-flex;
  align-items: center;
  justify-content: center;
  cursor: pointer;
`;

const Badge = styled.span`
  position: absolute;
  top: -6px;
  right: -6px;
  min-width: 20px;
  height: 20px;
  padding: 0 5px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.accent};
  color: ${({ theme }) => theme.colors.accentText};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 700;
  line-height: 20px;
`;

const Panel = styled.div`
  position: absolute;
  right: 0;
  top: calc(100% + 8px);
  width: min(340px, calc(100vw - 24px));
  max-height: 80vh;
  overflow: auto;
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadows.raised};
  padding: ${({ theme }) => theme.space.md};
  z-index: 60;
  ul { list-style: none; margin: 0; padding: 0; display: grid; gap: ${({ theme }) => theme.space.sm}; }
  li { display: grid; grid-template-columns: 48px 1fr auto; gap: ${({ theme }) => theme.space.xs}; align-items: start; }
  img, .placeholder { width: 48px; height: 36px; object-fit: cover; border-radius: ${({ theme }) => theme.radii.sm}; background: ${({ theme }) => theme.colors.muted}; }
  small { display: block; color: ${({ theme }) => theme.colors.textMuted}; word-break: break-word; }
  .total { display: flex; justify-content: space-between; margin: ${({ theme }) => theme.space.md} 0 ${({ theme }) => theme.space.sm}; font-weight: 700; }
  a { width: 100%; }
`;

/** Header cart: count badge and a dropdown listing the held items (spec 'Header cart'). */
export function CartMenu() {
  const items = useCart((s) => s.items);
  const pricing = cartPricing(items);
  const { open, setOpen, wrapRef } = useDropdown();
  const count = items.length;
  // The badge counts tickets, as a customer counts what they are buying (3 tickets, not 1 line).
  const tickets = cartTicketCount(items);

  return (
    <Wrap ref={wrapRef}>
      <Toggle
        type="button"
        aria-label={tickets ? `Cart, ${tickets} ${plural(tickets, 'ticket')}` : 'Cart, empty'}
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <svg
          viewBox="0 0 24 24"
          width="22"
          height="22"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <circle cx="9" cy="20" r="1.5" />
          <circle cx="18" cy="20" r="1.5" />
          <path d="M2 3h3l2.6 12.2a1.5 1.5 0 0 0 1.5 1.2h8.8a1.5 1.5 0 0 0 1.5-1.1L22 7H6.2" />
        </svg>
        {tickets > 0 && (
          <Badge data-testid="cart-count" aria-hidden="true">
            {tickets}
          </Badge>
        )}
      </Toggle>
      {open && (
        <Panel role="region" aria-label="Cart summary" data-testid="cart-dropdown">
          {count === 0 ? (
            <p>Your cart is empty</p>
          ) : (
            <>
              <ul>
                {items.map((item) => (
                  <li key={item.id}>
                    {item.competition.image ? (
                      <img src={item.competition.image} alt="" width={48} height={36} />
                    ) : (
                      <span className="placeholder" aria-hidden="true" />
                    )}
                    <div>
                      <strong>{item.competition.title}</strong>
                      <small>
                        {item.quantity} {plural(item.quantity, 'ticket')}
                      </small>
                      {item.selectedNumbers.length > 0 && (
                        <small>Numbers: {[...item.selectedNumbers].sort((a, b) => a - b).join(', ')}</small>
                      )}
                    </div>
                    <span>{formatPence(pricing.linePence.get(item.id) ?? 0)}</span>
                  </li>
                ))}
              </ul>
              {/* Not a <footer>: inside the region it would be a nested contentinfo landmark. */}
              <div className="total">
                <span>Total</span>
                <span>{formatPence(pricing.totalPence)}</span>
              </div>
              <Link
                href="/cart"
                asChild
                onClick={() => {
                  try {
                    sessionStorage.setItem('preauth_cart', 'true');
                  } catch {
                    // Storage unavailable: the flag is only a hint for the checkout flow.
                  }
                }}
              >
                <ButtonLink>View Cart</ButtonLink>
              </Link>
            </>
          )}
        </Panel>
      )}
    </Wrap>
  );
}
