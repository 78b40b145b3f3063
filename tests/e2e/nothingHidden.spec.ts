import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import {
  competitionId,
  csrfHeaders,
  entriesGrid,
  payWithCard,
  registerViaApi,
  socketConnected,
  unique,
} from './support';

// Issue 39 "Nothing hidden", its finish: the phone's buy bar, My Entries counting tickets, no
// toast over 'Continue Shopping', the receipt and long e-mail addresses at 390 px, sessions named
// 'Chrome on Android', and 'Keep my numbers' a minute before a hold runs out (on a controlled
// clock: no real waiting).

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

/** True when the element at the centre of `target` is `target` or inside it (nothing covers it). */
async function uncovered(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the element has no box');
  const handle = await target.elementHandle();
  return page.evaluate(
    ([x, y, el]) => {
      const top = document.elementFromPoint(x as number, y as number);
      return !!top && (top === el || (el as Element).contains(top));
    },
    [box.x + box.width / 2, box.y + box.height / 2, handle] as const,
  );
}

/**
 * Nothing covers `target` (the element at its centre is itself, and the toast's box is clear of
 * its box) with it at the bottom of the screen, or in the middle, while the toast shows: one evaluation, so the toast (5 s) cannot leave between the checks.
 */
async function expectUncoveredInView(target: Locator, where: string) {
  const seen = await target.evaluate((el) =>
    (['end', 'center'] as const).map((block) => {
      el.scrollIntoView({ block });
      const box = el.getBoundingClientRect();
      const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      const shown = document.querySelector('[data-testid="toast"]');
      const t = shown?.getBoundingClientRect();
      const overlaps =
        !!t && t.left < box.right && box.left < t.right && t.top < box.bottom && box.top < t.bottom;
      return { block, clear: !!top && (top === el || el.contains(top)) && !overlaps, toast: !!shown };
    }),
  );
  for (const { block, clear, toast } of seen) {
    expect(toast, `${where}: the toast was showing`).toBe(true);
    expect(clear, `${where}, scrolled to its ${block}`).toBe(true);
  }
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** A Lucky Dip of `quantity` held by this context's session (the skill question answered). */
async function holdLuckyDip(api: APIRequestContext, id: number, quantity: number) {
  const headers = await csrfHeaders(api);
  await api.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await api.post('/api/cart', { data: { competitionId: id, quantity }, headers });
  expect(held.status()).toBe(201);
  return (await held.json()) as { id: number; expiresAt: string };
}

/** Pays for the cart with the sandbox card, through the API. */
async function payForCart(api: APIRequestContext) {
  const headers = await csrfHeaders(api);
  const intent = await api.post('/api/create-payment-intent', { data: {}, headers });
  expect(intent.ok()).toBeTruthy();
  const { clientSecret } = await intent.json();
  const paid = await api.post('/api/payments/sandbox/confirm', {
    data: { clientSecret, cardNumber: '4242424242424242', expMonth: '12', expYear: '34', cvc: '123' },
    headers,
  });
  expect(paid.ok()).toBeTruthy();
}

/** Registers (and so signs in) a customer with a very long e-mail address; returns the address. */
async function registerWithLongEmail(api: APIRequestContext): Promise<string> {
  const username = unique('long');
  const email = `${username}.with.a.really.very.long.mailbox.name@an-extremely-long-domain-name-for-mail.co.uk`;
  const res = await api.post('/api/register', {
    headers: await csrfHeaders(api),
    data: {
      username,
      email,
      password: 'kernow123',
      firstName: 'Jory',
      lastName: 'Pascoe',
      phoneNumber: '07700 900789',
      dateOfBirth: '1990-04-01',
      ageConfirmation: true,
      ukResidency: true,
      termsAgreement: true,
    },
  });
  expect(res.status()).toBe(201);
  return email;
}

test.describe('at 390 x 844', () => {
  test.use({ viewport: PHONE, userAgent: ANDROID_CHROME });

  test('the buy bar keeps the price and the buy action in reach while scrolling, and covers nothing at the end', async ({
    page,
  }) => {
    const id = await competitionId(page.request, 'Ninja Kitchen Appliance Bundle');
    await page.goto(`/competition/${id}`);
    const buyNow = page.getByRole('button', { name: 'Buy Now' });
    await buyNow.scrollIntoViewIfNeeded();
    await expect(buyNow).toBeInViewport();
    const bar = page.getByTestId('sticky-buy-bar');
    // The panel's own buttons are in view: no second set.
    await expect(bar).toHaveCount(0);

    await entriesGrid(page); // well below the panel
    await expect(buyNow).not.toBeInViewport();
    await expect(bar).toBeInViewport({ ratio: 1 });
    await expect(bar).toContainText(/£\d+\.\d\d per ticket/);
    const buy = bar.getByRole('button', { name: /^Buy 1 ticket · £\d+\.\d\d$/ });
    expect(await uncovered(page, buy)).toBe(true);

    // It sits above the sign-up offer, which sticks to the bottom too.
    const offer = page.getByRole('region', { name: 'New customer offer' });
    await expect(offer).toBeVisible();
    const [barBox, offerBox] = [(await bar.boundingBox())!, (await offer.boundingBox())!];
    expect(barBox.y + barBox.height).toBeLessThanOrEqual(offerBox.y + 1);

    // At the very end it stops above the footer: the footer is not under it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footer = (await page.locator('footer').last().boundingBox())!;
    const endBox = (await bar.boundingBox())!;
    expect(endBox.y + endBox.height).toBeLessThanOrEqual(footer.y + 1);
    await buy.scrollIntoViewIfNeeded();

    // The bar's button is the page's buy action: the skill question first, as with 'Buy Now'.
    await buy.click();
    await expect(page.getByTestId('skill-dialog')).toBeVisible();
  });

  test('a long e-mail address wraps, the receipt fits the screen, My Entries counts tickets, and the session is named', async ({
    page,
  }) => {
    test.slow(); // two purchases through the API, then four pages
    const email = await registerWithLongEmail(page.request);
    const id = await competitionId(page.request, 'Ninja Kitchen Appliance Bundle');
    await holdLuckyDip(page.request, id, 2);
    await payForCart(page.request);
    await holdLuckyDip(page.request, id, 3);
    await payForCart(page.request);

    // Two purchases of 2 and 3 tickets: five tickets, not 'Showing 2 entries'.
    await page.goto('/my-competitions');
    await expect(page.getByRole('heading', { name: 'My Entries' })).toBeVisible();
    await expect(page.getByText('Showing 5 tickets')).toBeVisible();

    const orders: Array<{ id: number }> = await (await page.request.get('/api/orders')).json();
    await page.goto(`/orders/${orders[0]!.id}/receipt`);
    await expect(page.getByTestId('receipt-total')).toBeVisible();
    expect(await pageWidth(page), 'the receipt').toBeLessThanOrEqual(PHONE.width);
    for (const cell of await page.getByRole('cell').all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }

    await page.goto('/profile');
    const shown = page.locator('dd.email');
    await expect(shown).toHaveText(email);
    expect(await pageWidth(page), 'the profile').toBeLessThanOrEqual(PHONE.width);
    const box = (await shown.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

    // This session, signed in from an Android phone's Chrome: named, never the raw agent string.
    const sessions = page.getByRole('list', { name: 'Signed-in sessions' });
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions).toContainText('Chrome on Android');
    await expect(sessions).not.toContainText('Mozilla');
  });
});

test.describe('at 1280 x 800', () => {
  test.use({ viewport: DESKTOP });

  test("no toast covers 'Continue Shopping' on the confirmation page or the cart", async ({ page }) => {
    await registerViaApi(page.request, { prefix: 'cs' });
    // Three lines: the confirmation's actions end up low on the screen, where a toast once sat.
    for (const title of ['Carbon Road Bike', 'Designer Sunglasses', 'Ninja Kitchen Appliance Bundle'])
      await holdLuckyDip(page.request, await competitionId(page.request, title), 1);
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await payWithCard(page.getByTestId('checkout-dialog'), '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/confirmation\/\d+$/);
    // The payment's toast shows while the page offers its next steps.
    await expect(page.getByTestId('toast')).toContainText('Payment successful!');
    const next = page.getByRole('link', { name: 'Continue Shopping' });
    await expectUncoveredInView(next, 'on the confirmation page');
    await next.click({ trial: true, timeout: 2000 });

    await holdLuckyDip(page.request, await competitionId(page.request, 'Carbon Road Bike'), 1);
    await holdLuckyDip(page.request, await competitionId(page.request, 'Designer Sunglasses'), 1);
    await page.goto('/cart');
    await expect(page.getByTestId('cart-item')).toHaveCount(2);
    await page.getByRole('button', { name: 'Remove Carbon Road Bike' }).click();
    await expect(page.getByTestId('toast')).toContainText('Item removed from your cart.');
    const link = page.getByRole('link', { name: 'Continue Shopping' });
    await expectUncoveredInView(link, 'on the cart');
    await link.click({ trial: true, timeout: 2000 });
  });

  test("a minute before a hold runs out a notice offers 'Keep my numbers', which keeps them once", async ({
    page,
  }) => {
    const connected = socketConnected(page);
    await Promise.all([page.waitForResponse('**/api/csrf-token'), page.goto('/cart')]);
    await connected; // the page's clock follows the server's from here
    const id = await competitionId(page.request, 'Carbon Road Bike');
    const held = await holdLuckyDip(page.request, id, 2);
    await expect(page.getByTestId('cart-item')).toHaveCount(1);
    const notice = page.getByTestId('hold-notice');
    await expect(notice).toHaveCount(0);

    // The page's clock moves to 45 s before the hold ends; its timers keep running.
    await page.clock.setFixedTime(Date.parse(held.expiresAt) - 45_000);
    await expect(notice).toContainText(/Your numbers for Carbon Road Bike are held for 0:4\d more\./);
    await notice.getByRole('button', { name: 'Keep my numbers' }).click();
    await expect(page.getByTestId('toast')).toContainText(
      'Your numbers for Carbon Road Bike are held for longer.',
    );
    await expect(notice).toHaveCount(0);
    const [line] = await (await page.request.get('/api/cart')).json();
    expect(line).toMatchObject({ id: held.id, kept: true });
    expect(Date.parse(line.expiresAt)).toBeGreaterThan(Date.parse(held.expiresAt));

    // A minute before the new end nothing is offered: a hold is kept once.
    await page.clock.setFixedTime(Date.parse(line.expiresAt) - 30_000);
    await expect(page.getByTestId('reservation-timer')).toHaveText(/^Reserved for 0:[0-5]\d$/);
    await expect(notice).toHaveCount(0);
    const again = await page.request.post(`/api/cart/${held.id}/keep`, {
      headers: await csrfHeaders(page.request),
    });
    expect(again.status()).toBe(409);
    expect((await again.json()).code).toBe('hold_kept');
  });
});
