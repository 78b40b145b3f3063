import { expect, request, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { csrfHeaders, registerViaApi, signInViaApi } from './support';

// The server runs with ADMIN_REQUIRE_2FA=true (playwright.config.ts); the demo admin is exempt
// outside production, so this test makes an admin of its own.

/** What an authenticator app shows for the secret, `stepsAhead` 30-second steps from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + stepsAhead * 30_000 });

test('a new admin must set up two-factor sign-in, then signs in with a code', async ({ page, baseURL }) => {
  // Three accounts' worth of password hashing and two sign-ins on a shared machine.
  test.setTimeout(90_000);
  const customer = await request.newContext({ baseURL });
  const username = await registerViaApi(customer, { prefix: 'tfa' });
  const { id } = await (await customer.get('/api/user')).json();
  const demo = await request.newContext({ baseURL });
  await signInViaApi(demo, 'admin', 'admin123');
  const promoted = await demo.patch(`/api/admin/users/${id}/role`, {
    headers: await csrfHeaders(demo),
    data: { role: 'admin' },
  });
  expect(promoted.ok()).toBeTruthy();

  await page.goto('/admin-login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill('kernow123');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/, { timeout: 15_000 });

  // Sent to the setup, and nothing else of the back office (the server refuses it too).
  await expect(
    page.getByRole('heading', { name: 'Two-factor sign-in is required for admins' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(
    page.getByRole('heading', { name: 'Two-factor sign-in is required for admins' }),
  ).toBeVisible();
  expect((await page.request.get('/api/admin/users')).status()).toBe(403);

  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
  // Turning it on asks for the password too (a stolen cookie is not enough).
  await page.getByLabel('Code from your app').fill(codeFor(secret));
  await page.getByLabel('Password').fill('not-my-password');
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your password is not correct.');
  await page.getByLabel('Password').fill('kernow123');
  await page.getByLabel('Code from your app').fill('000000');
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not correct');
  await page.getByLabel('Code from your app').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Users' })).toBeVisible();

  // Signed out, the password alone no longer signs in: the code step follows.
  await page.context().clearCookies();
  await page.goto('/admin-login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill('kernow123');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  expect((await page.request.get('/api/user')).status()).toBe(401);
  // The next step's code: the one that turned it on is spent.
  await page.getByLabel('Authentication code').fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin$/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  expect((await (await page.request.get('/api/user')).json()).twoFactorEnabled).toBe(true);
  await customer.dispose();
  await demo.dispose();
});
