import { type APIRequestContext, type Browser, expect, test } from '@playwright/test';
import { csrfHeaders, registerViaApi, signInViaApi } from './support';

// What a crawler, an operator and a customer checking their order see (#16.6, #16.8, #17, #22):
// 404s with the site's own not-found page, a title for every page, the site files, a payment page
// that shows the order's real state (live), and the order history with its printable receipt.

const SITE = 'Westcountry Prizes';
// Several accounts, purchases and page loads per test: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });
const londonDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/London',
  }).format(new Date(iso));

async function openCompetition(api: APIRequestContext) {
  const list: Array<{ id: number; title: string; endDate: string; totalTickets: number }> = await (
    await api.get('/api/competitions')
  ).json();
  return list.filter((c) => c.totalTickets >= 1000)[0] ?? list[0]!;
}

/** Holds a Lucky Dip of two and starts paying: the order is pending. */
async function pendingOrder(api: APIRequestContext, competitionId: number) {
  const headers = await csrfHeaders(api);
  await api.post(`/api/competitions/${competitionId}/skill-answer`, { data: { answer: '365' }, headers });
  expect((await api.post('/api/cart', { data: { competitionId, quantity: 2 }, headers })).status()).toBe(201);
  const intent = await api.post('/api/create-payment-intent', { data: {}, headers });
  expect(intent.ok()).toBeTruthy();
  return (await intent.json()) as { orderId: number; orderNumber: string; clientSecret: string };
}

async function payWithTestCard(api: APIRequestContext, clientSecret: string) {
  const paid = await api.post('/api/payments/sandbox/confirm', {
    data: { clientSecret, cardNumber: '4242424242424242', expMonth: '12', expYear: '34', cvc: '123' },
    headers: await csrfHeaders(api),
  });
  expect(paid.ok()).toBeTruthy();
}

async function newCustomerPage(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  await registerViaApi(page.request, { prefix: 'po' });
  return page;
}

test('unknown pages and missing competitions answer 404 with the site’s not-found page; real pages 200', async ({
  page,
}) => {
  const competition = await openCompetition(page.request);
  const notFound = await page.goto('/no-such-page');
  expect(notFound?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page).toHaveTitle(`404 Page Not Found | ${SITE}`);
  // A missing competition, or an id that cannot be one: the spec's not-found page for competitions.
  for (const path of ['/competitions/999999', '/competitions/abc']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Competition not found' }), path).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to Homepage' }), path).toBeVisible();
    await expect(page, path).toHaveTitle(`Competition not found | ${SITE}`);
    await expect(page.getByText('Something went wrong'), path).toHaveCount(0);
  }
  const res = await page.goto(`/competitions/${competition.id}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: competition.title })).toBeVisible();
});

test('every page has its own title', async ({ page }) => {
  test.setTimeout(150_000); // seventeen page loads
  const competition = await openCompetition(page.request);
  const titles = new Map<string, string>();
  for (const path of [
    '/',
    '/competitions',
    `/competitions/${competition.id}`,
    '/how-to-play',
    '/terms',
    '/privacy',
    '/cookies',
    '/faq',
    '/about',
    '/winners',
    '/cart',
    '/auth',
    '/profile',
    '/my-competitions',
    '/payment-success',
    '/no-such-page',
    '/competitions/999999',
  ]) {
    await page.goto(path);
    // Each page sets its title once it has rendered.
    await expect.poll(() => page.title(), { message: path }).not.toBe(SITE);
    titles.set(path, await page.title());
  }
  expect(titles.get(`/competitions/${competition.id}`)).toBe(`${competition.title} | ${SITE}`);
  const counts = new Map<string, string[]>();
  for (const [path, title] of titles) counts.set(title, [...(counts.get(title) ?? []), path]);
  expect([...counts.values()].filter((paths) => paths.length > 1)).toEqual([]);
});

test('robots.txt, sitemap.xml and favicon.ico are served; no source map is published', async ({
  page,
  baseURL,
}) => {
  const api = page.request;
  const robots = await api.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);

  const competition = await openCompetition(api);
  const sitemap = await api.get('/sitemap.xml');
  expect(sitemap.status()).toBe(200);
  expect(await sitemap.text()).toContain(`<loc>${baseURL}/competitions/${competition.id}</loc>`);

  const favicon = await api.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/icon/);

  const logo = await api.get('/images/logo.svg');
  expect(logo.headers()['cache-control']).toBe('public, max-age=31536000, immutable');

  const html = await (await api.get('/')).text();
  const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeTruthy();
  const bundle = await api.get(script!);
  expect(bundle.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(await bundle.text()).not.toContain('sourceMappingURL');
  expect((await api.get(`${script}.map`)).status()).toBe(404);
});

test('the payment page shows the order’s real state: not a typed URL, pending live to paid with the draw date, nobody else’s', async ({
  browser,
}) => {
  const page = await newCustomerPage(browser);
  const competition = await openCompetition(page.request);

  // A hosted page's return with made-up values claims nothing.
  await page.goto('/payment-success?orderRef=ORDER-123&amount=999999&transactionID=TXN-1');
  await expect(page.getByRole('heading', { name: 'Order Not Found' })).toBeVisible();
  await expect(page.getByText('Payment Successful')).toHaveCount(0);

  const order = await pendingOrder(page.request, competition.id);
  await page.goto(`/payment-success?orderRef=${order.orderNumber}`);
  await expect(page.getByRole('heading', { name: 'Waiting for your payment' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Waiting for your payment to be confirmed' })).toBeVisible();

  // Paid elsewhere (another tab, a webhook): this page follows without a reload.
  await payWithTestCard(page.request, order.clientSecret);
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
  await expect(page.getByTestId('order-number')).toHaveText(order.orderNumber);
  await expect(page.getByTestId('order-numbers')).toHaveText(/Ticket numbers: \d+, \d+/);
  await expect(page.getByTestId('draw-date')).toHaveText(londonDate(competition.endDate));

  // Someone else with the same link sees no order.
  const stranger = await newCustomerPage(browser);
  await stranger.goto(`/payment-success/${order.orderId}`);
  await expect(stranger.getByRole('heading', { name: 'Order Not Found' })).toBeVisible();
  await expect(stranger.getByTestId('order-number')).toHaveCount(0);
});

test('a declined payment says why on the payment page', async ({ browser }) => {
  const page = await newCustomerPage(browser);
  const competition = await openCompetition(page.request);
  const order = await pendingOrder(page.request, competition.id);
  const declined = await page.request.post('/api/payments/sandbox/confirm', {
    data: {
      clientSecret: order.clientSecret,
      cardNumber: '4000000000000002',
      expMonth: '12',
      expYear: '34',
      cvc: '123',
    },
    headers: await csrfHeaders(page.request),
  });
  expect(declined.status()).toBe(402);
  await page.goto(`/payment-success/${order.orderId}`);
  await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
  await expect(page.getByTestId('order-reason')).toHaveText('Your card was declined.');
});

test('My Account lists the orders; each paid one has a printable receipt naming the operator set by the admin', async ({
  browser,
}) => {
  // The admin sets the operator's details on the site settings page.
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  await admin.goto('/admin/site-settings');
  const operator = admin.getByTestId('operator-settings');
  await operator.getByLabel('Operator name').fill('Westcountry Prizes Ltd');
  await operator.getByLabel('Operator address').fill('1 Quay Street\nTruro TR1 2AA');
  await operator.getByRole('button', { name: 'Save operator details' }).click();
  await expect(admin.getByText('Operator details saved')).toBeVisible();

  const page = await newCustomerPage(browser);
  const competition = await openCompetition(page.request);
  const order = await pendingOrder(page.request, competition.id);
  await payWithTestCard(page.request, order.clientSecret);

  await page.goto('/profile');
  const history = page.getByRole('list', { name: 'Your orders' });
  const entry = history.getByTestId('order-history-item').filter({ hasText: order.orderNumber });
  await expect(entry).toContainText('Paid');
  await expect(entry).toContainText(competition.title);
  await expect(entry).toContainText(/numbers \d+, \d+/);
  await expect(entry).toContainText('Visa Credit ••4242');

  await entry.getByRole('link', { name: `Receipt for ${order.orderNumber}` }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${order.orderId}/receipt$`));
  await expect(page).toHaveTitle(`Receipt ${order.orderNumber} | ${SITE}`);
  await expect(page.getByRole('heading', { name: `Receipt ${order.orderNumber}` })).toBeVisible();
  const seller = page.getByTestId('receipt-seller');
  await expect(seller).toContainText('Westcountry Prizes Ltd');
  await expect(seller).toContainText('1 Quay Street');
  await expect(seller).toContainText('Truro TR1 2AA');
  // The promoter's company number (the demo's, or the one promoter.spec.ts saves).
  await expect(seller).toContainText(/Company number \d{8}/);
  await expect(page.getByText('No VAT is charged on competition entries.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print receipt' })).toBeVisible();
});
