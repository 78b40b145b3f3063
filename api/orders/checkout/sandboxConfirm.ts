import type { SandboxConfirmInput, SandboxConfirmResult } from '../../../contract/checkout';
import { ERROR_CODES } from '../../../contract/errors';
import { Order, type User } from '../../../db/models';
import { claimCardFunding } from '../../accounts/protection/creditCardCap';
import type { SandboxGateway } from '../../payments/sandbox';
import { evaluateTestCard, isExpired, sandboxCardFingerprint } from '../../payments/sandboxCards';
import { conflict, HttpError, notFound } from '../../platform/errors';
import { fulfilPayment } from '../fulfilment/fulfilment';
import { recordPaymentFailure } from '../fulfilment/outcomes';
import { assertCompleted, type CheckoutDeps, type FulfilmentResult, PAYMENT_CANCELLED } from '../payment';

const CARD_DATE_PAST = "Your card's expiration date is in the past.";

/**
 * POST /api/payments/sandbox/confirm: the sandbox's stand-in for Stripe.js confirming a card. A
 * good test card takes the money and fulfils the order at once; a declined one leaves the order
 * failed with its holds in place, so the customer can try another card.
 */
export async function confirmSandboxPayment(
  deps: CheckoutDeps,
  sandbox: SandboxGateway,
  user: User,
  input: SandboxConfirmInput,
  now = Date.now(),
): Promise<SandboxConfirmResult> {
  // A date in the past is a typing mistake the card form catches (as Stripe.js does), not a bank
  // decline: a 400 on the field that changes nothing, rather than a failed attempt on the order.
  if (isExpired(input.expMonth, input.expYear, now)) {
    const field = input.expYear < new Date(now).getUTCFullYear() ? 'expYear' : 'expMonth';
    throw new HttpError(400, ERROR_CODES.validation, CARD_DATE_PAST, { fields: { [field]: CARD_DATE_PAST } });
  }
  const intent = await sandbox.findByClientSecret(input.clientSecret);
  const order = intent?.orderId
    ? ((await Order.query(deps.db).findById(intent.orderId)) as Order | undefined)
    : undefined;
  if (!intent || !order || order.userId !== user.id) throw notFound('Payment not found');

  const fulfil = async () =>
    fulfilPayment(deps, {
      provider: 'sandbox',
      intentId: intent.id,
      orderId: intent.orderId,
      amountPence: intent.amountPence,
      currency: intent.currency,
    });
  const answer = (result: FulfilmentResult, message: string): SandboxConfirmResult => {
    assertCompleted(result);
    return { status: 'succeeded', orderId: order.id, message };
  };

  if (intent.status === 'succeeded') return answer(await fulfil(), 'This order has already been paid.');
  if (intent.status === 'canceled' || order.status === 'cancelled') {
    throw conflict(PAYMENT_CANCELLED);
  }
  const outcome = evaluateTestCard(input, now);
  if (!outcome.ok) {
    await sandbox.recordDecline(intent.id, outcome.code, outcome.message);
    await recordPaymentFailure(deps, intent.id, outcome.message);
    throw new HttpError(402, ERROR_CODES.paymentFailed, outcome.message, {
      reason: outcome.code,
      orderId: order.id,
    });
  }
  // The funding is known before the money moves: over the credit-card cap, nothing is charged.
  await claimCardFunding(deps.db, {
    orderId: order.id,
    userId: user.id,
    funding: outcome.funding,
    brand: outcome.brand,
    last4: input.cardNumber.slice(-4),
    fingerprint: sandboxCardFingerprint(input.cardNumber),
    capPence: deps.creditCardCapPence,
  });
  // Only one concurrent confirmation moves the money; every one of them then asks for
  // fulfilment, which sells once.
  await sandbox.capture(intent.id);
  deps.faults?.reach('after-capture');
  const current = await sandbox.retrieveIntent(intent.id);
  if (current.status !== 'succeeded') throw conflict(PAYMENT_CANCELLED);
  return answer(await fulfil(), 'Payment successful');
}
