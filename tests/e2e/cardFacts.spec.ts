import { type Browser, expect, type Page, test } from '@playwright/test';
import { competitionId, csrfHeaders, payWithCard, registerViaApi, signInViaApi, unique } from './support';

// Issue 39 §5 and §7 in the browser. The card that paid is named 'Visa Debit ••5556' on the
// confirmation, the receipt, My Profile's order history and the admin's order; an instant-win
// basket says 'Debit cards only' before the card form. A customer on a break, or over their
// spending limit, sees one banner saying why and until when, with the buttons disabled, on the
// competition page and in the cart, on a phone and on a desktop.

async function instantWinCompetition(browser: Browser): Promise<{ admin: Page; id: number }> {
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title: unique('Card Facts Instant '),
      description: 'One instant prize on number 7.',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
      instantWins: [{ title: '£2 site credit', kind: 'credit', amountPence: 200, numbers: [7] }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { admin, id: ((await created.json()) as { id: number }).id };
}

async function hold(page: Page, id: number, quantity: number) {
  const headers = await csrfHeaders(page.request);
  await page.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await page.request.post('/api/cart', { data: { competitionId: id, quantity }, headers });
  expect(held.status(), await held.text()).toBe(201);
}

test('a Visa debit card is named everywhere; an instant-win basket says "Debit cards only" first', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, id } = await instantWinCompetition(browser);
  const page = await (await browser.newContext()).newPage();
  await registerViaApi(page.request, { prefix: 'card' });
  await hold(page, id, 2);
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = page.getByTestId('checkout-dialog');
  // Said before any card is tried, above the card form.
  await expect(dialog.getByTestId('debit-cards-only')).toContainText('Debit cards only');
  const notice = await dialog.getByTestId('debit-cards-only').boundingBox();
  const form = await dialog.getByRole('form', { name: 'Card details' }).boundingBox();
  expect(notice!.y).toBeLessThan(form!.y);
  await payWithCard(dialog, '4000 0566 5566 5556');
  await expect(page).toHaveURL(/\/confirmation\/\d+$/);
  const orderId = Number(/\/confirmation\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByText('Visa Debit ••5556', { exact: true })).toBeVisible();

  await page.goto(`/orders/${orderId}/receipt`);
  await expect(page.getByText(/Visa Debit ••5556/)).toBeVisible();

  await page.goto('/profile');
  const entry = page.getByTestId('order-history-item').first();
  await expect(entry).toContainText('Paid');
  await expect(entry).toContainText('Visa Debit ••5556');

  await admin.goto(`/admin/orders/${orderId}`);
  await expect(admin.getByText('Visa Debit ••5556', { exact: true })).toBeVisible();
});

for (const [device, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const) {
  test.describe(`protection shown up front on a ${device}`, () => {
    test.use({ viewport });

    test('over the spending limit: one banner, Buy Now and checkout disabled', async ({ page }) => {
      await registerViaApi(page.request, { prefix: 'lim' });
      const id = await competitionId(page.request, '£5,000 Tax-Free Cash');
      // Held before the limit: holds are allowed, checkout is not.
      await hold(page, id, 1);
      const headers = await csrfHeaders(page.request);
      const limit = await page.request.put('/api/account/limits', {
        data: { monthlySpendLimitPence: 100 },
        headers,
      });
      expect(limit.status()).toBe(200);

      await page.goto(`/competitions/${id}`);
      const banner = page.getByTestId('play-block');
      await expect(banner).toHaveCount(1);
      await expect(banner).toContainText(
        'This would take you over your monthly spending limit of £1 (£1 left this month). You can spend more from',
      );
      await expect(page.getByRole('button', { name: 'Buy Now' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeDisabled();

      await page.goto('/cart');
      await expect(page.getByTestId('play-block')).toHaveCount(1);
      await expect(page.getByTestId('play-block')).toContainText('monthly spending limit of £1');
      await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();
    });

    test('on a break: one banner with its end, Buy Now disabled', async ({ page }) => {
      await registerViaApi(page.request, { prefix: 'brk' });
      const started = await page.request.post('/api/account/self-exclusion', {
        data: { period: '7d' },
        headers: await csrfHeaders(page.request),
      });
      expect(started.status()).toBe(200);
      const id = await competitionId(page.request, '£5,000 Tax-Free Cash');
      await page.goto(`/competitions/${id}`);
      const banner = page.getByTestId('play-block');
      await expect(banner).toHaveCount(1);
      await expect(banner).toContainText(
        /You're taking a break until \d+ \w+ \d{4}\. You can't enter until then\./,
      );
      await expect(page.getByRole('button', { name: 'Buy Now' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeDisabled();
    });
  });
}
