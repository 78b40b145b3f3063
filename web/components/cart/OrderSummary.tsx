import { useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { savingLabel } from '../../../contract/bundles';
import type { CartItemView } from '../../../contract/cart';
import {
  belowCardMinimum,
  CARD_MINIMUM_MESSAGE,
  CREDIT_MINIMUM_MESSAGE,
  CREDIT_MINIMUM_SPEND_PENCE,
  creditToApply,
} from '../../../contract/checkout';
import { formatPence, poundsToPence } from '../../../contract/money';
import { useRoute } from '../../api/call';
import { useAuth } from '../../stores/auth';
import { cartPricing, cartTicketCount } from '../../stores/cart';
import { useCheckout } from '../../stores/checkout';
import { PlayBlockBanner, usePlayBlock } from '../account/PlayBlock';
import { PromoCodeForm } from '../auth/PromoCodeForm';
import { Button, ButtonLink } from '../ui/Button';
import { Checkbox, ErrorBox } from '../ui/Form';
import { Card } from '../ui/Page';

const Summary = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  h2 { margin: 0; color: ${({ theme }) => theme.colors.brand}; }
  dl { display: grid; grid-template-columns: 1fr auto; gap: ${({ theme }) => theme.space.xs}; margin: 0; }
  dd { margin: 0; text-align: right; font-weight: 600; }
  dd.credit { color: ${({ theme }) => theme.colors.success}; }
  dd.saving { grid-column: 1 / -1; text-align: left; color: ${({ theme }) => theme.colors.success}; }
  dt.total, dd.total { font-size: ${({ theme }) => theme.fontSizes.lg}; font-weight: 700; border-top: 1px solid ${({ theme }) => theme.colors.border}; padding-top: ${({ theme }) => theme.space.xs}; }
  a, button { width: 100%; }
  h3 { margin: 0 0 4px; font-size: ${({ theme }) => theme.fontSizes.md}; }
  p { margin: 0; }
`;

/** The cart's order summary: totals, the site-credit choice, and the way to payment. */
export function OrderSummary({
  items,
  onProceed,
}: {
  items: CartItemView[];
  onProceed: (useCredit: boolean) => void;
}) {
  const user = useAuth((s) => s.user);
  const credit = useRoute<typeof ACCOUNT_ROUTES.credit>(
    { method: 'GET', path: '/api/user/credit' },
    user ? {} : null,
  );
  const [wantCredit, setWantCredit] = useState(false);
  const pricing = cartPricing(items);
  const subtotal = pricing.totalPence;
  const savings = [...pricing.byCompetition.values()].flatMap((p) => p.uses.map(savingLabel));
  const available = user ? poundsToPence(credit.data?.credit ?? 0) : 0;
  const eligible = subtotal >= CREDIT_MINIMUM_SPEND_PENCE;
  const applied = creditToApply(subtotal, available, wantCredit);
  const preparing = useCheckout((s) => s.phase === 'loading');
  const checkoutError = useCheckout((s) => s.cartError);
  // A break or the spending limit: one banner, checkout disabled, before any payment dialog. A
  // refusal at checkout (the state changed meanwhile) reads the state again and says it here.
  const refusal = useCheckout((s) => s.refusal);
  const block =
    usePlayBlock(subtotal, refusal?.at ?? null) ??
    (refusal ? { title: 'You cannot enter right now', message: refusal.message } : null);
  // The server's own rule: a card payment under 30p cannot start, so say so before checkout.
  const tooSmall = items.length > 0 && belowCardMinimum(subtotal - applied);

  return (
    <Summary aria-labelledby="summary-title">
      <h2 id="summary-title">Order Summary</h2>
      <dl>
        <dt>Subtotal</dt>
        <dd data-testid="cart-subtotal">{formatPence(subtotal)}</dd>
        <dt>Tickets</dt>
        <dd data-testid="cart-tickets">{cartTicketCount(items)}</dd>
        {savings.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two competitions may offer the same bundle
          <dd key={i} className="saving" data-testid="cart-saving">
            {s}
          </dd>
        ))}
        {applied > 0 && (
          <>
            <dt>Site credit applied</dt>
            <dd className="credit" data-testid="cart-credit">
              -{formatPence(applied)}
            </dd>
          </>
        )}
        <dt className="total">Total</dt>
        <dd className="total" data-testid="cart-total">
          {formatPence(subtotal - applied)}
        </dd>
      </dl>
      {available > 0 && (
        <Checkbox
          id="use-site-credit"
          checked={wantCredit && eligible}
          disabled={!eligible}
          onChange={setWantCredit}
          hint={eligible ? undefined : CREDIT_MINIMUM_MESSAGE}
        >
          Use site credit ({formatPence(available)} available)
        </Checkbox>
      )}
      {tooSmall && (
        <ErrorBox role="status" data-testid="card-minimum">
          <p>{CARD_MINIMUM_MESSAGE}</p>
        </ErrorBox>
      )}
      {block && items.length > 0 && <PlayBlockBanner block={block} />}
      {/* A code redeemed here is site credit, usable on this order at once. */}
      {user && <PromoCodeForm onRedeemed={() => credit.reload()} />}
      {checkoutError && (
        <ErrorBox role="alert" data-testid="checkout-error">
          <h3>Checkout Error</h3>
          <p>{checkoutError}</p>
        </ErrorBox>
      )}
      <Button
        type="button"
        onClick={() => onProceed(applied > 0)}
        disabled={items.length === 0 || tooSmall || preparing || block !== null}
      >
        Proceed to Checkout
      </Button>
      <Link href="/competitions" asChild>
        <ButtonLink $variant="ghost">Continue Shopping</ButtonLink>
      </Link>
    </Summary>
  );
}
