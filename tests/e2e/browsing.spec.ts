import { expect, test } from '@playwright/test';
import { entriesGrid } from './support';

test('home -> category filter -> competition detail with its entries grid', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: "1000's OF PRIZES TO BE WON", exact: true })).toBeVisible();
  const cards = page.getByTestId('competition-card');
  await expect(cards.first()).toBeVisible();
  const allCount = await cards.count();
  expect(allCount).toBeGreaterThanOrEqual(12);
  // Live draws come first: the first card is a LIVE DRAW, the last an AUTO WIN.
  await expect(cards.first()).toContainText('LIVE DRAW');
  await expect(cards.last()).toContainText('AUTO WIN');

  await page
    .getByRole('group', { name: 'Filter by category' })
    .getByRole('button', { name: 'Sports' })
    .click();
  await expect(page).toHaveURL(/category=sports/);
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'Carbon Road Bike' })).toHaveCount(1);

  await cards.filter({ hasText: 'Carbon Road Bike' }).click();
  await expect(page).toHaveURL(/\/competition\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Carbon Road Bike' })).toBeVisible();
  await expect(page.getByText('Live Competition')).toBeVisible();
  await expect(page.getByText(/Tickets Sold 310 \/ 2,000/)).toBeVisible();
  await expect(page.getByRole('timer')).toBeVisible();

  const grid = await entriesGrid(page);
  await expect(grid.locator('[data-number="1"]')).toBeVisible();
  const purchased = grid.locator('[data-state="purchased"]').first();
  await expect(purchased).toHaveAttribute('title', /^Ticket #\d+: Purchased by [A-Z][a-z]+ [A-Z]\.$/);
  await expect(page.getByRole('heading', { name: /people have entered this competition/ })).toBeVisible();

  // The quantity stepper shows the total price and stops at 10.
  await expect(page.getByTestId('total-price')).toHaveText('£2.99');
  const more = page.getByRole('button', { name: 'More tickets' });
  for (let i = 0; i < 12; i++) if (await more.isEnabled()) await more.click();
  await expect(page.getByTestId('total-price')).toHaveText('£29.90');
  await expect(more).toBeDisabled();
});

test('auto-win competitions hide the countdown', async ({ page }) => {
  await page.goto('/competitions');
  await page.getByTestId('competition-card').filter({ hasText: 'PlayStation 5 Pro Bundle' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'PlayStation 5 Pro Bundle' })).toBeVisible();
  await expect(page.getByText('AUTO WIN', { exact: true })).toBeVisible();
  await expect(page.getByRole('timer')).toHaveCount(0);
  // Instead: the tickets left, a bar, and the closing time in UK time.
  await expect(page.getByTestId('tickets-left')).toHaveText(/^[\d,]+ of 1,000 tickets left/);
  await expect(page.getByRole('progressbar', { name: 'Tickets sold' })).toBeVisible();
  await expect(page.getByTestId('end-date')).toHaveText(
    /^\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d \(UK time\)$/,
  );
  await expect(page.getByRole('region', { name: 'Prize details' })).toContainText('3 games included');
});

test('the competitions page counts and filters, with the empty message for a category with none', async ({
  page,
}) => {
  await page.goto('/competitions?category=vouchers');
  await expect(page.getByRole('heading', { level: 1, name: 'All Competitions' })).toBeVisible();
  await expect(page.getByTestId('competition-count')).toHaveText('Showing 2 competitions in Vouchers');
  await page.getByRole('button', { name: 'All Prizes' }).click();
  // The demo's 19, and any the other specs running beside this one have added since.
  await expect(page.getByTestId('competition-count')).toHaveText(/Showing \d+ competitions in All Prizes/);
  const shown = Number((await page.getByTestId('competition-count').textContent())?.match(/\d+/)?.[0]);
  expect(shown).toBeGreaterThanOrEqual(19);
  await expect(page.getByText('Secure payments with Mastercard and Visa')).toBeVisible();
});

test('the competitions page shows the error alert and recovers with Retry', async ({ page }) => {
  let fail = true;
  await page.route('**/api/competitions', (route) =>
    fail
      ? route.fulfill({ status: 500, body: '{"message":"boom","code":"internal_error"}' })
      : route.continue(),
  );
  await page.goto('/competitions');
  await expect(page.getByRole('alert')).toContainText('Error loading competitions');
  await expect(page.getByRole('alert')).toContainText(
    'We encountered a problem while loading the competitions. Please try again.',
  );
  await expect(page.getByTestId('competition-placeholder')).toHaveCount(4);
  await expect(page.getByTestId('competition-placeholder').first()).toHaveText(
    'Competition data unavailable',
  );
  fail = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('competition-card').first()).toBeVisible();
});

test('a missing competition (a 404) shows Competition not found with a way home', async ({ page }) => {
  const res = await page.goto('/competitions/987654');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Competition not found' })).toBeVisible();
  await expect(page).toHaveTitle(/^Competition not found \| /);
  await page.getByRole('link', { name: 'Return to Homepage' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('unknown paths show the 404 page', async ({ page }) => {
  const res = await page.goto('/no/such/page');
  expect(res?.status()).toBe(404); // the app shell, which renders the not-found page
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page).toHaveTitle(/404 Page Not Found/);
});

test("'Ending soon' and the draw-type filter reorder the list and stay in a shareable URL", async ({
  page,
}) => {
  const all: Array<{ title: string; endDate: string; autoWin: boolean }> = await (
    await page.request.get('/api/competitions')
  ).json();
  await page.goto('/competitions');
  await page.getByLabel('Sort by').selectOption({ label: 'Ending soon' });
  await expect(page).toHaveURL(/\?sort=ending-soon$/);
  // The card titles are h2 on /competitions and h3 under the home page's section heading.
  const titles = page.getByTestId('competition-card').getByRole('heading');
  const bySoonest = [...all]
    .sort((a, b) => Date.parse(a.endDate) - Date.parse(b.endDate))
    .map((c) => c.title);
  // Other specs running beside this one may add competitions meanwhile: the ones known here must
  // come in this order, whatever joins them.
  const known = new Set(bySoonest);
  const inOrder = async (expected: string[]) =>
    expect(async () => {
      const shown = (await titles.allTextContents()).filter((t) => known.has(t));
      expect(shown).toEqual(expected);
    }).toPass();
  await inOrder(bySoonest);

  await page.getByLabel('Show').selectOption({ label: 'Auto wins' });
  await expect(page).toHaveURL(/\?sort=ending-soon&draw=auto-win$/);
  const autoWins = bySoonest.filter((t) => all.find((c) => c.title === t)!.autoWin);
  await inOrder(autoWins);

  // The link works as it is: a new visitor with the same URL sees the same list, on the home page too.
  await page.goto('/?sort=ending-soon&draw=auto-win');
  await expect(page.getByLabel('Sort by')).toHaveValue('ending-soon');
  await inOrder(autoWins);
});
