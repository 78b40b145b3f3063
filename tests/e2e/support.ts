import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page, request } from '@playwright/test';
import { emailsTo, linkToken, waitForEmail } from '../support/accounts';

/** The id of a demo competition by its title. */
export async function competitionId(api: APIRequestContext, title: string): Promise<number> {
  const list: Array<{ id: number; title: string }> = await (await api.get('/api/competitions')).json();
  const found = list.find((c) => c.title === title);
  if (!found) throw new Error(`No demo competition titled ${title}`);
  return found.id;
}

/** A visitor acting only through the API (its own cookies), with the skill question answered. */
export async function apiVisitor(baseURL: string, id: number) {
  const api = await request.newContext({ baseURL });
  const { csrfToken } = await (await api.get('/api/csrf-token')).json();
  const headers = { 'X-CSRF-Token': csrfToken };
  await api.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const hold = (selectedNumbers: number[]) =>
    api.post('/api/cart', {
      data: { competitionId: id, quantity: selectedNumbers.length, selectedNumbers },
      headers,
    });
  return { api, headers, hold };
}

/** Answers the open skill question correctly and waits for the modal to move on. */
export async function answerSkillQuestion(page: Page) {
  const dialog = page.getByTestId('skill-dialog');
  await dialog.getByLabel('365').check();
  await dialog.getByRole('button', { name: 'Submit Answer' }).click();
  await expect(dialog.getByText('Correct! Proceeding...')).toBeVisible();
}

/**
 * A competition page's entries grid, scrolled into view: its rows render only once it is near the
 * viewport (VirtualNumberGrid), and it sits below the fold.
 */
export async function entriesGrid(page: Page): Promise<Locator> {
  const grid = page.getByTestId('entries-grid');
  await grid.scrollIntoViewIfNeeded();
  return grid;
}

/**
 * Opens 'Select Lucky Numbers' (answering the question, unless this session passed it before: then
 * it is not asked again) and returns the selector dialog.
 */
export async function openSelector(page: Page) {
  await page.getByRole('button', { name: 'Select Lucky Numbers' }).click();
  const selector = page.getByTestId('number-selector');
  const heading = selector.getByRole('heading', { name: 'Select Your Lucky Numbers' });
  const question = page.getByTestId('skill-dialog').getByLabel('365');
  await expect(heading.or(question)).toBeVisible();
  if (await question.isVisible()) await answerSkillQuestion(page);
  await expect(heading).toBeVisible();
  await expect(selector.getByTestId('selector-grid')).toBeVisible();
  return selector;
}

/** The numbers of the first `count` available cells in view of a grid. */
export async function firstAvailable(page: Page, testId: string, count: number): Promise<number[]> {
  const cells = page.getByTestId(testId).locator('[data-state="available"]');
  await expect(cells.nth(count - 1)).toBeVisible();
  const numbers: number[] = [];
  for (let i = 0; i < count; i++) numbers.push(Number(await cells.nth(i).getAttribute('data-number')));
  return numbers;
}

export const domNodeCount = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

/** A name no other test run uses: prefix + time + a random suffix. */
export const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** The CSRF header for this request context's session (fetching the token starts one). */
export async function csrfHeaders(api: APIRequestContext) {
  const { csrfToken } = await (await api.get('/api/csrf-token')).json();
  return { 'X-CSRF-Token': csrfToken as string };
}

/** Signs this request context (and a page sharing its cookies) in through the API. */
export async function signInViaApi(api: APIRequestContext, username: string, password: string) {
  const res = await api.post('/api/login', { headers: await csrfHeaders(api), data: { username, password } });
  expect(res.ok()).toBeTruthy();
}

/** Registers a new customer through the API, which signs the context in; returns the username. */
export async function registerViaApi(
  api: APIRequestContext,
  { prefix = 'e2e', firstName = 'Jory', lastName = 'Pascoe' } = {},
): Promise<string> {
  const username = unique(prefix);
  const res = await api.post('/api/register', {
    headers: await csrfHeaders(api),
    data: {
      username,
      email: `${username}@example.co.uk`,
      password: 'kernow123',
      firstName,
      lastName,
      phoneNumber: '07700 900789',
      dateOfBirth: '1990-04-01',
      ageConfirmation: true,
      ukResidency: true,
      termsAgreement: true,
    },
  });
  expect(res.status()).toBe(201);
  return username;
}

/**
 * A new customer (Jory P.) who buys `numbers` (or a Lucky Dip of that many) with the sandbox card,
 * all through the API; returns the username.
 */
export async function buyAsNewCustomer(
  api: APIRequestContext,
  competitionId: number,
  numbers: number[] | number,
  prefix = 'dr',
) {
  const username = await registerViaApi(api, { prefix });
  // Registering signs in, which renews the token.
  const headers = await csrfHeaders(api);
  await api.post(`/api/competitions/${competitionId}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await api.post('/api/cart', {
    data: Array.isArray(numbers)
      ? { competitionId, quantity: numbers.length, selectedNumbers: numbers }
      : { competitionId, quantity: numbers },
    headers,
  });
  expect(held.status()).toBe(201);
  const intent = await api.post('/api/create-payment-intent', { data: {}, headers });
  expect(intent.ok()).toBeTruthy();
  const { clientSecret } = await intent.json();
  const paid = await api.post('/api/payments/sandbox/confirm', {
    data: { clientSecret, cardNumber: '4242424242424242', expMonth: '12', expYear: '34', cvc: '123' },
    headers,
  });
  expect(paid.ok()).toBeTruthy();
  return username;
}

/** Fills the registration form (the /auth page's Register tab) with valid details. */
export async function fillRegistration(page: Page, username: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.co.uk`);
  await page.getByLabel('First name (optional)').fill('Tamsin');
  await page.getByLabel('Last name (optional)').fill('Rowe');
  await page.getByLabel('Phone number').fill('07700 900456');
  await page.getByLabel('Date of birth').fill('1988-09-14');
  await page.getByLabel('Password', { exact: true }).fill('kernow123');
  await page.getByLabel('Confirm password').fill('kernow123');
  await page.getByLabel('I confirm that I am 18 years of age or over').check();
  await page.getByLabel('I confirm that I am a UK resident').check();
  await page.getByLabel(/I agree to the Terms and Conditions/).check();
}

/** Fills the sandbox card form of the 'Complete Your Purchase' dialog and presses 'Pay Now'. */
export async function payWithCard(dialog: Locator, cardNumber: string) {
  await dialog.getByLabel('Card number').fill(cardNumber);
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Pay Now' }).click();
}

/** The served site's DATA_DIR (playwright.config.ts): its outbox holds the e-mails it sent. */
export const e2eDataDir = path.join(os.tmpdir(), `wcp-e2e-${Number(process.env.E2E_PORT ?? 3100)}`);

/** The site path of the latest link to `page` (/reset-password, /verify-email) e-mailed to `email`. */
export async function linkFromOutbox(email: string, page: '/reset-password' | '/verify-email', count = 1) {
  await waitForEmail(e2eDataDir, email, `${page}?token=`, count);
  const latest = emailsTo(e2eDataDir, email)
    .filter((m) => m.includes(`${page}?token=`))
    .at(-1)!;
  return `${page}?token=${linkToken(latest, page)}`;
}

/** Confirms the address through its e-mailed link, as the customer would (welcome credit paid). */
export async function confirmEmailViaApi(api: APIRequestContext, email: string) {
  const token = new URLSearchParams((await linkFromOutbox(email, '/verify-email')).split('?')[1]).get(
    'token',
  );
  const res = await api.post('/api/verify-email', { headers: await csrfHeaders(api), data: { token } });
  expect(res.status()).toBe(200);
}

/**
 * Resolves once a WebSocket of `page` has had the server's `clock`, the first event on every
 * connection (realtime/watch.ts), so the page's socket is connected and in its rooms. Call it
 * before the page loads.
 */
export function socketConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).startsWith('42["clock"')) resolve();
      });
    });
  });
}

/**
 * A competition of the test's own, made by the admin over the API, so holds and sales in it touch
 * no demo competition other specs count on. Answers its id and the admin's request context.
 */
export async function ownCompetition(baseURL: string, overrides: Record<string, unknown> = {}) {
  const admin = await request.newContext({ baseURL });
  await signInViaApi(admin, 'admin', 'admin123');
  const created = await admin.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin),
    data: {
      title: unique('Spec Prize '),
      description: 'A prize of this test alone.',
      ticketPrice: 1,
      totalTickets: 60,
      endDate: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      details: { category: 'Cash' },
      ...overrides,
    },
  });
  expect(created.status()).toBe(201);
  const { id, title } = (await created.json()) as { id: number; title: string };
  return { id, title, admin };
}
