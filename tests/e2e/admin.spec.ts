import { type BrowserContext, expect, test } from '@playwright/test';
import { csrfHeaders, entriesGrid, registerViaApi, signInViaApi, unique } from './support';

// The admin back office against the real server: live price edits, the live order feed, cancel,
// ticket lookup, promos and the route guard.

async function adminPage(context: BrowserContext) {
  const page = await context.newPage();
  await signInViaApi(page.request, 'admin', 'admin123');
  return page;
}

test('an admin edits a price in the dialog and an open competition page shows it without a reload', async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const customerContext = await browser.newContext();
  const admin = await adminPage(adminContext);
  const customer = await customerContext.newPage();

  await admin.goto('/admin/competitions');
  await expect(admin.getByRole('heading', { name: 'Manage Competitions' })).toBeVisible();
  await expect(admin.getByRole('tab', { name: /^Live \(\d+\)$/ })).toBeVisible();
  await expect(admin.getByRole('tab', { name: /^Archived \(\d+\)$/ })).toBeVisible();
  await expect(admin.getByRole('tab', { name: /^Ended \(\d+\)$/ })).toBeVisible();
  for (const column of ['Title', 'Price', 'Total Tickets', 'Status', 'End Date', 'Created At', 'Actions'])
    await expect(admin.getByRole('columnheader', { name: column, exact: true })).toBeVisible();

  // Create through the dialog, with the spec's checks first. Archived, so the public lists that
  // other tests count never see it.
  const title = unique('Admin Dialog Prize ');
  await admin.getByRole('button', { name: 'Create Competition' }).click();
  const dialog = admin.getByTestId('competition-dialog');
  await expect(dialog.getByLabel('Category')).toHaveValue('Electronics');
  await expect(dialog.getByLabel('Total Tickets')).toHaveValue('1000');
  await expect(dialog.getByLabel('Status')).toHaveValue('active');
  await expect(dialog.getByLabel(/^Auto-win/)).not.toBeChecked();
  await dialog.getByLabel('Total Tickets').fill('0');
  await dialog.getByLabel('Category').selectOption('');
  await dialog.getByRole('button', { name: 'Create Competition' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByText('Total tickets must be at least 1')).toBeVisible();
  await expect(dialog.getByText('Category is required')).toBeVisible();
  await expect(dialog.getByText('Ticket price must be a positive number')).toBeVisible();
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Ticket Price (£)').fill('2.50');
  await dialog.getByLabel('Total Tickets').fill('50');
  await dialog.getByLabel('Category').selectOption('Cash');
  await dialog.getByLabel('Status').selectOption('archived');
  await dialog.getByLabel('Product Name (optional)').fill('Cash prize');
  await dialog.getByLabel('Features (one per line)').fill('Paid in 24 hours\nNo deductions');
  await dialog.getByRole('button', { name: 'Create Competition' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Competition created');
  await admin.getByRole('tab', { name: /^Archived/ }).click();
  const created = admin.getByTestId('competition-row').filter({ hasText: title });
  await expect(created).toContainText('£2.50');
  await expect(created.getByRole('button', { name: `Export ${title} as CSV` })).toBeVisible();
  // Nothing sold: it can be deleted.
  await created.getByRole('button', { name: `Delete ${title}` }).click();
  await admin.getByTestId('delete-competition-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Competition deleted');
  await expect(created).toHaveCount(0);

  // A live demo competition no other test reads; its price is put back at the end.
  const demo = 'LEGO Mega Builder Collection';
  const { id } = (
    (await (await customer.request.get('/api/competitions')).json()) as Array<{
      id: number;
      title: string;
    }>
  ).find((c) => c.title === demo)!;
  await customer.goto(`/competition/${id}`);
  await expect(customer.getByRole('heading', { name: demo })).toBeVisible();
  await expect(customer.getByText('£0.59 per ticket').first()).toBeVisible();

  await admin.getByRole('tab', { name: /^Live/ }).click();
  const row = admin.getByTestId('competition-row').filter({ hasText: demo });
  await row.getByRole('button', { name: `Edit ${demo}` }).click();
  await expect(dialog.getByRole('heading', { name: 'Edit Competition' })).toBeVisible();
  await expect(dialog.getByLabel('Ticket Price (£)')).toHaveValue('0.59');
  await expect(dialog.getByLabel('Category')).toHaveValue('Toys');
  await dialog.getByLabel('Ticket Price (£)').fill('0.79');
  await dialog.getByRole('button', { name: 'Update Competition' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Competition updated');
  await expect(row).toContainText('£0.79');

  // The customer's page was never reloaded.
  await expect(customer.getByText('£0.79 per ticket').first()).toBeVisible();

  // A competition with sales cannot be deleted, so Delete is not offered (the server refuses it too).
  await expect(row.getByRole('button', { name: `Edit ${demo}` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Delete ${demo}` })).toHaveCount(0);

  await row.getByRole('button', { name: `Edit ${demo}` }).click();
  await dialog.getByLabel('Ticket Price (£)').fill('0.59');
  await dialog.getByRole('button', { name: 'Update Competition' }).click();
  await expect(row).toContainText('£0.59');
  await expect(customer.getByText('£0.59 per ticket').first()).toBeVisible();
  await adminContext.close();
  await customerContext.close();
});

test('a paid order reaches the live dashboard; lookup finds its ticket; cancelling frees the numbers', async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const customerContext = await browser.newContext();
  const admin = await adminPage(adminContext);
  const customer = await customerContext.newPage();
  // A demo competition no other test reads; the cancel at the end puts its numbers back.
  const title = 'Full Set of Golf Clubs';
  const { id } = (
    (await (await customer.request.get('/api/competitions')).json()) as Array<{
      id: number;
      title: string;
    }>
  ).find((c) => c.title === title)!;
  const free = (await (
    await customer.request.get(`/api/competitions/${id}/available-tickets`)
  ).json()) as number[];
  // The lowest free numbers, so they are in view at the top of the grid.
  const picked = free.slice(0, 2);

  await admin.goto('/admin');
  await expect(admin.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  for (const section of [
    'Manage Users',
    'Manage Competitions',
    'Manage Orders',
    'Ticket Lookup',
    'Site Settings',
    'Site Credit Promos',
  ])
    await expect(
      admin
        .getByRole('navigation', { name: 'Admin sections' })
        .getByRole('link', { name: new RegExp(`^${section}`) }),
    ).toBeVisible();
  await expect(admin.getByRole('link', { name: 'Back to Site' })).toBeVisible();
  const orderCount = admin.getByTestId('order-count');
  await expect(orderCount).toHaveText(/^\d[\d,]*$/);
  // Captured payments the reconciler had to settle after a crash or a lost webhook.
  await expect(admin.getByRole('heading', { name: 'Reconciled Payments' })).toBeVisible();
  await expect(admin.getByTestId('reconciled-count')).toHaveText(/^\d[\d,]*$/);

  // The customer buys two Lucky Dip numbers with the sandbox card.
  await registerViaApi(customer.request, { prefix: 'ad' });
  const headers = await csrfHeaders(customer.request);
  await customer.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await customer.request.post('/api/cart', {
    data: { competitionId: id, quantity: 2, selectedNumbers: picked },
    headers,
  });
  expect(held.status()).toBe(201);
  const countBefore = Number((await orderCount.textContent())!.replace(/,/g, ''));
  await customer.goto('/cart');
  await customer.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const pay = customer.getByTestId('checkout-dialog');
  await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.getByLabel('Expiry (MM/YY)').fill('12/34');
  await pay.getByLabel('CVC').fill('123');
  await pay.getByRole('button', { name: 'Pay Now' }).click();
  await expect(customer.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
  const orderNumber = (await customer.getByTestId('order-number').textContent())!;
  const numbers = /Ticket numbers: (.*)$/
    .exec((await customer.getByTestId('order-numbers').textContent())!)![1]!
    .split(', ')
    .map(Number);

  // On the dashboard within a second of the confirmation, paid, with amount and competition.
  const line = admin.getByTestId('feed-order').filter({ hasText: orderNumber });
  await expect(line).toContainText('completed', { timeout: 1000 });
  await expect(line).toContainText(title);
  await expect(line.getByTestId('feed-amount')).toHaveText('£2.98');
  expect(numbers).toEqual(picked);
  expect(Number((await orderCount.textContent())!.replace(/,/g, ''))).toBeGreaterThan(countBefore);

  // Ticket lookup: the sold number, then a free one.
  await admin
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: /^Ticket Lookup/ })
    .click();
  await expect(admin.getByRole('heading', { name: 'Ticket Lookup' })).toBeVisible();
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByText('Please select a competition')).toBeVisible();
  await expect(admin.getByText('Ticket number must be a positive integer')).toBeVisible();
  await admin.getByLabel('Competition').selectOption({ label: title });
  await admin.getByLabel('Ticket number').fill(String(numbers[0]));
  await admin.getByRole('button', { name: 'Search' }).click();
  const result = admin.getByTestId('ticket-result');
  await expect(result.getByRole('heading', { name: `Ticket #${numbers[0]}` })).toBeVisible();
  await expect(result.getByTestId('ticket-order')).toHaveText(orderNumber);
  await expect(result.getByRole('list', { name: 'Ticket history' })).toContainText('Sold');
  await admin.getByLabel('Ticket number').fill(String(free[2]));
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByTestId('ticket-not-found')).toContainText('Ticket not found');
  await expect(
    admin.getByText('No ticket with that number exists for the selected competition.'),
  ).toBeVisible();
  await admin.getByRole('button', { name: 'Clear Results' }).click();
  await expect(admin.getByTestId('ticket-not-found')).toHaveCount(0);

  // The customer watches the grid while the admin cancels the order.
  await customer.goto(`/competition/${id}`);
  const grid = await entriesGrid(customer);
  const cell = (n: number) => grid.locator(`[data-number="${n}"]`);
  // The buyer sees them as their own.
  for (const n of numbers) await expect(cell(n)).toHaveAttribute('data-state', 'yours');

  await admin.goto('/admin/orders');
  await expect(admin.getByRole('heading', { name: 'Order Management' })).toBeVisible();
  await admin.getByLabel('Order number or email').fill(orderNumber);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByTestId('order-row')).toHaveCount(1);
  await admin.getByRole('link', { name: `View ${orderNumber}` }).click();
  await expect(admin.getByRole('heading', { name: `Order ${orderNumber}` })).toBeVisible();
  await expect(admin.getByTestId('admin-order-item')).toContainText(title);
  await expect(admin.getByTestId('payment-reference')).not.toHaveText('None');
  await admin.getByRole('button', { name: 'Cancel Order' }).click();
  await admin
    .getByTestId('cancel-order-dialog')
    .getByLabel(/^Reason/)
    .fill('Cancelled in a browser test');
  await admin.getByTestId('cancel-order-dialog').getByRole('button', { name: 'Cancel Order' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Order Cancelled');
  await expect(admin.getByTestId('admin-order-status')).toHaveText('cancelled');
  await expect(admin.getByRole('list', { name: 'Audit trail' })).toContainText('admin');
  for (const n of numbers) await expect(cell(n)).toHaveAttribute('data-state', 'available');
  await admin.getByRole('link', { name: 'Back to Orders' }).click();
  await expect(admin).toHaveURL(/\/admin\/orders$/);
  await adminContext.close();
  await customerContext.close();
});

test('the admin screens send a customer to / and a visitor to /auth', async ({ browser }) => {
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto('/admin');
  await expect(visitor).toHaveURL(/\/auth$/);
  await visitor.goto('/admin/orders');
  await expect(visitor).toHaveURL(/\/auth$/);

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await signInViaApi(customer.request, 'demo', 'demo1234');
  for (const path of ['/admin', '/admin/competitions', '/admin/ticket-lookup', '/direct-upload-test']) {
    await customer.goto(path);
    await expect(customer).toHaveURL(/\/$/);
  }
  await visitorContext.close();
  await customerContext.close();
});

test('an admin creates a promo and it shows under Active Promos', async ({ browser }) => {
  const context = await browser.newContext();
  const admin = await adminPage(context);
  await admin.goto('/admin/promos');
  await expect(admin.getByRole('heading', { name: 'Site Credit Promos' })).toBeVisible();
  await admin.getByRole('button', { name: 'Create Promo' }).click();
  const dialog = admin.getByTestId('promo-dialog');
  await expect(dialog.getByLabel('Max Uses Per User')).toHaveValue('1');
  await expect(dialog.getByLabel('Total Max Uses')).toHaveValue('1000');
  await expect(dialog.getByLabel('Credit Amount (£)')).toHaveAttribute('placeholder', '5.00');
  await expect(dialog.getByLabel('Active')).toBeChecked();
  await dialog.getByRole('button', { name: 'Create Promo' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  const name = unique('Spring Boost ');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Credit Amount (£)').fill('2.50');
  await dialog.getByLabel('Target Users').selectOption('all');
  // Not applied automatically: a test promo must not credit other tests' new accounts.
  await dialog.getByLabel(/Apply automatically/).uncheck();
  await dialog.getByRole('button', { name: 'Create Promo' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Promo created successfully');
  await expect(admin.getByRole('tab', { name: 'Active Promos' })).toHaveAttribute('aria-selected', 'true');
  const row = admin
    .getByRole('table', { name: 'Active Promos' })
    .getByTestId('promo-row')
    .filter({ hasText: name });
  await expect(row).toContainText('£2.50');
  await expect(row).toContainText('All users');

  // Reset All Credits asks first; cancelling changes nothing.
  await admin.getByRole('button', { name: 'Reset All Credits' }).click();
  const confirm = admin.getByTestId('reset-credits-dialog');
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).not.toBeVisible();

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await admin.getByRole('dialog', { name: 'Delete Promo' }).getByRole('button', { name: 'Delete' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Promo deleted successfully');
  await context.close();
});

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`the dashboard and the competition dialog fit a ${size.name}`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ viewport: size.viewport });
    const admin = await adminPage(context);
    await admin.goto('/admin');
    await expect(admin.getByTestId('order-count')).toBeVisible();
    const scrollsSideways = () =>
      admin.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    expect(await scrollsSideways()).toBe(false);
    await admin.screenshot({ path: testInfo.outputPath(`dashboard-${size.name}.png`), fullPage: true });
    await admin.goto('/admin/competitions');
    await expect(admin.getByTestId('competition-row').first()).toBeVisible();
    expect(await scrollsSideways()).toBe(false);
    await admin.screenshot({ path: testInfo.outputPath(`competitions-${size.name}.png`) });
    await admin
      .getByTestId('competition-row')
      .first()
      .getByRole('button', { name: /^Edit / })
      .click();
    await expect(admin.getByTestId('competition-dialog').getByLabel('Title')).not.toHaveValue('');
    await admin.screenshot({ path: testInfo.outputPath(`competition-dialog-${size.name}.png`) });
    await context.close();
  });
}

// A real 1x1 PNG: the server recognises images by their bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test('site settings: a hero image is uploaded, shown and reset; the direct upload page shows the stored URL', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const admin = await adminPage(context);
  await admin.goto('/admin/site-settings');
  const preview = admin.getByTestId('hero-preview');
  await expect(preview).toBeVisible();
  await admin
    .getByLabel('New hero image')
    .setInputFiles({ name: 'hero.png', mimeType: 'image/png', buffer: PNG });
  await admin.getByRole('button', { name: 'Upload Hero Image' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Hero image updated');
  await expect(preview).toHaveAttribute('src', /^\/uploads\/.+\.png$/);

  await admin.getByRole('button', { name: 'Reset to Default' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Hero image deleted (reset to default)');
  await expect(admin.getByRole('button', { name: 'Reset to Default' })).toHaveCount(0);
  await expect(preview).not.toHaveAttribute('src', /^\/uploads\//);

  // Not an image, whatever its name says: the server refuses it and the page says so.
  await admin.goto('/direct-upload-test');
  await admin
    .getByLabel('Image')
    .setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('<html></html>') });
  await admin.getByRole('button', { name: 'Upload' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Upload failed');
  await expect(admin.getByTestId('uploaded-url')).toHaveCount(0);

  await admin.getByLabel('Image').setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: PNG });
  await admin.getByRole('button', { name: 'Upload' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Image uploaded');
  await expect(admin.getByTestId('uploaded-url')).toContainText(/\/uploads\/.+\.png/);
  await context.close();
});
