import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { parseEml } from '../support/outbox';
import { confirmEmailViaApi, csrfHeaders, e2eDataDir, registerViaApi, signInViaApi, unique } from './support';

// Watching a competition and the marketing e-mails in the browser (docs/product.md#watching-a-competition,
// docs/emails.md#marketing-e-mails): the heart on the card and the page, My Profile's Watching list
// with live countdowns; the one-click unsubscribe link's page; the admin's Campaigns page.

/** The admin creates an active competition (which announces it: 'New competition live'). */
async function createAsAdmin(admin: Page, title: string): Promise<number> {
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'A prize to watch.',
      ticketPrice: 1,
      totalTickets: 50,
      endDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

/** The raw .eml files sent to `address`. */
const rawMailTo = (address: string) => {
  const dir = path.join(e2eDataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .filter((raw) => parseEml(raw).to.toLowerCase().includes(address.toLowerCase()));
};

test('the heart watches a competition from its card and page; My Profile lists it with a live countdown', async ({
  browser,
  baseURL,
}) => {
  test.slow();
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const title = unique('Watched Prize ');
  const id = await createAsAdmin(admin, title);

  const page = await (await browser.newContext({ baseURL })).newPage();
  await registerViaApi(page.request, { prefix: 'wl' });
  await page.goto('/');
  const heart = page.getByRole('button', { name: `Watch ${title}` });
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(page.getByRole('button', { name: `Stop watching ${title}` })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // The heart did not open the competition.
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/profile');
  const watching = page.getByRole('region', { name: 'Watching' });
  const item = watching.getByTestId('watched-competition').filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item.getByRole('link', { name: title })).toHaveAttribute('href', `/competition/${id}`);
  // The countdown ticks: its text changes as the seconds pass.
  const first = await item.getByText('Secs').locator('..').innerText();
  await expect
    .poll(() => item.getByText('Secs').locator('..').innerText(), { timeout: 5000 })
    .not.toBe(first);

  // On the competition's page the heart says so, and stops watching.
  await page.goto(`/competition/${id}`);
  const pageHeart = page.getByTestId('watch-heart');
  await expect(pageHeart).toHaveText(/Watching/);
  await pageHeart.click();
  await expect(pageHeart).toHaveText(/Watch$/);
  await page.goto('/profile');
  await expect(page.getByRole('region', { name: 'Watching' })).toContainText(
    'You are not watching any competitions',
  );
});

test("an opted-in customer's new-competition e-mail unsubscribes from its page; the admin's Campaigns page counts it", async ({
  browser,
  baseURL,
}) => {
  test.slow();
  const customer = await (await browser.newContext({ baseURL })).newPage();
  const username = await registerViaApi(customer.request, { prefix: 'cm' });
  const email = `${username}@example.co.uk`;
  await confirmEmailViaApi(customer.request, email);
  const pref = await customer.request.put('/api/account/preferences', {
    headers: await csrfHeaders(customer.request),
    data: { marketingEmails: true },
  });
  expect(pref.status()).toBe(200);

  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const title = unique('Campaign Prize ');
  await createAsAdmin(admin, title);

  // The announcement follows the COMMIT; its e-mail lands in the outbox.
  await expect
    .poll(
      () =>
        rawMailTo(email).filter((raw) => parseEml(raw).subject === `New competition live: ${title}`).length,
    )
    .toBe(1);
  const raw = rawMailTo(email).find((r) => parseEml(r).subject === `New competition live: ${title}`)!;
  const head = raw
    .slice(0, raw.indexOf('\n\n'))
    .replace(/\r/g, '')
    .replace(/\n[ \t]+/g, ' ');
  const link = new URL(/^List-Unsubscribe: <([^>]+)>$/m.exec(head)![1]!);

  // The link in a browser asks first; its button unsubscribes; the page shows the way back in.
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto(link.pathname + link.search);
  await expect(visitor.getByRole('heading', { name: /Unsubscribe from/ })).toBeVisible();
  await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(visitor.getByRole('heading', { name: "You're unsubscribed" })).toBeVisible();
  await expect(visitor.getByRole('link', { name: /My Profile/ })).toHaveAttribute('href', '/profile');

  await admin.goto('/admin');
  await admin
    .getByRole('link', { name: /Campaigns/ })
    .first()
    .click();
  await expect(admin).toHaveURL(/\/admin\/campaigns$/);
  await expect(admin.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  const row = admin.getByTestId('campaign-row').filter({ hasText: title });
  await expect(row).toContainText('New competition live');
  await expect(row.locator('td').nth(6)).toHaveText('1');
});
