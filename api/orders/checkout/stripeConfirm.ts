import type { StripeConfirmInput, StripeConfirmResult } from '../../../contract/checkout';
import { ERROR_CODES } from '../../../contract/errors';
import { Order, type User } from '../../../db/models';
import { type CardFunding, claimCardFunding } from '../../accounts/protection/creditCardCap';
import type { StripeGateway } from '../../payments/stripe';
import { badRequest, conflict, HttpError, notFound } from '../../platform/errors';
import { fulfilPayment } from '../fulfilment/fulfilment';
import { recordPaymentFailure } from '../fulfilment/outcomes';
import { assertCompleted, type CheckoutDeps, PAYMENT_CANCELLED, providerDown, reportOf } from '../payment';

// Stripe payments are finalised on the server (Stripe's "finalize payments on the server"): the
// browser's Payment Element makes a ConfirmationToken, the server reads the card (funding, brand, last four digits) from it,
// applies the credit-card cap (api/accounts/protection/creditCardCap.ts) and only then confirms the
// PaymentIntent, so a credit card over the cap is refused before any money moves.

const CARD_UNREADABLE = 'Your card details could not be read. Please enter them again.';
const FUNDINGS: ReadonlySet<string> = new Set(['credit', 'debit', 'prepaid']);

/** POST /api/payments/stripe/confirm. */
export async function confirmStripePayment(
  deps: CheckoutDeps,
  gateway: StripeGateway,
  user: User,
  input: StripeConfirmInput,
  returnUrl: string,
): Promise<StripeConfirmResult> {
  const order = (await Order.query(deps.db).findById(input.orderId)) as Order | undefined;
  if (!order || order.userId !== user.id) throw notFound('Payment not found');
  const answer = (status: StripeConfirmResult['status'], clientSecret: string | null = null) => ({
    status,
    orderId: order.id,
    clientSecret,
  });
  if (order.status === 'completed') return answer('succeeded');
  if (order.status === 'cancelled') throw conflict(PAYMENT_CANCELLED);
  if (order.paymentProvider !== 'stripe' || !order.paymentIntentId) {
    throw conflict('Payment has not been started for this order.');
  }
  const intentId = order.paymentIntentId;

  const card = await gateway.cardOf(input.confirmationTokenId).catch((err) => {
    throw providerDown(deps, err);
  });
  if (card === null) throw badRequest(CARD_UNREADABLE);
  await claimCardFunding(deps.db, {
    orderId: order.id,
    userId: user.id,
    funding: (FUNDINGS.has(card.funding) ? card.funding : 'unknown') as CardFunding,
    brand: card.brand,
    last4: card.last4,
    fingerprint: card.fingerprint,
    capPence: deps.creditCardCapPence,
  });

  const confirmed = await gateway
    .confirmWithToken(intentId, input.confirmationTokenId, returnUrl)
    .catch((err) => {
      throw providerDown(deps, err);
    });
  if (confirmed.declined !== null) {
    await recordPaymentFailure(deps, intentId, confirmed.declined);
    throw new HttpError(402, ERROR_CODES.paymentFailed, confirmed.declined, { orderId: order.id });
  }
  if (confirmed.requiresAction) return answer('requires_action', confirmed.state.clientSecret);
  if (confirmed.state.status === 'succeeded') {
    assertCompleted(await fulfilPayment(deps, reportOf('stripe', confirmed.state)));
    return answer('succeeded');
  }
  return answer('processing');
}
