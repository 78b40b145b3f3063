import { expect, type Page, test } from '@playwright/test';
import {
  competitionId,
  confirmEmailViaApi,
  entriesGrid,
  firstAvailable,
  openSelector,
  payWithCard,
  registerViaApi,
  unique,
} from './support';

/** A Lucky Dip of `quantity` numbers held in this context's cart, through the API. */
async function holdLuckyDip(page: Page, title: string, quantity: number) {
  const id = await competitionId(page.request, title);
  const { csrfToken } = await (await page.request.get('/api/csrf-token')).json();
  const headers = { 'X-CSRF-Token': csrfToken };
  await page.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const res = await page.request.post('/api/cart', {
    data: { competitionId: id, quantity, selectedNumbers: [] },
    headers,
  });
  expect(res.status()).toBe(201);
}

async function openPaymentDialog(page: Page) {
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = page.getByTestId('checkout-dialog');
  await expect(dialog.getByRole('heading', { name: 'Complete Your Purchase' })).toBeVisible();
  await expect(dialog.getByText('Test mode: no real payment is taken')).toBeVisible();
  return dialog;
}

const ticketsSold = async (page: Page) =>
  Number(
    /Tickets Sold ([\d,]+)/
      .exec((await page.getByText(/^Tickets Sold /).textContent()) ?? '')![1]!
      .replace(/,/g, ''),
  );

test('a guest picks numbers, registers in the checkout dialog and pays; a watcher sees them sold live', async ({
  browser,
}) => {
  const buyer = await browser.newContext();
  const watching = await browser.newContext();
  const page = await buyer.newPage();
  const watcher = await watching.newPage();
  const id = await competitionId(page.request, 'Designer Sunglasses');
  await watcher.goto(`/competition/${id}`);
  const watcherGrid = await entriesGrid(watcher);
  const watcherCell = (n: number) => watcherGrid.locator(`[data-number="${n}"]`);
  await expect(watcher.getByText(/^Tickets Sold /)).toBeVisible();
  const soldBefore = await ticketsSold(watcher);

  await page.goto(`/competition/${id}`);
  const selector = await openSelector(page);
  await selector.getByRole('slider', { name: 'Number of tickets' }).fill('2');
  const picked = await firstAvailable(page, 'selector-grid', 2);
  for (const n of picked) await selector.locator(`[data-number="${n}"]`).click();
  await selector.getByRole('button', { name: 'Confirm Selection' }).click();
  await page.getByTestId('added-dialog').getByRole('button', { name: 'View Cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  for (const n of picked) await expect(watcherCell(n)).toHaveAttribute('data-state', 'reserved');

  // A guest is asked to sign in, and registers from there.
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const login = page.getByRole('dialog', { name: 'Login Required' });
  await expect(login.getByText('Please log in to continue with checkout.')).toBeVisible();
  await expect(login.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(login.getByRole('button', { name: 'Log In' })).toBeVisible();
  await login.getByRole('button', { name: 'Create New Account' }).click();
  const register = page.getByTestId('checkout-register-dialog');
  await expect(register.getByRole('heading', { name: 'Create Account to Complete Purchase' })).toBeVisible();
  await expect(register.getByText('Your cart will be preserved during registration')).toBeVisible();
  await register.getByRole('button', { name: 'Create Account & Go to Cart' }).click();
  await expect(register.getByText('First name is required')).toBeVisible();
  await expect(register.getByText('Last name is required')).toBeVisible();
  const username = unique('co');
  await register.getByLabel('Username').fill(username);
  await register.getByLabel('Email').fill(`${username}@example.co.uk`);
  await register.getByLabel('First name').fill('Tamsin');
  await register.getByLabel('Last name').fill('Rowe');
  await register.getByLabel('Phone number').fill('07700 900456');
  await register.getByLabel('Date of birth').fill('1988-09-14');
  await register.getByLabel('Password', { exact: true }).fill('kernow123');
  await register.getByLabel('Confirm password').fill('kernow123');
  await register.getByLabel('I confirm that I am 18 years of age or over').check();
  await register.getByLabel('I confirm that I am a UK resident').check();
  await register.getByLabel(/I agree to the Terms and Conditions/).check();
  await register.getByRole('button', { name: 'Create Account & Go to Cart' }).click();
  await expect(page.getByTestId('toast')).toContainText(`Welcome, ${username}!`);

  // The flow carries on to payment by itself; the cart moved to the new account.
  const dialog = page.getByTestId('checkout-dialog');
  await expect(dialog.getByRole('heading', { name: 'Complete Your Purchase' })).toBeVisible();
  await expect(dialog.getByTestId('payment-amount')).toHaveText('£1.98');
  for (const card of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 9995'])
    await expect(dialog.getByTestId('sandbox-test-mode')).toContainText(card);
  await payWithCard(dialog, '4242 4242 4242 4242');

  await expect(page).toHaveURL(/\/confirmation\/\d+$/);
  await expect(page.getByTestId('toast')).toContainText('Your purchase has been completed successfully.');
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
  await expect(page.getByTestId('order-number')).toHaveText(/^ORD-\d{10}$/);
  await expect(page.getByTestId('order-total')).toHaveText('£1.98');
  await expect(page.getByText('Visa Credit ••4242', { exact: true })).toBeVisible();
  await expect(page.getByTestId('order-item')).toContainText('Designer Sunglasses');
  await expect(page.getByTestId('order-item')).toContainText('2 tickets');
  await expect(page.getByTestId('order-numbers')).toHaveText(`Ticket numbers: ${picked.join(', ')}`);
  await expect(page.getByText('A confirmation email has been sent to your email address.')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveCount(0);

  // The watcher, never reloaded, sees the numbers sold and the count rise.
  for (const n of picked) await expect(watcherCell(n)).toHaveAttribute('data-state', 'purchased');
  await expect(watcher.getByText(`Tickets Sold ${soldBefore + 2} / 200`)).toBeVisible();

  // My Entries through the header's account menu.
  await page.getByRole('button', { name: /My Account/ }).click();
  await page.getByRole('menu', { name: 'My Account' }).getByRole('menuitem', { name: 'My Entries' }).click();
  await expect(page).toHaveURL(/\/my-competitions$/);
  await expect(page.getByRole('heading', { name: 'My Entries' })).toBeVisible();
  await expect(page.getByText('Showing 2 tickets')).toBeVisible();
  const group = page.getByTestId('entry-group');
  await expect(group.getByRole('heading', { name: 'Designer Sunglasses' })).toBeVisible();
  await expect(group.getByText('2 tickets')).toBeVisible();
  await expect(group.getByTestId('entry-numbers')).toHaveText(`Ticket numbers: ${picked.join(', ')}`);
  // The confirmation's order number, en-GB dates, and no results before the draw: its date instead.
  await expect(group.getByTestId('entry-order')).toHaveText(/^Order ORD-\d{10}$/);
  await expect(group.locator('.date')).toHaveText(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
  await expect(group).toContainText('Total: £1.98');
  const draw = group.getByTestId('entry-draw');
  await expect(draw.locator('[data-status]')).toHaveText('● Open');
  // An auto-win: drawn at sell-out, or at its closing time at the latest.
  await expect(draw).toContainText(
    /Drawn the moment the last ticket sells, or at the latest on \d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d \(UK time\)/,
  );
  await expect(draw.getByRole('timer')).toBeVisible();
  await expect(group.getByRole('link', { name: 'View Results' })).toHaveCount(0);
  await expect(draw.getByRole('link', { name: 'View the competition' })).toHaveAttribute(
    'href',
    `/competition/${id}`,
  );
  // Back on the competition, the buyer's own numbers are theirs, not just 'Purchased'.
  await draw.getByRole('link', { name: 'View the competition' }).click();
  for (const n of picked) {
    const mine = (await entriesGrid(page)).locator(`[data-number="${n}"]`);
    await expect(mine).toHaveAttribute('data-state', 'yours');
    await expect(mine).toHaveAttribute('title', `Ticket #${n}: Yours: you bought this number`);
  }
  await buyer.close();
  await watching.close();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a declined card keeps the cart; another card then pays', async ({ page }, testInfo) => {
    await registerViaApi(page.request, { prefix: 'co', firstName: 'Morwenna', lastName: 'Penrose' });
    await holdLuckyDip(page, 'Ninja Kitchen Appliance Bundle', 2);
    await page.goto('/cart');
    await expect(page.getByTestId('cart-item')).toHaveCount(1);

    let dialog = await openPaymentDialog(page);
    await expect(dialog.getByTestId('payment-amount')).toHaveText('£1.38');
    await page.screenshot({ path: testInfo.outputPath('payment-dialog.png') });
    await payWithCard(dialog, '4000 0000 0000 0002');
    await expect(dialog.getByRole('alert')).toHaveText('Your card was declined.');
    await expect(page.getByTestId('toast')).toContainText('Payment failed');
    await page.screenshot({ path: testInfo.outputPath('payment-declined.png') });
    const cart = await (await page.request.get('/api/cart')).json();
    expect(cart).toHaveLength(1);
    expect(cart[0].heldNumbers).toHaveLength(2);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).not.toBeVisible();
    await expect(page.getByTestId('cart-item')).toHaveCount(1);
    dialog = await openPaymentDialog(page);
    await payWithCard(dialog, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/confirmation\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    await expect(page.getByTestId('order-numbers')).toHaveText(/^Ticket numbers: \d+, \d+$/);
    await page.screenshot({ path: testInfo.outputPath('confirmation.png'), fullPage: true });
  });
});

test("a guest with an account logs in from the cart's Login Required dialog and goes straight on to payment", async ({
  page,
}) => {
  const username = await registerViaApi(page.request, {
    prefix: 'co',
    firstName: 'Morwenna',
    lastName: 'Penrose',
  });
  const { csrfToken } = await (await page.request.get('/api/csrf-token')).json();
  await page.request.post('/api/logout', { headers: { 'X-CSRF-Token': csrfToken } });
  await holdLuckyDip(page, '£500 Supermarket Voucher', 1);
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const login = page.getByRole('dialog', { name: 'Login Required' });
  await login.getByLabel('Username or email').fill(username);
  await login.getByLabel('Password').fill('kernow123');
  await login.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByTestId('toast')).toContainText('You have been logged in successfully');
  const dialog = page.getByTestId('checkout-dialog');
  await expect(dialog.getByTestId('payment-amount')).toHaveText('£0.99');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).not.toBeVisible();
  await expect(page.getByTestId('cart-item')).toHaveCount(1);
});

test('site credit: the checkbox is disabled under £5.00, and from £5.00 it lowers the card payment', async ({
  page,
}) => {
  const username = await registerViaApi(page.request, {
    prefix: 'co',
    firstName: 'Morwenna',
    lastName: 'Penrose',
  });
  await confirmEmailViaApi(page.request, `${username}@example.co.uk`); // the welcome credit
  await holdLuckyDip(page, '£100 Shopping Gift Card', 1);
  await page.goto('/cart');
  const credit = page.getByLabel('Use site credit (£5.00 available)');
  await expect(credit).toBeDisabled();
  await expect(page.getByText('Minimum spend of £5.00 required to use site credit')).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText('£0.25');
  // Under the card's 30p minimum the cart says so before any payment starts (issue 16, point 3).
  await expect(page.getByTestId('card-minimum')).toHaveText(
    'Card payments start at £0.30: add a ticket or pay with site credit',
  );
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();

  await holdLuckyDip(page, 'Rolex Submariner Watch', 1);
  await expect(page.getByTestId('cart-subtotal')).toHaveText('£5.24');
  await expect(page.getByTestId('card-minimum')).toHaveCount(0);
  await expect(credit).toBeEnabled();
  await credit.check();
  // £5.00 of credit would leave 24p, under the card's 30p minimum: the cart and the payment both
  // use £4.94 of credit, and 6p stays in the account.
  await expect(page.getByTestId('cart-credit')).toHaveText('-£4.94');
  await expect(page.getByTestId('cart-total')).toHaveText('£0.30');
  const dialog = await openPaymentDialog(page);
  await expect(dialog.getByTestId('payment-amount')).toHaveText('£0.30');
  await payWithCard(dialog, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
  await expect(page.getByText('Visa Credit ••4242 + Site Credit')).toBeVisible();
  const { credit: left } = await (await page.request.get('/api/user/credit')).json();
  expect(left).toBe(0.06);
});

test('signed out: My Entries and the confirmation page ask to log in; /checkout offers both ways in', async ({
  page,
}) => {
  await page.goto('/my-competitions');
  await expect(page.getByRole('heading', { name: 'Authentication Required' })).toBeVisible();
  await expect(page.getByText('Please log in to view your competition entries.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return Home' })).toBeVisible();

  await page.goto('/my-tickets');
  await expect(page).toHaveURL(/\/my-competitions$/);

  await page.goto('/confirmation/1');
  await expect(page.getByRole('heading', { name: 'Authentication Required' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Homepage' })).toBeVisible();

  await page.goto('/checkout');
  await expect(page.getByRole('button', { name: 'Create Account & Checkout' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Cart' })).toBeVisible();

  await page.goto('/checkout?canceled=true');
  await expect(page.getByRole('heading', { name: 'Payment Canceled' })).toBeVisible();
  await expect(
    page.getByText('Order canceled. If you need help, please contact our support team.'),
  ).toBeVisible();
});

test('signed in: an order that is not yours is Not Found, and no entries says so', async ({ page }) => {
  await registerViaApi(page.request, { prefix: 'co', firstName: 'Morwenna', lastName: 'Penrose' });
  await page.goto('/confirmation/999999');
  await expect(page.getByRole('heading', { name: 'Order Not Found' })).toBeVisible();
  await page.goto('/my-competitions');
  await expect(page.getByRole('heading', { name: 'No Entries Yet' })).toBeVisible();
  await expect(page.getByText("You haven't purchased any competition tickets yet.")).toBeVisible();
});
