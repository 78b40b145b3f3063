// `npm run screenshots`: builds the client, serves the production build on a free port with a
// fresh database of demo data, and photographs the purchase flow at 390 px and 1280 px into
// docs/screenshots/ (home, detail, picker, cart, checkout, confirmation, my-entries), then the main
// admin pages (dashboard, competitions, a competition, orders, users, a customer, site settings),
// so that a reviewer can see the screens. Uses Debian's Chromium (CHROMIUM_PATH to change it).

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';

// As in playwright.config.ts (not imported: loading it clears the browser tests' database).
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];
const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'docs', 'screenshots');
const COMPETITION = 'Rolex Submariner Watch';
const WIDTHS = [
  { name: '390', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: '1280', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// Card payments go through the sandbox gateway, whatever keys this shell holds.
const withoutStripe = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('STRIPE_')));

async function startSite(port: number, dataDir: string, adminPassword: string): Promise<ChildProcess> {
  const server = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...withoutStripe(process.env),
      // The production build of the client; the server stays out of production mode, whose
      // session cookie is Secure and so never sent over this plain-HTTP connection.
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // A throwaway site: a fresh admin password, the sandbox gateway and the demo data.
      ADMIN_PASSWORD: adminPassword,
      SEED_DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
    },
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill();
  throw new Error('The server did not answer /api/health within 60 s');
}

/** Waits for the fonts and the images in view (lazy ones below never load), then saves the viewport. */
async function shoot(page: Page, width: string, name: string) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const inView = [...document.images].filter((img) => {
      const box = img.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });
    const loaded = Promise.all(
      inView.map((img) =>
        img.complete ? undefined : new Promise((r) => img.addEventListener('loadend', r, { once: true })),
      ),
    );
    await Promise.race([loaded, new Promise((r) => setTimeout(r, 5000))]);
  });
  await page.waitForTimeout(300);
  const file = path.join(OUT_DIR, `${width}-${name}.png`);
  await page.screenshot({ path: file });
  console.info(`  ${path.relative(ROOT, file)}`);
}

/** Registers a new customer (the demo customer is at the per-person cap), which signs them in. */
async function register(page: Page, width: string) {
  const { csrfToken } = await (await page.request.get('/api/csrf-token')).json();
  const username = `shots${width}x${Date.now().toString(36)}`;
  const res = await page.request.post('/api/register', {
    headers: { 'X-CSRF-Token': csrfToken },
    data: {
      username,
      email: `${username}@example.co.uk`,
      password: randomBytes(9).toString('base64url'),
      firstName: 'Morwenna',
      lastName: 'Trelawny',
      phoneNumber: '07700 900321',
      dateOfBirth: '1990-04-01',
      ageConfirmation: true,
      ukResidency: true,
      termsAgreement: true,
    },
  });
  if (res.status() !== 201)
    throw new Error(`Registering ${username} failed: ${res.status()} ${await res.text()}`);
}

/** One pass through the flow at one width: a visitor browses and picks, then signs in and pays. */
async function photographFlow(browser: Browser, baseURL: string, width: (typeof WIDTHS)[number]) {
  const context = await browser.newContext({
    baseURL,
    viewport: width.viewport,
    isMobile: width.isMobile,
    hasTouch: width.hasTouch,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  try {
    await page.goto('/');
    await page.getByTestId('competition-card').first().waitFor();
    await shoot(page, width.name, 'home');

    const list: Array<{ id: number; title: string }> = await (
      await page.request.get('/api/competitions')
    ).json();
    const competition = list.find((c) => c.title === COMPETITION) ?? list[0];
    if (!competition) throw new Error('The demo data has no competitions');
    await page.goto(`/competition/${competition.id}`);
    await page.getByRole('heading', { name: competition.title }).waitFor();
    await shoot(page, width.name, 'detail');

    await page.getByRole('button', { name: 'Select Lucky Numbers' }).click();
    const skill = page.getByTestId('skill-dialog');
    await skill.getByLabel('365').check();
    await skill.getByRole('button', { name: 'Submit Answer' }).click();
    const picker = page.getByTestId('number-selector');
    await picker.getByTestId('selector-grid').waitFor();
    await picker.getByRole('slider', { name: 'Number of tickets' }).fill('3');
    const free = picker.getByTestId('selector-grid').locator('[data-state="available"]');
    for (let i = 0; i < 3; i++) await free.first().click();
    await picker.getByText('Selected 3 of 3').waitFor();
    await shoot(page, width.name, 'picker');
    await picker.getByRole('button', { name: 'Confirm Selection' }).click();
    await page.getByTestId('added-dialog').waitFor();

    // Registering signs in and moves the visitor's cart to the account.
    await register(page, width.name);
    await page.goto('/cart');
    await page.getByTestId('cart-item').first().waitFor();
    await shoot(page, width.name, 'cart');

    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    const checkout = page.getByTestId('checkout-dialog');
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    await checkout.getByLabel('Expiry (MM/YY)').fill('12/34');
    await checkout.getByLabel('CVC').fill('123');
    await shoot(page, width.name, 'checkout');
    await checkout.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL(/\/confirmation\//, { timeout: 30_000 });
    await page.getByRole('heading').first().waitFor();
    await shoot(page, width.name, 'confirmation');

    await page.goto('/my-competitions');
    await page.getByText(competition.title).first().waitFor();
    await shoot(page, width.name, 'my-entries');
  } catch (err) {
    const file = path.join(os.tmpdir(), `screenshots-failed-${width.name}.png`);
    await page.screenshot({ path: file });
    console.error(`Stopped; the page as it was is in ${file}`);
    throw err;
  } finally {
    await context.close();
  }
}

/** The back office at one width, signed in as the demo admin (no second factor outside production). */
async function photographAdmin(
  browser: Browser,
  baseURL: string,
  width: (typeof WIDTHS)[number],
  adminPassword: string,
) {
  const context = await browser.newContext({
    baseURL,
    viewport: width.viewport,
    isMobile: width.isMobile,
    hasTouch: width.hasTouch,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  try {
    const { csrfToken } = await (await page.request.get('/api/csrf-token')).json();
    const login = await page.request.post('/api/login', {
      headers: { 'X-CSRF-Token': csrfToken },
      data: { username: 'admin', password: adminPassword },
    });
    if (!login.ok()) throw new Error(`Admin sign-in failed: ${login.status()} ${await login.text()}`);
    const competitions: Array<{ id: number; ticketsSold: number }> = await (
      await page.request.get('/api/admin/competitions')
    ).json();
    const competition = [...competitions].sort((a, b) => b.ticketsSold - a.ticketsSold)[0];
    const customers: { customers: Array<{ id: number; username: string }> } = await (
      await page.request.get('/api/admin/customers?search=demo')
    ).json();
    const customer = customers.customers.find((c) => c.username === 'demo') ?? customers.customers[0];
    const pages: Array<[string, string, string]> = [
      ['admin-dashboard', '/admin', 'Admin Dashboard'],
      ['admin-competitions', '/admin/competitions', 'Manage Competitions'],
      ...(competition
        ? [['admin-competition', `/admin/competitions/${competition.id}`, ''] as [string, string, string]]
        : []),
      ['admin-orders', '/admin/orders', 'Order Management'],
      ['admin-users', '/admin/users', 'Manage Users'],
      ...(customer
        ? [
            ['admin-customer', `/admin/users/${customer.id}`, `Customer ${customer.username}`] as [
              string,
              string,
              string,
            ],
          ]
        : []),
      ['admin-site-settings', '/admin/site-settings', 'Site Settings'],
    ];
    for (const [name, url, heading] of pages) {
      await page.goto(url);
      await page.getByTestId('admin-nav').waitFor();
      if (heading) await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      else await page.getByRole('heading', { level: 1 }).first().waitFor();
      await shoot(page, width.name, name);
    }
  } catch (err) {
    const file = path.join(os.tmpdir(), `screenshots-failed-admin-${width.name}.png`);
    await page.screenshot({ path: file });
    console.error(`Stopped; the page as it was is in ${file}`);
    throw err;
  } finally {
    await context.close();
  }
}

async function main() {
  console.info('Building the client...');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-screenshots-'));
  const adminPassword = randomBytes(12).toString('hex');
  const server = await startSite(port, dataDir, adminPassword);
  // Interrupted (Ctrl+C): stop the site too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      server.kill('SIGTERM');
      process.exit(130);
    });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    fs.mkdirSync(OUT_DIR, { recursive: true });
    for (const width of WIDTHS) {
      console.info(`At ${width.name} px:`);
      await photographFlow(browser, `http://127.0.0.1:${port}`, width);
      await photographAdmin(browser, `http://127.0.0.1:${port}`, width, adminPassword);
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
