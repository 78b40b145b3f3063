import { createHash } from 'node:crypto';

// The spec's hosted-page card provider (Cashflows' hosted payment form, of the Cardstream family).
// The browser posts a hidden form to the provider's page; the signature proves the fields came
// from us unchanged. As the provider documents it: sort the fields by name, URL-encode them as a
// form query string (PHP's http_build_query: spaces as '+', everything but A-Z a-z 0-9 - _ .
// percent-encoded), normalise every line ending to %0A, append the merchant's signature key, and
// take the SHA-512 in lower-case hex.

import type { CashflowsSettings } from '../platform/config';

export type { CashflowsSettings };

/** PHP urlencode(): encodeURIComponent leaves !'()*~ alone and writes spaces as %20. */
const formEncode = (value: string) =>
  encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

export function signHostedForm(fields: Record<string, string | number>, signatureKey: string): string {
  const query = Object.keys(fields)
    .sort()
    .map((name) => `${formEncode(name)}=${formEncode(String(fields[name]))}`)
    .join('&')
    .replace(/%0D%0A|%0A%0D|%0A|%0D/gi, '%0A');
  return createHash('sha512')
    .update(query + signatureKey)
    .digest('hex');
}

/** GBP, as ISO 4217 and ISO 3166 numeric codes (the hosted form's currencyCode and countryCode). */
const GBP = 826;
const UNITED_KINGDOM = 826;

/** The hidden form's fields for one payment, signed. amountPence is integer pence. */
export function hostedPaymentForm(
  settings: CashflowsSettings,
  input: { amountPence: number; orderRef: string; transactionUnique: string; redirectUrl: string },
) {
  const fields = {
    merchantID: settings.merchantId,
    action: 'SALE',
    type: 1,
    amount: input.amountPence,
    currencyCode: GBP,
    countryCode: UNITED_KINGDOM,
    orderRef: input.orderRef,
    transactionUnique: input.transactionUnique,
    redirectURL: settings.redirectUrl ?? input.redirectUrl,
  };
  const signature = signHostedForm(fields, settings.signatureKey);
  return {
    merchantID: fields.merchantID,
    amount: fields.amount,
    currency: 'GBP',
    orderRef: fields.orderRef,
    transactionUnique: fields.transactionUnique,
    redirectURL: fields.redirectURL,
    test: settings.testMode,
    signature,
    /** Exactly what the browser posts to the hosted page (the signature covers all but itself). */
    fields: { ...fields, signature },
  };
}
