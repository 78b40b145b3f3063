import { expect, test } from '@playwright/test';
import { CLAIM_LINK_INVALID } from '../../contract/claims';
import { emailsTo } from '../support/accounts';
import { expectNoAxeViolations } from './axe';
import { csrfHeaders, e2eDataDir, signInViaApi, unique } from './support';

// A postal winner has no account (docs/draws.md#7-claiming-a-prize): their winner e-mail links
// /claims/:id?token=…, which opens the claim in any browser without signing in: the prize, the
// deadline, the address from the postcard; they correct it and take the cash. An altered link is
// refused and the page says so; the admin's winner panel shows the claim.

test('a postal winner opens the e-mailed claim link, signed out, and claims the cash', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const headers = await csrfHeaders(admin.request);
  const title = unique('Postal Paddleboard ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers,
    data: {
      title,
      description: 'An inflatable paddleboard, or £300 cash.',
      ticketPrice: 1,
      totalTickets: 10,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'sports' },
      cashAlternative: 300,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // The only entry is a postcard, so it wins.
  const email = `${unique('postal.winner.')
    .replace(/[^a-z0-9.]/gi, '')
    .toLowerCase()}@example.co.uk`;
  const entered = await admin.request.post(`/api/admin/competitions/${id}/postal-entries`, {
    headers,
    data: {
      name: 'Morwenna Trevithick',
      email,
      address: '4 Harbour Row\nMousehole',
      postcode: 'tr19 6qa',
      receivedAt: new Date().toISOString().slice(0, 10),
      answer: '365',
    },
  });
  expect(entered.status(), await entered.text()).toBe(201);
  expect(
    (await admin.request.put(`/api/admin/competitions/${id}`, { headers, data: { status: 'ended' } })).ok(),
  ).toBe(true);
  const drawn = await admin.request.post(`/api/admin/competitions/${id}/draw`, { headers, data: {} });
  // Under load the beacon round may come late (202, or 503 retried by the job): the draw follows it.
  expect([200, 202, 503], await drawn.text()).toContain(drawn.status());

  // The winner e-mail's link.
  let link = '';
  await expect(async () => {
    const mail = emailsTo(e2eDataDir, email).find((m) => m.includes('/claims/'));
    link = /\/claims\/\d+\?token=[A-Za-z0-9_-]+/.exec(mail ?? '')?.[0] ?? '';
    expect(link).not.toBe('');
  }).toPass({ timeout: 30_000 });

  // An altered link opens nothing, and says so.
  const winner = await (
    await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
  ).newPage();
  const altered = link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  await winner.goto(altered);
  await expect(winner.getByRole('heading', { name: 'Claim not available' })).toBeVisible();
  await expect(winner.getByText(CLAIM_LINK_INVALID, { exact: true })).toBeVisible();

  // The link itself, signed out: the prize, the deadline and the postcard's address.
  await winner.goto(link);
  await expect(winner.getByTestId('claim-prize')).toHaveText(title);
  await expect(winner.getByTestId('claim-deadline')).toContainText('Claim by');
  await expect(winner.getByLabel('Address line 1')).toHaveValue('4 Harbour Row');
  await expect(winner.getByLabel('Town or city')).toHaveValue('Mousehole');
  await expect(winner.getByLabel('Postcode')).toHaveValue('TR19 6QA');
  await expect(winner.getByText('We will e-mail you')).toBeVisible();
  await expect(winner.getByRole('link', { name: 'Change it in My Profile' })).toHaveCount(0);
  await expectNoAxeViolations(winner, 'the claim page opened with a postal link');
  await winner.getByLabel('Address line 1').fill('9 Fore Street');
  await winner.getByLabel('Town or city').fill('Newlyn');
  await winner.getByLabel('Postcode').fill('tr18 5jn');
  await winner.getByLabel(/The cash alternative: £300\.00/).check();
  await winner.getByRole('button', { name: 'Claim prize' }).click();
  const done = winner.getByTestId('claim-done');
  await expect(done).toContainText('you chose the cash alternative (£300.00)');
  await expect(done).toContainText('9 Fore Street, Newlyn, TR18 5JN');
  // Opened again, the link shows the claim as made.
  await winner.reload();
  await expect(winner.getByTestId('claim-done')).toContainText('you chose the cash alternative (£300.00)');

  // The admin's winner panel: the postcard's claim, as an account's.
  await admin.goto(`/admin/competitions/${id}`);
  const panel = admin.getByTestId('admin-winner');
  await expect(panel.getByTestId('admin-winner-name')).toHaveText('Postal entry: Morwenna Trevithick');
  await expect(panel.getByTestId('winner-address')).toHaveText('9 Fore Street, Newlyn, TR18 5JN');
  await expect(panel.getByTestId('winner-claim')).toContainText('Cash alternative (£300.00) chosen on');
});
