import { expect, test } from '@playwright/test';
import { answerSkillQuestion, ownCompetition, payWithCard, registerViaApi } from './support';

// Multi-buy pricing (docs/product.md#multi-buy-pricing): a £1 competition of this test alone with
// '5 for £4.00'; the page offers it, the stepper says when one more ticket completes it, and the
// cart, the order summary and the payment all charge £4.00 for five tickets.

test('five tickets of a £1 competition with 5 for £4.00 cost £4.00 in the cart and at payment', async ({
  page,
  baseURL,
}) => {
  const { id, admin } = await ownCompetition(baseURL!, { bundles: [{ quantity: 5, price: 4 }] });
  await admin.dispose();
  await registerViaApi(page.request, { prefix: 'mb' });
  await page.goto(`/competition/${id}`);

  await expect(page.getByTestId('bundle-offers')).toHaveText('Buy 5 for £4.00');
  const more = page.getByRole('button', { name: 'More tickets' });
  for (let i = 0; i < 3; i++) await more.click();
  await expect(page.getByRole('status', { name: 'Tickets' })).toHaveText('4');
  await expect(page.getByTestId('total-price')).toHaveText('£4.00');
  await expect(page.getByTestId('bundle-hint')).toHaveText('Add 1 more ticket to get 5 for £4.00');
  await more.click();
  await expect(page.getByTestId('total-price')).toHaveText('£4.00');
  await expect(page.getByTestId('bundle-hint')).toHaveCount(0);

  await page.getByRole('button', { name: 'Buy Now' }).click();
  await answerSkillQuestion(page);
  await expect(page).toHaveURL(/\/cart$/);
  const item = page.getByTestId('cart-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('cart-line-total')).toHaveText('£4.00');
  await expect(item.getByTestId('cart-line-saving')).toHaveText('5 for £4.00: you save £1.00');
  await expect(page.getByTestId('cart-saving')).toHaveText('5 for £4.00: you save £1.00');
  await expect(page.getByTestId('cart-subtotal')).toHaveText('£4.00');
  await expect(page.getByTestId('cart-total')).toHaveText('£4.00');

  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = page.getByTestId('checkout-dialog');
  await expect(dialog.getByRole('heading', { name: 'Complete Your Purchase' })).toBeVisible();
  await expect(dialog.getByTestId('payment-amount')).toHaveText('£4.00');
  await payWithCard(dialog, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/confirmation\/\d+$/);
  await expect(page.getByTestId('order-total')).toHaveText('£4.00');
  await expect(page.getByTestId('order-saved')).toHaveText('£1.00');
});
