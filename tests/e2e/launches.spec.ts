import { expect, test } from '@playwright/test';
import { csrfHeaders, signInViaApi, unique } from './support';

// Drafts and scheduled launches: a draft previews only for an admin; a scheduled competition's
// open pages show the opening and unlock together, without a reload, when it opens.

async function adminPage(browser: import('@playwright/test').Browser) {
  const page = await (await browser.newContext()).newPage();
  await signInViaApi(page.request, 'admin', 'admin123');
  return page;
}

const competition = (overrides: Record<string, unknown>) => ({
  title: unique('Launch Hamper '),
  description: 'A hamper that opens on time.',
  ticketPrice: 1,
  totalTickets: 40,
  endDate: new Date(Date.now() + 10 * 86_400_000).toISOString(),
  details: { category: 'Cash' },
  ...overrides,
});

test('a draft shows only to an admin, with the draft bar, at its real URL', async ({ browser }) => {
  const admin = await adminPage(browser);
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: competition({ status: 'draft' }),
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  await admin.goto(`/competitions/${id}`);
  await expect(admin.getByTestId('draft-bar')).toHaveText('Draft: only admins can see this');
  await expect(admin.getByTestId('draft-buying')).toContainText(
    'Buying opens when this competition is published.',
  );

  const visitor = await (await browser.newContext()).newPage();
  const res = await visitor.goto(`/competitions/${id}`);
  expect(res?.status()).toBe(404);
  await expect(visitor.getByRole('heading', { name: 'Competition not found' })).toBeVisible();
});

test('two open pages of a scheduled competition unlock at the same moment when it opens', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  const startsAt = new Date(Date.now() + 3_600_000).toISOString();
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: competition({ startsAt }),
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();

  const pages = [];
  for (let i = 0; i < 2; i++) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`/competitions/${id}`);
    await expect(page.getByTestId('opens-soon')).toContainText('Opens ');
    await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toHaveCount(0);
    await expect(page.getByTestId('entries-grid')).toBeVisible();
    pages.push(page);
  }
  // A hold before the opening is refused by the server too.
  const early = await pages[0]!.request.post('/api/cart', {
    headers: await csrfHeaders(pages[0]!.request),
    data: { competitionId: id, quantity: 1 },
  });
  expect(early.status()).toBe(409);
  expect((await early.json()).code).toBe('not_open_yet');

  // The admin brings the opening forward to now: competition:opened reaches both pages.
  const opened = await admin.request.put(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin.request),
    data: { startsAt: new Date(Date.now() - 1000).toISOString() },
  });
  expect(opened.ok()).toBeTruthy();
  for (const page of pages) {
    await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeVisible();
    await expect(page.getByTestId('opens-soon')).toHaveCount(0);
  }
});
