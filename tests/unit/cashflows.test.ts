import { describe, expect, it } from 'vitest';
import { hostedPaymentForm, signHostedForm } from '../../api/payments/cashflows';

// The expected digest was computed outside this code (Python's urlencode with PHP's encoding of
// '*', the line-ending rule, then SHA-512), so a change to the encoding or the order breaks it.
const FIELDS = {
  merchantID: '100001',
  action: 'SALE',
  type: 1,
  amount: 1299,
  currencyCode: 826,
  countryCode: 826,
  orderRef: 'ORDER-Tom & Jerry\r\nline2',
  transactionUnique: 'TXN-abc*1',
  redirectURL: 'https://shop.example/payment-success',
};
const KEY = 'Circle4Take40Idea';
const EXPECTED =
  '9e280d68909fa3019d858f5a84c99f7fbec57591ea2fd5cc5ccce3b4f6404a458a88052a5463ffa17a0bc13f329c9623a44629bf35e673eb40151c5142e0758b';

describe('Cashflows hosted-form signature', () => {
  it('sorts the fields, form-encodes them as PHP does, normalises line endings and hashes with the key', () => {
    expect(signHostedForm(FIELDS, KEY)).toBe(EXPECTED);
  });

  it('does not depend on the order the fields are given in, and changes with any field or the key', () => {
    const reversed = Object.fromEntries(Object.entries(FIELDS).reverse());
    expect(signHostedForm(reversed, KEY)).toBe(EXPECTED);
    expect(signHostedForm({ ...FIELDS, amount: 1300 }, KEY)).not.toBe(EXPECTED);
    expect(signHostedForm(FIELDS, `${KEY}x`)).not.toBe(EXPECTED);
    // \r\n, \n\r, \r and \n all sign alike.
    expect(signHostedForm({ ...FIELDS, orderRef: 'ORDER-Tom & Jerry\nline2' }, KEY)).toBe(EXPECTED);
  });

  it('signs exactly the fields the browser posts', () => {
    const form = hostedPaymentForm(
      { merchantId: '100001', signatureKey: KEY, testMode: true },
      {
        amountPence: 1299,
        orderRef: 'ORDER-1',
        transactionUnique: 'TXN-1',
        redirectUrl: 'https://x.test/ps',
      },
    );
    const { signature, ...posted } = form.fields;
    expect(signature).toBe(signHostedForm(posted, KEY));
    expect(form).toMatchObject({
      merchantID: '100001',
      amount: 1299,
      currency: 'GBP',
      test: true,
      signature,
    });
    expect(posted).toMatchObject({ currencyCode: 826, countryCode: 826, redirectURL: 'https://x.test/ps' });
  });
});
