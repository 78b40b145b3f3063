import { type Browser, expect, type Page, test } from '@playwright/test';
import { buyAsNewCustomer, csrfHeaders, signInViaApi, unique } from './support';

// The back office finish (issue 39 §10), on a desktop and a phone: the admin navigation on every
// admin page, the customer view (search, credit adjustment, note), cancelling with a reason and a
// refund as site credit, the CSV links, plain labels, and no Delete for a competition with sales.

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
] as const;

const ADMIN_PAGES = [
  '/admin',
  '/admin/competitions',
  '/admin/orders',
  '/admin/users',
  '/admin/ticket-lookup',
  '/admin/site-settings',
  '/direct-site-settings',
  '/direct-upload-test',
  '/admin/promos',
  '/admin/emails',
  '/admin/campaigns',
  '/admin/complaints',
  '/admin/harm-report',
];

async function adminPage(browser: Browser, size: (typeof SIZES)[number]) {
  const context = await browser.newContext({
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.hasTouch,
  });
  const page = await context.newPage();
  await signInViaApi(page.request, 'admin', 'admin123');
  return page;
}

/** A competition on sale with one customer's order of three numbers; its id, the buyer and title. */
async function soldCompetition(browser: Browser, admin: Page) {
  const title = unique('Back Office Prize ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'A Cornish hamper.',
      ticketPrice: 1.5,
      totalTickets: 30,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const customer = await browser.newContext();
  const username = await buyAsNewCustomer(customer.request, id, [4, 9, 12], 'bo');
  await customer.close();
  return { id, title, username };
}

const noSideScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

for (const size of SIZES) {
  test.describe(`back office on a ${size.name}`, () => {
    test('the admin navigation is on every admin page, with the current section marked', async ({
      browser,
    }) => {
      const admin = await adminPage(browser, size);
      for (const path of ADMIN_PAGES) {
        await admin.goto(path);
        const nav = admin.getByRole('navigation', { name: 'Back office' });
        await expect(nav, path).toBeVisible();
        await expect(nav.locator('[aria-current="page"]'), path).toHaveCount(1);
        expect(await noSideScroll(admin), `${path} scrolls sideways`).toBe(true);
      }
      await admin.goto('/admin/orders');
      await admin
        .getByRole('navigation', { name: 'Back office' })
        .getByRole('link', { name: 'Customers' })
        .click();
      await expect(admin).toHaveURL(/\/admin\/users$/);
      await expect(admin.getByRole('heading', { name: 'Manage Users' })).toBeVisible();
      await admin.context().close();
    });

    test('customer view: search, credit adjustment, a note; refund one ticket; cancel with a reason as site credit', async ({
      browser,
    }) => {
      const admin = await adminPage(browser, size);
      const { title, username } = await soldCompetition(browser, admin);

      await admin.goto('/admin/users');
      await admin.getByLabel('Find a customer').fill(username);
      await admin.getByRole('button', { name: 'Search' }).click();
      await expect(admin.getByTestId('user-row')).toHaveCount(1);
      expect(await noSideScroll(admin)).toBe(true);
      await admin.getByRole('link', { name: `View ${username}` }).click();
      await expect(admin.getByRole('heading', { name: `Customer ${username}` })).toBeVisible();
      await expect(admin.getByRole('heading', { name: 'Protection settings' })).toBeVisible();
      await expect(admin.getByTestId('customer-order')).toHaveCount(1);
      await expect(admin.getByRole('table', { name: 'Entries' })).toContainText('4, 9, 12');

      await admin.getByLabel(/^Amount/).fill('2.50');
      await admin.getByLabel(/^Reason \(kept in the ledger\)/).fill('Goodwill for a late parcel');
      await admin.getByRole('button', { name: 'Adjust Credit' }).click();
      await expect(admin.getByTestId('toast').filter({ hasText: 'Credit adjusted' })).toBeVisible();
      await expect(admin.getByTestId('customer-credit')).toHaveText('£2.50');
      await expect(admin.getByTestId('ledger-row').first()).toContainText(
        'Adjusted by admin: Goodwill for a late parcel',
      );

      await admin.getByLabel('New note').fill('Rang about the parcel.');
      await admin.getByRole('button', { name: 'Add Note' }).click();
      await expect(admin.getByTestId('customer-notes')).toContainText('Rang about the parcel.');
      await expect(admin.getByTestId('customer-notes')).toContainText('admin');

      // Refund one ticket of the order to the card, then cancel the rest as site credit.
      await admin.getByTestId('customer-order').getByRole('link').first().click();
      await expect(admin.getByTestId('admin-order-item')).toContainText(title);
      await admin.getByRole('button', { name: 'Refund Tickets' }).click();
      const refund = admin.getByTestId('refund-tickets-dialog');
      await refund.getByLabel('9', { exact: true }).check();
      await refund.getByLabel('Reason').fill('Bought by mistake');
      await refund.getByRole('button', { name: 'Refund £1.50' }).click();
      await expect(admin.getByTestId('toast').filter({ hasText: 'Tickets refunded' })).toContainText(
        '1 ticket(s) (9)',
      );
      await admin.getByRole('button', { name: 'Cancel Order' }).click();
      const dialog = admin.getByTestId('cancel-order-dialog');
      await dialog.getByRole('button', { name: 'Cancel Order' }).click();
      await expect(dialog.getByText(/Give a reason/)).toBeVisible();
      await dialog.getByLabel(/^Reason/).fill('The prize was withdrawn');
      await dialog.getByLabel('Site credit').check();
      await dialog.getByRole('button', { name: 'Cancel Order' }).click();
      await expect(admin.getByTestId('toast').filter({ hasText: 'Order Cancelled' })).toBeVisible();
      await expect(admin.getByTestId('admin-order-status')).toHaveText('cancelled');
      await expect(admin.getByTestId('cancellation-reason')).toHaveText('The prize was withdrawn');
      await admin.goBack();
      // £2.50 adjusted, plus the £3.00 card payment left of the order (ticket 9 went back to the card).
      await expect(admin.getByTestId('customer-credit')).toHaveText('£5.50');
      await admin.context().close();
    });

    test('CSV links, plain labels, and no Delete for a competition with sales', async ({ browser }) => {
      const admin = await adminPage(browser, size);
      const { title } = await soldCompetition(browser, admin);

      await admin.goto('/admin/orders');
      const orders = admin.getByRole('link', { name: 'Orders CSV' });
      await expect(orders).toHaveAttribute('href', '/api/admin/export/orders.csv');
      const ordersCsv = await admin.request.get('/api/admin/export/orders.csv');
      expect(ordersCsv.headers()['content-type']).toContain('text/csv');
      await admin.goto('/admin/competitions');
      const live = admin.getByRole('link', { name: 'Live competitions CSV' });
      await expect(live).toHaveAttribute('href', '/api/admin/export/live-competitions.csv');
      expect(await (await admin.request.get('/api/admin/export/live-competitions.csv')).text()).toContain(
        title,
      );

      const row = admin.getByTestId('competition-row').filter({ hasText: title });
      await expect(row.getByRole('button', { name: `Edit ${title}` })).toBeVisible();
      await expect(row.getByRole('button', { name: `Delete ${title}` })).toHaveCount(0);

      for (const path of ['/admin/site-settings', '/direct-site-settings', '/direct-upload-test']) {
        await admin.goto(path);
        await expect(admin.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(admin.locator('main'), path).not.toContainText(/Direct (Upload|Site Settings|Login)/);
      }
      await admin.context().close();

      const visitor = await browser.newPage({ viewport: size.viewport });
      await visitor.goto('/admin-login');
      await expect(visitor.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
      await expect(visitor.getByRole('button', { name: /Direct Login|Context Login/ })).toHaveCount(0);
      await visitor.context().close();
    });
  });
}
