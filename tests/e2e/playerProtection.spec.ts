import { expect, type Page, test } from '@playwright/test';
import { competitionId, registerViaApi, signInViaApi } from './support';

// Player protection in the browser: a spending limit that the checkout enforces, taking a break,
// and the operator's harm report.

async function holdLuckyDip(page: Page, title: string, quantity: number) {
  const id = await competitionId(page.request, title);
  const { csrfToken } = await (await page.request.get('/api/csrf-token')).json();
  const headers = { 'X-CSRF-Token': csrfToken };
  await page.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const res = await page.request.post('/api/cart', { data: { competitionId: id, quantity }, headers });
  expect(res.status()).toBe(201);
}

test('a customer sets a spending limit, the checkout keeps to it, then they take a break', async ({
  page,
}) => {
  await registerViaApi(page.request, { prefix: 'limit' });
  await page.goto('/profile');
  const limits = page.getByRole('region', { name: 'Spending limits' });
  await expect(limits.getByText('You have no monthly spending limit.')).toBeVisible();
  await limits.getByLabel('Monthly limit (£)').fill('5');
  await limits.getByRole('button', { name: 'Save limit' }).click();
  await expect(limits.getByTestId('spend-limit')).toHaveText(
    'Your monthly spending limit is £5. You have spent £0.00 this month.',
  );

  // Raising it waits 24 hours.
  await limits.getByLabel('Monthly limit (£)').fill('50');
  await limits.getByRole('button', { name: 'Save limit' }).click();
  await expect(limits.getByTestId('pending-limit')).toContainText('Your new limit of £50 applies from');
  await expect(limits.getByTestId('spend-limit')).toContainText('£5.');

  // Five £1.99 tickets are over £5: the cart says so before checkout, which is disabled.
  await holdLuckyDip(page, '£5,000 Tax-Free Cash', 5);
  await page.goto('/cart');
  await expect(page.getByTestId('play-block')).toContainText(
    'This would take you over your monthly spending limit of £5 (£5 left this month).',
  );
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();

  await page.goto('/profile');
  const pause = page.getByRole('region', { name: 'Take a break' });
  await pause.getByLabel('Take a break for').selectOption('7d');
  await pause.getByRole('button', { name: 'Take a break' }).click();
  await pause.getByRole('button', { name: 'Yes, start my break' }).click();
  await expect(pause.getByTestId('break-until')).toContainText("You're taking a break until");
  // The held tickets were released.
  await page.goto('/cart');
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toHaveCount(0);
});

test('an admin lowers the thresholds, sees spenders and records a review', async ({ browser }) => {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  await admin.goto('/admin/harm-report');
  await expect(admin.getByRole('heading', { name: 'Harm Report' })).toBeVisible();
  const before = {
    day: await admin.getByLabel('Spent in 24 hours (£)').inputValue(),
    month: await admin.getByLabel('Spent in 30 days (£)').inputValue(),
  };
  await admin.getByLabel('Spent in 24 hours (£)').fill('1');
  await admin.getByLabel('Spent in 30 days (£)').fill('1');
  await admin.getByRole('button', { name: 'Save thresholds' }).click();
  await expect(admin.getByText('Thresholds saved')).toBeVisible();
  const row = admin.getByTestId('harm-row').first();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /Record a review of/ }).click();
  const dialog = admin.getByTestId('harm-review-dialog');
  await dialog.getByLabel('Action').selectOption('watch');
  await dialog.getByLabel('Note').fill('Spending looks steady; checking again next week.');
  await dialog.getByRole('button', { name: 'Save review' }).click();
  await expect(admin.getByText('Review recorded')).toBeVisible();
  await expect(admin.getByTestId('harm-row').first()).toContainText(
    'Keep watching: Spending looks steady; checking again next week.',
  );
  await admin.getByLabel('Spent in 24 hours (£)').fill(before.day);
  await admin.getByLabel('Spent in 30 days (£)').fill(before.month);
  await admin.getByRole('button', { name: 'Save thresholds' }).click();
  await context.close();
});
