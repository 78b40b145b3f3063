import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { DATE_OF_BIRTH_REQUIRED_MESSAGE } from '../../contract/age';
import { ERROR_CODES } from '../../contract/errors';
import type { AdminPagePath, CustomerPagePath } from '../../contract/routes';
import { AXE_TAGS, expectNoAxeViolations, formatViolations } from './axe';
import {
  competitionId,
  csrfHeaders,
  entriesGrid,
  firstAvailable,
  openSelector,
  registerViaApi,
  signInViaApi,
} from './support';

// Issue 20: axe-core (WCAG 2.x A/AA and best practices) finds nothing on any page of the shared
// route table or on any dialog. One test per group, each reusing one signed-in context; every
// page is checked even after a failure (soft), so one run lists everything to fix.

// Generous: axe takes several seconds a page on this shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

const COMPETITION = 'Rolex Submariner Watch';

/** Opens a path and waits for its page to have rendered (its h1 and no loading spinner). */
async function settle(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
}

async function check(page: Page, path: string, name = path) {
  await settle(page, path);
  await expectNoAxeViolations(page, name);
}

/** A signed-in customer with one paid order (and nothing held): returns the page and the order id. */
async function customerWithOrder(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  await registerViaApi(page.request, { prefix: 'axe' });
  const id = await competitionId(page.request, COMPETITION);
  const headers = await csrfHeaders(page.request);
  await page.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  expect(
    (await page.request.post('/api/cart', { data: { competitionId: id, quantity: 1 }, headers })).status(),
  ).toBe(201);
  const intent = await page.request.post('/api/create-payment-intent', { data: {}, headers });
  expect(intent.ok()).toBeTruthy();
  const { orderId, clientSecret } = (await intent.json()) as { orderId: number; clientSecret: string };
  const paid = await page.request.post('/api/payments/sandbox/confirm', {
    data: { clientSecret, cardNumber: '4242424242424242', expMonth: '12', expYear: '34', cvc: '123' },
    headers,
  });
  expect(paid.ok()).toBeTruthy();
  return { page, orderId, competitionId: id };
}

type Ids = { competition: number; order: number };
type Group = 'shop' | 'account' | 'information' | 'signed in';

/**
 * Every customer page of the shared route table, with the paths opened to check it. The type
 * makes a page added to contract/routes.ts fail to compile until it is checked here.
 */
const CUSTOMER_PAGES: Record<CustomerPagePath, { group: Group; open: (ids: Ids) => string[] }> = {
  '/': { group: 'shop', open: () => ['/'] },
  '/competitions': { group: 'shop', open: () => ['/competitions'] },
  '/competition/:id': { group: 'shop', open: (ids) => [`/competition/${ids.competition}`] },
  '/competitions/:id': { group: 'shop', open: (ids) => [`/competitions/${ids.competition}`] },
  '/competitions/:id/draw': { group: 'shop', open: (ids) => [`/competitions/${ids.competition}/draw`] },
  '/winners': { group: 'shop', open: () => ['/winners'] },
  '/cart': { group: 'shop', open: () => ['/cart'] },
  '/how-to-play': { group: 'information', open: () => ['/how-to-play'] },
  '/terms': { group: 'information', open: () => ['/terms'] },
  '/privacy': { group: 'information', open: () => ['/privacy'] },
  '/cookies': { group: 'information', open: () => ['/cookies'] },
  '/faq': { group: 'information', open: () => ['/faq'] },
  '/about': { group: 'information', open: () => ['/about'] },
  '/checkout': { group: 'account', open: () => ['/checkout', '/checkout?canceled=true'] },
  '/auth': { group: 'account', open: () => ['/auth', '/auth?tab=register'] },
  '/reset-password': { group: 'account', open: () => ['/reset-password?token=not-a-real-token'] },
  '/verify-email': { group: 'account', open: () => ['/verify-email?token=not-a-real-token'] },
  '/two-factor-not-me': { group: 'account', open: () => ['/two-factor-not-me?token=not-a-real-token'] },
  '/admin-login': { group: 'account', open: () => ['/admin-login'] },
  // Needing a signed-in customer with an order.
  '/confirmation/:orderId': { group: 'signed in', open: (ids) => [`/confirmation/${ids.order}`] },
  '/payment-success/:orderId': { group: 'signed in', open: (ids) => [`/payment-success/${ids.order}`] },
  '/payment-success': { group: 'signed in', open: () => ['/payment-success'] },
  '/my-competitions': { group: 'signed in', open: () => ['/my-competitions'] },
  '/my-tickets': { group: 'signed in', open: () => ['/my-tickets'] },
  '/profile': { group: 'signed in', open: () => ['/profile'] },
  // Another's or a missing claim (the form itself is checked in claims.spec.ts).
  '/claims/:id': { group: 'signed in', open: () => ['/claims/999999'] },
  '/orders/:orderId/receipt': { group: 'signed in', open: (ids) => [`/orders/${ids.order}/receipt`] },
};

/** The paths to open for one group of customer pages. */
const customerPaths = (group: Group, ids: Ids) =>
  Object.values(CUSTOMER_PAGES)
    .filter((page) => page.group === group)
    .flatMap((page) => page.open(ids));

/** Every back-office screen of the route table (the type, as above, keeps it complete). */
const ADMIN_PAGES: Record<AdminPagePath, (ids: Ids) => string> = {
  '/admin': () => '/admin',
  '/admin/competitions': () => '/admin/competitions',
  '/admin/competitions/:id': (ids) => `/admin/competitions/${ids.competition}`,
  '/admin/orders': () => '/admin/orders',
  '/admin/orders/:id': (ids) => `/admin/orders/${ids.order}`,
  '/admin/users': () => '/admin/users',
  // The first account (the seeded admin) stands in for a customer: the view is the same.
  '/admin/users/:id': () => '/admin/users/1',
  '/admin/ticket-lookup': () => '/admin/ticket-lookup',
  '/admin/site-settings': () => '/admin/site-settings',
  '/direct-site-settings': () => '/direct-site-settings',
  '/direct-upload-test': () => '/direct-upload-test',
  '/admin/promos': () => '/admin/promos',
  '/admin/emails': () => '/admin/emails',
  '/admin/campaigns': () => '/admin/campaigns',
  '/admin/complaints': () => '/admin/complaints',
  '/admin/harm-report': () => '/admin/harm-report',
};

test('the check reports a violation with its rule, impact and element', async ({ page }) => {
  // A page with two known faults: an image without alt text, a button without a name.
  await page.setContent(
    '<html lang="en"><title>t</title><main><h1>t</h1><img src="data:," id="photo">' +
      '<button id="icon" type="button"></button></main></html>',
  );
  const { violations } = await new AxeBuilder({ page }).withTags([...AXE_TAGS]).analyze();
  const lines = formatViolations(violations);
  expect(lines).toContainEqual(expect.stringMatching(/^\[image-alt\] \(critical\) #photo: /));
  expect(lines).toContainEqual(expect.stringMatching(/^\[button-name\] \(critical\) #icon: /));
});

test('shop pages, as a visitor', async ({ page }) => {
  const id = await competitionId(page.request, COMPETITION);
  for (const path of customerPaths('shop', { competition: id, order: 0 })) await check(page, path);
  // The entries grid at its largest (issue 20 found it scrollable with no keyboard access).
  const mega = await competitionId(page.request, '65" OLED 4K Television Mega Draw');
  await check(page, `/competition/${mega}`, 'the 100,000-number competition');
  await check(page, '/no-such-page', 'the not-found page');
  await check(page, '/competitions/999999', 'a missing competition');
});

test('sign-in, account and checkout pages, as a visitor', async ({ page }) => {
  for (const path of customerPaths('account', { competition: 0, order: 0 })) await check(page, path);
});

test('information pages, as a visitor', async ({ page }) => {
  for (const path of customerPaths('information', { competition: 0, order: 0 })) await check(page, path);
});

test('customer pages and dialogs, signed in', async ({ browser }) => {
  const { page, orderId, competitionId: id } = await customerWithOrder(browser);
  for (const path of customerPaths('signed in', { competition: id, order: orderId })) await check(page, path);

  // The competition page with the skill question answered and the number selector open.
  await settle(page, `/competition/${id}`);
  await expect(await entriesGrid(page)).toBeVisible();
  const selector = await openSelector(page);
  await expectNoAxeViolations(page, 'the number selector');
  await selector.getByRole('slider', { name: 'Number of tickets' }).fill('2');
  for (const n of await firstAvailable(page, 'selector-grid', 2))
    await selector.locator(`[data-number="${n}"]`).click();
  await expect(selector.getByText('Selected 2 of 2')).toBeVisible();
  await expectNoAxeViolations(page, 'the number selector with 2 picked');
  await selector.getByRole('button', { name: 'Confirm Selection' }).click();
  const added = page.getByTestId('added-dialog');
  await expect(added).toBeVisible();
  await expectNoAxeViolations(page, "the 'added to cart' dialog");
  await added.getByRole('button', { name: 'View Cart' }).click();

  // The cart with an item, its header dropdown, and the payment dialog.
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-item').first()).toBeVisible();
  await expectNoAxeViolations(page, 'the cart with an item');
  await page.getByRole('button', { name: /^Cart, / }).click();
  await expect(page.getByTestId('cart-dropdown')).toBeVisible();
  await expectNoAxeViolations(page, 'the cart dropdown');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const payment = page.getByTestId('checkout-dialog');
  await expect(payment.getByRole('heading', { name: 'Complete Your Purchase' })).toBeVisible();
  await expectNoAxeViolations(page, 'the payment dialog');
  // The account menu.
  await page.keyboard.press('Escape');
  await expect(payment).toBeHidden();
  await page.getByRole('button', { name: /My Account/ }).click();
  await expect(page.getByRole('menu', { name: 'My Account' })).toBeVisible();
  await expectNoAxeViolations(page, 'the account menu');
  await page.keyboard.press('Escape');

  // The date-of-birth dialog opens on the server's 'date of birth required' answer, which only an
  // account without one gets (the configured admin on a fresh database; every customer registers
  // with one): the browser gives that answer here, to show the dialog.
  await page.route('**/api/create-payment-intent', (route) =>
    route.fulfill({
      status: 403,
      json: { code: ERROR_CODES.dateOfBirthRequired, message: DATE_OF_BIRTH_REQUIRED_MESSAGE },
    }),
  );
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dateOfBirth = page.getByTestId('date-of-birth-dialog');
  await expect(dateOfBirth.getByLabel(/date of birth/i)).toBeVisible();
  await expectNoAxeViolations(page, 'the date-of-birth dialog');
});

test('checkout sign-in dialogs, as a guest with an item in the cart', async ({ page }) => {
  const id = await competitionId(page.request, COMPETITION);
  const headers = await csrfHeaders(page.request);
  await page.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  expect(
    (await page.request.post('/api/cart', { data: { competitionId: id, quantity: 1 }, headers })).status(),
  ).toBe(201);
  await settle(page, '/cart');
  await expectNoAxeViolations(page, "a guest's cart");
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const login = page.getByRole('dialog', { name: 'Login Required' });
  await expect(login.getByText('Please log in to continue with checkout.')).toBeVisible();
  await expectNoAxeViolations(page, "the checkout 'Login Required' dialog");
  await login.getByRole('button', { name: 'Create New Account' }).click();
  const register = page.getByTestId('checkout-register-dialog');
  await expect(register.getByRole('heading', { name: 'Create Account to Complete Purchase' })).toBeVisible();
  await expectNoAxeViolations(page, 'the checkout registration dialog');
  // With the form's errors showing.
  await register.getByRole('button', { name: 'Create Account & Go to Cart' }).click();
  await expect(register.getByText('First name is required')).toBeVisible();
  await expectNoAxeViolations(page, 'the checkout registration dialog with errors');
});

test('the mobile menu on a phone', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await check(page, '/', 'the home page on a phone');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.locator('#mobile-menu')).toBeVisible();
  await expectNoAxeViolations(page, 'the mobile menu');
});

test('back office pages and dialogs, as the demo admin', async ({ browser }) => {
  const { orderId, competitionId: id } = await customerWithOrder(browser);
  const page = await (await browser.newContext()).newPage();
  await signInViaApi(page.request, 'admin', 'admin123');
  for (const path of Object.values(ADMIN_PAGES)) await check(page, path({ competition: id, order: orderId }));

  // The competition form dialog, empty and with its errors showing.
  await settle(page, '/admin/competitions');
  await page.getByRole('button', { name: 'Create Competition' }).click();
  const form = page.getByTestId('competition-dialog');
  await expect(form).toBeVisible();
  await expectNoAxeViolations(page, 'the competition form dialog');
  await form.getByLabel('Total Tickets').fill('0');
  await form.getByRole('button', { name: 'Create Competition' }).click();
  await expect(form.getByText('Title is required')).toBeVisible();
  await expectNoAxeViolations(page, 'the competition form dialog with errors');
});
