import { createHash } from 'node:crypto';
import type { SandboxConfirmInput } from '../../contract/checkout';

// The sandbox's test cards. The numbers and messages follow Stripe's test cards so the same
// cards behave alike in both gateways; any other number is declined, as in Stripe's test mode.

/** What the card draws on, as Stripe's card.funding reports it (the credit-card cap reads it). */
export type CardFundingType = 'credit' | 'debit';

export type CardOutcome =
  | { ok: true; brand: string; funding: CardFundingType }
  | {
      ok: false;
      code: 'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc';
      message: string;
    };

/**
 * The sandbox's card fingerprint, as Stripe's card.fingerprint: one value per card number, the
 * same on every account (a hash, so the number itself is never stored).
 */
export const sandboxCardFingerprint = (cardNumber: string) =>
  createHash('sha256')
    .update(`sandbox-card:${cardNumber.replace(/\D/g, '')}`)
    .digest('hex')
    .slice(0, 32);

export const TEST_CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  visaDebit: '4000056655665556',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
  incorrectCvc: '4000000000000127',
} as const;

export const CARD_MESSAGES = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  unknown_card: 'Your card was declined. This is test mode: use a test card such as 4242 4242 4242 4242.',
} as const;

/** A card is valid through the last day of its expiry month (UK time is close enough: UTC). */
export function isExpired(expMonth: number, expYear: number, now: number): boolean {
  const firstOfNextMonth = Date.UTC(expYear, expMonth, 1); // month is 1-based here, so this is the next month
  return now >= firstOfNextMonth;
}

/** What the sandbox's pretend bank says about a (well-formed) card. */
export function evaluateTestCard(card: SandboxConfirmInput, now = Date.now()): CardOutcome {
  if (isExpired(card.expMonth, card.expYear, now)) {
    return { ok: false, code: 'expired_card', message: CARD_MESSAGES.expired_card };
  }
  switch (card.cardNumber) {
    // Stripe's test cards: 4242… and 5555… are credit cards, 4000 0566 5566 5556 a Visa debit.
    case TEST_CARDS.visa:
      return { ok: true, brand: 'visa', funding: 'credit' };
    case TEST_CARDS.mastercard:
      return { ok: true, brand: 'mastercard', funding: 'credit' };
    case TEST_CARDS.visaDebit:
      return { ok: true, brand: 'visa', funding: 'debit' };
    case TEST_CARDS.declined:
      return { ok: false, code: 'card_declined', message: CARD_MESSAGES.card_declined };
    case TEST_CARDS.insufficientFunds:
      return { ok: false, code: 'insufficient_funds', message: CARD_MESSAGES.insufficient_funds };
    case TEST_CARDS.expired:
      return { ok: false, code: 'expired_card', message: CARD_MESSAGES.expired_card };
    case TEST_CARDS.incorrectCvc:
      return { ok: false, code: 'incorrect_cvc', message: CARD_MESSAGES.incorrect_cvc };
    default:
      return { ok: false, code: 'card_declined', message: CARD_MESSAGES.unknown_card };
  }
}
