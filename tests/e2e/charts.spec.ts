import { expect, test } from '@playwright/test';
import { buyAsNewCustomer, signInViaApi } from './support';

// The admin dashboard's sales charts and live tiles: drawn by uPlot in a chunk customers never
// load, and moved by a purchase without a reload.

const figure = async (text: Promise<string>) => Number((await text).replace(/[^\d.]/g, ''));

test('customer pages never load the charts library', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') scripts.push(await res.text());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  // uPlot's own class names: present in its chunk, absent from everything a customer loads.
  for (const code of scripts) expect(code).not.toContain('u-legend');
});

test('the dashboard shows the sales charts, and a purchase moves the live figures without a reload', async ({
  browser,
}) => {
  // Two contexts, a build's chunk read for uPlot and a purchase on a shared, loaded machine.
  test.setTimeout(60_000);
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const chartChunk = admin.waitForResponse(
    async (res) => res.request().resourceType() === 'script' && (await res.text()).includes('u-legend'),
  );
  await admin.goto('/admin');
  await chartChunk;

  await expect(admin.getByRole('heading', { name: 'Sales', exact: true })).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'Tickets Sold and Revenue' })).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'Sales per Competition' })).toBeVisible();
  await expect(admin.getByTestId('sales-time-chart').locator('canvas')).toBeVisible();
  await expect(admin.getByLabel('From', { exact: true })).toBeVisible();
  await expect(admin.getByLabel('Group by', { exact: true })).toHaveValue('day');
  // The live tiles fill from admin:live, pushed once the admin's socket connects.
  await expect(admin.getByTestId('live-sockets')).toHaveText(/^\d+$/);
  await expect(admin.getByTestId('live-held')).toHaveText(/^\d+$/);
  const paymentsBefore = await figure(admin.getByTestId('live-payments').innerText());
  const ticketsBefore = await figure(admin.getByTestId('sales-totals').locator('strong').first().innerText());

  const { id, title } = (await (await admin.request.get('/api/competitions')).json()).find(
    (c: { totalTickets: number; ticketsSold: number }) => c.totalTickets - c.ticketsSold > 100,
  ) as {
    id: number;
    title: string;
  };
  const buyer = await browser.newContext();
  await buyAsNewCustomer(buyer.request, id, 2, 'ch');

  await expect
    .poll(() => figure(admin.getByTestId('live-payments').innerText()), { timeout: 10_000 })
    .toBeGreaterThan(paymentsBefore);
  await expect
    .poll(() => figure(admin.getByTestId('sales-totals').locator('strong').first().innerText()), {
      timeout: 10_000,
    })
    .toBeGreaterThanOrEqual(ticketsBefore + 2);
  await expect(admin.getByTestId('competition-sales').filter({ hasText: title })).toBeVisible();
});
