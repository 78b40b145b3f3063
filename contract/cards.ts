import * as v from 'valibot';

// The card a payment used, as the gateway reported it (Stripe's card details, or the sandbox's
// test card), and the one way every screen names it: "Visa Debit ••5556".

export const CardFactsSchema = v.object({
  /** Stripe's brand: 'visa', 'mastercard', 'amex', ... ('unknown' when the network is not known). */
  brand: v.string(),
  /** 'debit', 'credit', 'prepaid' or 'unknown'. */
  funding: v.string(),
  last4: v.string(),
});
export type CardFacts = v.InferOutput<typeof CardFactsSchema>;

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
  eftpos_au: 'eftpos',
  maestro: 'Maestro',
};

const FUNDINGS: Record<string, string> = { debit: 'Debit', credit: 'Credit', prepaid: 'Prepaid' };

/** "Visa Debit ••5556"; a brand or funding the gateway did not know is left out ("Card ••1234"). */
export function cardLabel(card: CardFacts): string {
  const words = [BRANDS[card.brand] ?? 'Card', FUNDINGS[card.funding]].filter(Boolean);
  return `${words.join(' ')} ••${card.last4}`;
}

/** "Debit cards only": an instant-win competition refuses credit cards (DCMS code). */
export const DEBIT_CARDS_ONLY = 'Debit cards only';
