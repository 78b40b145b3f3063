import fs from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { buyAsNewCustomer, csrfHeaders, signInViaApi, unique } from './support';

// The draw end to end: a closed live-draw competition with one buyer, an admin pressing Draw now,
// a watcher seeing the result live, the browser's own verification, /winners and the audit trail.
// DRAW_SHOTS=<dir> also saves screenshots (desktop and 390x844) for a look at the layout.

const shotsDir = process.env.DRAW_SHOTS;

async function signedInPage(browser: Browser, username: string, password: string) {
  const page = await (await browser.newContext()).newPage();
  await signInViaApi(page.request, username, password);
  return page;
}

async function shoot(page: Page, name: string) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: `${shotsDir}/${name}.png`, fullPage: true });
}

test('a watcher sees the draw live and verifies it; /winners and the admin detail show the winner', async ({
  browser,
}) => {
  // Draw now uses a beacon round a second ahead, produced at once by the on-demand test beacon.
  test.setTimeout(90_000);
  const admin = await signedInPage(browser, 'admin', 'admin123');

  // A live-draw competition (Cash, not a category other tests count) with one buyer, then closed.
  const title = unique('Draw Day Hamper ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'A hamper of Cornish treats, drawn live.',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const customer = await browser.newContext();
  const username = await buyAsNewCustomer(customer.request, id, [3, 8, 15]);
  // The admin has checked the buyer's identity document (docs/product.md#age-checks).
  const users = (await (await admin.request.get('/api/admin/users')).json()) as Array<{
    id: number;
    username: string;
  }>;
  const verified = await admin.request.post(
    `/api/admin/users/${users.find((u) => u.username === username)!.id}/age-verification`,
    { headers: await csrfHeaders(admin.request), data: {} },
  );
  expect(verified.ok()).toBeTruthy();
  const ended = await admin.request.put(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin.request),
    data: { status: 'ended' },
  });
  expect(ended.ok()).toBeTruthy();
  const { drawCommitment } = await (await admin.request.get(`/api/competitions/${id}`)).json();

  // The watcher: commitment from creation, no buying once closed.
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(`/competitions/${id}`);
  await expect(watcher.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(watcher.getByTestId('draw-commitment')).toContainText(drawCommitment);
  await expect(watcher.getByTestId('competition-closed')).toContainText('closed to new entries');
  await expect(watcher.getByTestId('draw-beacon')).toContainText(
    'a future round of the drand randomness beacon',
  );
  await expect(watcher.getByRole('button', { name: 'Buy Now' })).toHaveCount(0);
  await expect(watcher.getByRole('button', { name: 'Select Lucky Numbers' })).toHaveCount(0);

  // A second watcher who asked for less motion: no spinning drum, the result all the same.
  const still = await (await browser.newContext({ reducedMotion: 'reduce' })).newPage();
  await still.goto(`/competitions/${id}`);
  await expect(still.getByTestId('competition-closed')).toBeVisible();

  // The admin opens the competition from the list and draws it.
  await admin.goto('/admin/competitions');
  await admin.getByRole('tab', { name: /^Ended/ }).click();
  await admin.getByRole('link', { name: `Open ${title}` }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/competitions/${id}$`));
  await expect(admin.getByTestId('draw-state')).toHaveText('Ready to draw');
  await expect(admin.getByTestId('draw-status-message')).toContainText('3 tickets sold');
  await admin.getByRole('button', { name: 'Draw now' }).click();
  await admin.getByTestId('draw-dialog').getByRole('button', { name: 'Draw now' }).click();

  // The watcher's page was never reloaded: the reveal, then the result. (The reveal starts at the
  // draw's commit, before Draw now answers, so it is looked for first.)
  await expect(watcher.getByTestId('draw-reveal')).toBeVisible();
  await expect(admin.getByTestId('toast')).toContainText('Competition drawn');
  if (shotsDir) await watcher.getByTestId('draw-reveal').screenshot({ path: `${shotsDir}/reveal.png` });
  await expect(watcher.getByTestId('winning-number')).toHaveText(/^#(3|8|15)$/);
  await expect(watcher.getByTestId('winner-name')).toHaveText('Jory P.');
  await expect(still.getByTestId('winner-name')).toHaveText('Jory P.');
  const winning = Number((await watcher.getByTestId('winning-number').textContent())!.slice(1));
  await expect(watcher.getByTestId('draw-winning-number')).toHaveText(String(winning));
  // The beacon round the draw waited for, and what kind of beacon it was.
  await expect(watcher.getByTestId('draw-beacon')).toContainText(/Local test beacon round \d+/);
  await expect(watcher.getByTestId('test-beacon-label')).toHaveText('test beacon: not independent');
  // The moment the entries became final, which the round follows from.
  await expect(watcher.getByTestId('entries-final-at')).toContainText(
    /^Entries final at .+: the draw uses the first round produced at least \d+ s later\.$/,
  );
  const panel = watcher.getByTestId('verify-panel');
  await panel.getByRole('button', { name: 'Verify this draw' }).click();
  await expect(panel.getByTestId('verify-summary')).toHaveText(/^All 5 checks passed/);
  await expect(panel.getByTestId('verify-check')).toHaveCount(5);
  for (const check of await panel.getByTestId('verify-check').all())
    await expect(check).toHaveAttribute('data-status', 'passed');
  await shoot(watcher, 'draw-desktop');

  // The admin's view: winner with contact, audit trail, prize delivery.
  await expect(admin.getByTestId('draw-state')).toHaveText('Drawn');
  const winner = admin.getByTestId('admin-winner');
  await expect(winner).toContainText(`${username}@example.co.uk`);
  await expect(winner).toContainText(`Jory Pascoe (${username})`);
  await expect(admin.getByRole('list', { name: 'Audit trail' })).toContainText(
    `Competition draw by admin: Winning number ${winning} from 3 entries`,
  );
  // A prize of no stated value goes only to an age-verified winner (verified above; the refusal
  // is tests/api/accounts/ageChecks.test.ts).
  await expect(winner.getByTestId('winner-age-verified')).not.toContainText('Not yet');
  await admin.getByRole('button', { name: 'Mark prize delivered' }).click();
  await expect(winner.getByTestId('prize-delivered')).not.toHaveText('Not yet');
  await expect(admin.getByRole('list', { name: 'Audit trail' })).toContainText('Competition prize delivered');
  await admin.getByRole('link', { name: 'Back to Competitions' }).click();
  await admin.getByRole('tab', { name: /^Winners/ }).click();
  await expect(admin.getByTestId('winner-row').filter({ hasText: title })).toContainText(
    `${username}@example.co.uk`,
  );
  await admin.goBack();
  await expect(admin.getByTestId('admin-winner')).toBeVisible();

  // /winners lists it; its link opens the verification, which runs by itself.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto('/');
  await visitor.getByRole('contentinfo').getByRole('link', { name: 'Winners' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'Winners' })).toBeVisible();
  const card = visitor.getByTestId('winner-card').filter({ hasText: title });
  await expect(card).toContainText('Jory P.');
  await expect(card).toContainText(String(winning));
  await shoot(visitor, 'winners-desktop');
  await card.getByRole('link', { name: `Verify the draw of ${title}` }).click();
  await expect(visitor.getByTestId('verify-summary')).toHaveText(/^All 5 checks passed/);

  if (shotsDir) {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await phone.goto(`/competitions/${id}#verify-draw`);
    await expect(phone.getByTestId('verify-summary')).toHaveText(/^All 5 checks passed/);
    await shoot(phone, 'draw-mobile');
    await phone.goto('/winners');
    await expect(phone.getByTestId('winner-card').first()).toBeVisible();
    await shoot(phone, 'winners-mobile');
    await admin.setViewportSize({ width: 390, height: 844 });
    await shoot(admin, 'admin-detail-mobile');
    await admin.setViewportSize({ width: 1280, height: 900 });
    await shoot(admin, 'admin-detail-desktop');
  }
});

test('a closed competition without sales says there is nothing to draw, to the admin and the public', async ({
  browser,
}) => {
  const admin = await signedInPage(browser, 'admin', 'admin123');
  const title = unique('Unsold Hamper ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      ticketPrice: 2,
      totalTickets: 10,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      status: 'ended',
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  await admin.goto(`/admin/competitions/${id}`);
  await expect(admin.getByTestId('draw-state')).toHaveText('Nothing to draw');
  await expect(admin.getByTestId('draw-status-message')).toContainText('No tickets were sold');
  await expect(admin.getByRole('button', { name: 'Draw now' })).toHaveCount(0);
  await expect(admin.getByRole('list', { name: 'Audit trail' })).toContainText('Competition create by admin');

  await admin.getByRole('link', { name: 'View public page' }).click();
  await expect(admin.getByTestId('competition-closed')).toContainText('nothing to draw');
  await expect(admin.getByTestId('draw-commitment')).toContainText(/[0-9a-f]{64}/);
});
