import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiVisitor, competitionId, entriesGrid } from './support';

// Its own server (the built site from the main run) with the shortest allowed hold, so a
// reservation really expires and the sweeper really releases it.
const port = Number(process.env.E2E_PORT ?? 3100) + 1;
const baseURL = `http://localhost:${port}`;
let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  // Starting, migrating and seeding a second server takes longer than a test on a loaded machine.
  test.setTimeout(90_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-e2e-expiry-'));
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      RESERVATION_TTL_SECONDS: '10',
      SWEEP_INTERVAL_MS: '1000',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Polled every 100 ms until it answers, for up to 85 s.
  const until = Date.now() + 85_000;
  while (Date.now() < until) {
    const up = await fetch(`${baseURL}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the short-hold server did not start');
});

test.afterAll(async () => {
  server?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("the cart countdown reaches 'Expired', the item leaves with a toast naming its numbers, a watcher sees them come back, and one click holds them again", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const holder = await browser.newContext({ baseURL });
  const watcher = await browser.newContext({ baseURL });
  const page = await holder.newPage();
  const watching = await watcher.newPage();
  const id = await competitionId(page.request, 'Carbon Road Bike');
  const free: number[] = await (await page.request.get(`/api/competitions/${id}/available-tickets`)).json();
  const numbers = free.slice(0, 2);

  await watching.goto(`/competition/${id}`);
  const grid = await entriesGrid(watching);
  const cell = (n: number) => grid.locator(`[data-number="${n}"]`);
  await expect(cell(numbers[0]!)).toHaveAttribute('data-state', 'available');

  // The holder's page and its API calls share cookies: hold through the API, then open the cart.
  // Wait for the page's own first CSRF call, which starts the session, so both share one session.
  await Promise.all([page.waitForResponse('**/api/csrf-token'), page.goto('/')]);
  const csrf = (await (await page.request.get('/api/csrf-token')).json()).csrfToken;
  const headers = { 'X-CSRF-Token': csrf };
  await page.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await page.request.post('/api/cart', {
    data: { competitionId: id, quantity: 2, selectedNumbers: numbers },
    headers,
  });
  expect(held.status()).toBe(201);
  for (const n of numbers) await expect(cell(n)).toHaveAttribute('data-state', 'reserved');

  await page.goto('/cart');
  const timer = page.getByTestId('reservation-timer');
  await expect(timer).toHaveText(/^Reserved for 0:(0\d|10)$/);
  // 'Expired' shows until the sweeper's next pass removes the item: check every frame.
  await page.waitForFunction(
    () => document.querySelector('[data-testid="reservation-timer"]')?.textContent === 'Expired',
    null,
    { polling: 'raf', timeout: 15_000 },
  );
  await expect(page.getByTestId('toast')).toContainText(
    'Your reserved tickets for Carbon Road Bike were released.',
    {
      timeout: 5000,
    },
  );
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
  // The cart says what went and why, not "you haven't added any".
  const released = page.getByTestId('released-holds');
  await expect(released).toContainText('Your reservation ran out');
  await expect(released).toContainText(`Carbon Road Bike: numbers ${numbers[0]} and ${numbers[1]}`);
  await expect(page.getByText("Looks like you haven't added any competitions")).toHaveCount(0);
  for (const n of numbers) await expect(cell(n)).toHaveAttribute('data-state', 'available');

  // Released means really free: someone else holds the first one meanwhile.
  const other = await apiVisitor(baseURL, id);
  expect((await other.hold([numbers[0]!])).status()).toBe(201);
  await expect(cell(numbers[0]!)).toHaveAttribute('data-state', 'reserved');

  // One click holds the rest again through the ordinary hold, and names the one that was lost.
  await released.getByRole('button', { name: 'Try to hold them again' }).click();
  await expect(released.getByRole('status')).toHaveText(
    `Carbon Road Bike: ${numbers[0]} was taken by someone else meanwhile; ${numbers[1]} is held again.`,
  );
  await expect(page.getByTestId('cart-item')).toHaveCount(1);
  await expect(cell(numbers[1]!)).toHaveAttribute('data-state', 'reserved');
  await other.api.dispose();
  await holder.close();
  await watcher.close();
});
