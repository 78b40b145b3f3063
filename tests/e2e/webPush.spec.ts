import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium';
import { buyAsNewCustomer, ownCompetition } from './support';

// Web push in the browser (docs/product.md#web-push): the site is installable (manifest, icons, a
// service worker at /sw.js with the offline page, caching nothing personal), and only after a
// purchase does the confirmation page ask "Get a notification when this is drawn?"; yes
// subscribes through the service worker's PushManager and stores the subscription.
//
// Chromium's PushManager.subscribe registers with Google's push service (FCM) over the network,
// which this machine cannot reach: Debian's Chromium answers 'AbortError: Registration failed -
// permission denied' within milliseconds, headless and headed (under Xvfb) alike, with the
// notifications permission granted (checked 2026-11-29). So the subscribe call itself is stubbed (it records the
// applicationServerKey and returns a subscription with real P-256 keys); everything around it is
// real: the registered worker, the permission, the page's question and the POST to the server.
// The encrypted delivery to a push service is tested in tests/api/accounts/webPush.test.ts.

test('the site is installable: manifest, icons, a service worker with an offline page and no personal cache', async ({
  page,
  context,
  request,
}) => {
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  const body = await manifest.json();
  expect(body).toMatchObject({ name: 'Westcountry Prizes', short_name: 'WC Prizes', theme_color: '#0b2545' });
  expect(body.icons.map((i: { sizes: string }) => i.sizes)).toEqual(
    expect.arrayContaining(['192x192', '512x512']),
  );
  for (const size of [192, 512]) expect((await request.get(`/icon-${size}.png`)).status()).toBe(200);
  const worker = await request.get('/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  // Never kept by a cache for long: a fixed worker reaches every browser on its next visit.
  expect(worker.headers()['cache-control']).toBe('no-cache');

  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  const registered = await page.evaluate(async () => {
    const r = await navigator.serviceWorker.ready;
    return { scope: r.scope, script: r.active?.scriptURL ?? '' };
  });
  expect(new URL(registered.scope).pathname).toBe('/');
  expect(registered.script).toMatch(/\/sw\.js$/);
  // Nothing is asked on page load.
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
  await expect(page.getByTestId('push-prompt')).toHaveCount(0);

  // Controlled by the worker, a page load offline gets the offline page.
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await page.evaluate(() => fetch('/api/competitions').then((r) => r.text()));
  await context.setOffline(true);
  await page.goto('/competitions').catch(() => undefined);
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await context.setOffline(false);
  // The worker's cache holds the offline page and its icon, nothing else (no API answer, no page).
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    return urls.sort();
  });
  expect(cached).toEqual(['/icon-192.png', '/offline.html']);
});

test("Chromium's installability check finds nothing wrong", async ({ baseURL }) => {
  // What Lighthouse's 'installable-manifest' audit asked before Lighthouse 12 dropped it: no
  // manifest errors, its icons fetched, a service worker in scope. A persistent profile, as
  // Chromium installs nothing from an incognito one (which Playwright's contexts are).
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors' as never)) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    expect(installabilityErrors).toEqual([]);
    const { errors } = (await cdp.send('Page.getAppManifest' as never)) as { errors: unknown[] };
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('after a purchase the confirmation page asks, and yes subscribes through the service worker', async ({
  browser,
  baseURL,
}) => {
  test.slow();
  const { id } = await ownCompetition(baseURL!);
  const context = await browser.newContext({ baseURL, permissions: ['notifications'] });
  const page = await context.newPage();
  await buyAsNewCustomer(page.request, id, 1, 'push');
  const orders = (await (await page.request.get('/api/orders')).json()) as Array<{ id: number }>;
  const orderId = orders[0]!.id;

  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
  const endpoint = 'https://push.example.test/send/e2e-subscription';
  await context.addInitScript(
    ({ keys, endpoint }) => {
      const w = window as unknown as { pushAsked?: string };
      PushManager.prototype.getSubscription = async () => null;
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
        w.pushAsked = btoa(String.fromCharCode(...key))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
        return {
          endpoint,
          toJSON: () => ({ endpoint, expirationTime: null, keys }),
        } as unknown as PushSubscription;
      };
    },
    { keys, endpoint },
  );

  await page.goto(`/confirmation/${orderId}`);
  await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
  const prompt = page.getByTestId('push-prompt');
  await expect(prompt).toContainText('Get a notification when this is drawn?');
  const posted = page.waitForResponse(
    (r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST',
  );
  await prompt.getByRole('button', { name: 'Notify me' }).click();
  const response = await posted;
  expect(response.status()).toBe(201);
  expect(response.request().postDataJSON()).toEqual({ endpoint, keys });
  await expect(prompt).toContainText('You will get a notification when it is drawn.');
  // The worker made it, with the site's VAPID key.
  const { publicKey } = await (await page.request.get('/api/push/public-key')).json();
  expect(await page.evaluate(() => (window as unknown as { pushAsked?: string }).pushAsked)).toBe(publicKey);
  await context.close();
});
