import { expect, test } from '@playwright/test';
import { csrfHeaders, signInViaApi, unique } from './support';

// The free postal entry route (Gambling Act 2005 s.14; DCMS "clear free entry route"): an admin
// sets the postal address, records a postcard and imports a day's post; the competition page and
// the Terms show the route beside buying, with the address from Site Settings.

test('an admin records postal entries and every visitor sees the free route with its address', async ({
  browser,
}) => {
  test.setTimeout(90_000); // three screens, two pages of the public site and an import
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');

  // The address, set in Site Settings.
  const street = unique('PO Box ');
  await admin.goto('/admin/site-settings');
  const settings = admin.getByTestId('postal-address-settings');
  // Loaded (enabled) with the demo data's address.
  await expect(settings.getByLabel('Postal entry address')).toBeEnabled({ timeout: 30_000 });
  await expect(settings.getByLabel('Postal entry address')).not.toHaveValue('');
  await settings.getByLabel('Postal entry address').fill(`Westcountry Prizes\n${street}\nTruro\nTR1 9ZZ`);
  await settings.getByRole('button', { name: 'Save postal entry address' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Postal entry address saved');

  const title = unique('Postal Pasty Hamper ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'A hamper of pasties, open to postal entries.',
      ticketPrice: 1,
      totalTickets: 30,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // 'Add postal entry': a bad postcode first, then the postcard.
  await admin.goto(`/admin/competitions/${id}`);
  const form = admin.getByRole('form', { name: 'Add postal entry' });
  await form.getByLabel('Name').fill('Jane Trelawny');
  await form.getByLabel('E-mail').fill('jane.postal@example.co.uk');
  await form.getByLabel('Address').fill('12 High Street\nTruro');
  await form.getByLabel('Answer to the skill question').fill('364');
  await form.getByLabel('Postcode').fill('NOPE');
  await form.getByRole('button', { name: 'Add postal entry' }).click();
  await expect(form.getByText('Please enter a valid UK postcode')).toBeVisible();
  // The postcard's answer to the skill question: a wrong one is refused, as the Terms say.
  await form.getByLabel('Postcode').fill('tr1 2ab');
  await form.getByRole('button', { name: 'Add postal entry' }).click();
  await expect(form.getByText('Not the correct answer')).toBeVisible();
  await expect(admin.getByTestId('postal-entry-row')).toHaveCount(0);
  await form.getByLabel('Answer to the skill question').fill('365');
  await form.getByRole('button', { name: 'Add postal entry' }).click();
  await expect(admin.getByTestId('toast').filter({ hasText: 'Postal entry added' })).toContainText(
    /Ticket number \d+\./,
  );
  const rows = admin.getByTestId('postal-entry-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Jane Trelawny');
  await expect(rows.first()).toContainText('TR1 2AB');
  await expect(rows.first()).toContainText('365');
  await expect(admin.getByText('1 sold of 30')).toBeVisible();
  await expect(admin.getByRole('list', { name: 'Audit trail' })).toContainText(
    /Competition postal entry by admin: Number \d+ to Jane Trelawny/,
  );

  // A day's post as CSV: one row entered, one refused with its reason.
  const today = new Date().toISOString().slice(0, 10);
  await admin.getByLabel('CSV file').setInputFiles({
    name: 'post.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `name,email,address,postcode,receivedAt,answer\r\nAnn Pascoe,ann.postal@example.co.uk,1 Quay Street,TR11 3HH,${today},365\r\nNo Postcode,np@example.co.uk,2 Quay Street,,${today},365\r\n`,
    ),
  });
  await admin.getByRole('button', { name: 'Import CSV' }).click();
  const results = admin.getByTestId('postal-import-row');
  await expect(results).toHaveCount(2);
  await expect(results.nth(0)).toContainText(/Entered: number \d+/);
  await expect(results.nth(1)).toContainText('Refused: Please enter a valid UK postcode');
  await expect(rows).toHaveCount(2);

  // The public page: the free route beside buying, with the address; postal entrants are listed.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/competitions/${id}`);
  const route = visitor.locator('#free-entry');
  await expect(route.getByRole('heading', { name: 'Enter for free by post' })).toBeVisible();
  await expect(route.getByTestId('postal-address')).toContainText(street);
  await expect(route).toContainText('exactly the same chance of winning');
  await expect(visitor.getByText('Jane T.')).toBeVisible();
  await expect(visitor.getByText('Ann P.')).toBeVisible();

  // The Terms state the same address and the live hold time.
  await route.getByRole('link', { name: 'terms and conditions' }).click();
  await expect(visitor).toHaveURL(/\/terms/);
  await expect(visitor.getByTestId('terms-postal-address')).toContainText(street);
  await expect(visitor.locator('#free-entry')).toContainText('Free Postal Entry');
  await expect(visitor.getByText(/held for you for 10 minutes\./)).toBeVisible();
});

test('a postal winner is shown in full to the admin, e-mailed, and named in the orders list', async ({
  browser,
}) => {
  test.setTimeout(90_000); // a draw waits for its beacon round
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const title = unique('Postal Winner Hamper ');
  const surname = unique('Penhaligon');
  const email = `${surname.toLowerCase()}@example.co.uk`;
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'One number, sent by post.',
      ticketPrice: 1.5,
      totalTickets: 1,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const entry = await admin.request.post(`/api/admin/competitions/${id}/postal-entries`, {
    headers: await csrfHeaders(admin.request),
    data: {
      name: `Pat ${surname}`,
      email,
      address: '3 Chapel Street\nPenzance',
      postcode: 'TR18 4AQ',
      receivedAt: new Date().toISOString().slice(0, 10),
      answer: '365',
    },
  });
  expect(entry.status()).toBe(201);
  const ended = await admin.request.put(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin.request),
    data: { status: 'ended' },
  });
  expect(ended.ok()).toBeTruthy();

  // Its only number went by post; the admin draws it.
  await admin.goto(`/admin/competitions/${id}`);
  await expect(admin.getByTestId('draw-state')).toHaveText('Ready to draw', { timeout: 30_000 });
  await admin.getByRole('button', { name: 'Draw now' }).click();
  await admin.getByTestId('draw-dialog').getByRole('button', { name: 'Draw now' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Competition drawn');
  const winner = admin.getByTestId('admin-winner');
  await expect(winner.getByTestId('admin-winner-name')).toHaveText(`Postal entry: Pat ${surname}`);
  await expect(winner).toContainText(email);
  await expect(winner).toContainText('TR18 4AQ');
  // The winner e-mail went to the postcard's address, and the panel says so.
  await expect(async () => {
    await admin.reload();
    const facts = await admin.getByTestId('admin-winner').innerText();
    expect(facts).toMatch(/Winner e-mailed\s+\d/);
  }).toPass({ timeout: 15_000 });

  // The Winners tab names the postcard too.
  await admin.goto('/admin/competitions');
  await admin.getByRole('tab', { name: /^Winners/ }).click();
  await expect(admin.getByTestId('winner-row').filter({ hasText: title })).toContainText(
    `Postal entry: Pat ${surname}`,
  );

  // The orders list names the postcard.
  await admin.goto('/admin/orders');
  await admin.getByLabel('Order number or email').fill(surname);
  await admin.getByLabel('Order number or email').press('Enter');
  const order = admin.getByTestId('order-row');
  await expect(order).toHaveCount(1);
  await expect(order).toContainText(`Postal entry: Pat ${surname}`);
  await expect(order).toContainText('£0.00');

  // On a phone: the winner panel names the postcard in full.
  const phone = { viewport: { width: 390, height: 844 } };
  const adminPhone = await (await browser.newContext(phone)).newPage();
  await signInViaApi(adminPhone.request, 'admin', 'admin123');
  await adminPhone.goto(`/admin/competitions/${id}`);
  await expect(adminPhone.getByTestId('admin-winner-name')).toHaveText(`Postal entry: Pat ${surname}`);
  await expect(adminPhone.getByTestId('admin-winner')).toContainText('TR18 4AQ');

  // /winners names the winner as every winner is named: first name and initial (here on a phone).
  const visitor = await (await browser.newContext(phone)).newPage();
  await visitor.goto('/winners');
  await expect(visitor.getByText(title)).toBeVisible();
  await expect(visitor.getByText('Pat P.').first()).toBeVisible();
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
