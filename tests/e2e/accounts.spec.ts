import { expect, test } from '@playwright/test';
import { fillRegistration, linkFromOutbox, socketConnected } from './support';

const unique = () => `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test('register -> the header shows the user -> profile shows £5.00 credit and its history -> logout', async ({
  page,
}) => {
  test.slow(); // registration, then the confirmation e-mail
  const username = unique();
  await page.goto('/');
  await page
    .getByRole('region', { name: 'New customer offer' })
    .getByRole('link', { name: 'Sign Up Now' })
    .click();
  await expect(page).toHaveURL(/\/auth\?tab=register$/);
  await expect(page.getByRole('heading', { name: 'Join Westcountry Prizes' })).toBeVisible();
  for (const heading of [
    'Supporting Good Causes',
    'Charitable Purpose',
    'Secure Payments',
    'Trusted Platform',
  ]) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('target', '_blank');

  // The spec's checks show inline before anything is sent.
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await page.getByLabel('Username').fill('ab');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(page.getByText('You must confirm you are 18 or over')).toBeVisible();

  await fillRegistration(page, username);
  await page.getByLabel('Confirm password').fill('different1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm password').fill('kernow123');
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page.getByTestId('toast')).toContainText(`Welcome, ${username}!`);
  await expect(page).toHaveURL(/\/$/);
  // The welcome credit waits for the address to be confirmed: the banner says so, the link pays it.
  const banner = page.getByRole('region', { name: 'E-mail confirmation' });
  await expect(banner).toContainText('Please confirm your e-mail address');
  await banner.getByRole('button', { name: 'Resend the link' }).click();
  await expect(banner.getByRole('status')).toHaveText(
    `We have sent a new confirmation link to ${username}@example.co.uk.`,
  );
  await page.goto(await linkFromOutbox(`${username}@example.co.uk`, '/verify-email', 2));
  await expect(page.getByText('Your welcome credit of £5.00 is in your account.')).toBeVisible();
  await expect(banner).toHaveCount(0);
  const account = page.getByRole('button', { name: /My Account/ });
  await expect(account).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login / Register' })).toHaveCount(0);
  // A sign-up offer is for visitors: gone once signed in, on a fresh page load too.
  await page.goto('/');
  await expect(account).toBeVisible();
  await expect(page.getByRole('region', { name: 'New customer offer' })).toHaveCount(0);
  await account.click();
  const menu = page.getByRole('menu', { name: 'My Account' });
  await expect(menu).toContainText(`${username}@example.co.uk`);
  await expect(menu.getByRole('menuitem', { name: 'Admin Dashboard' })).toHaveCount(0);
  await menu.getByRole('menuitem', { name: 'My Profile' }).click();

  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('£5.00');
  const history = page.getByRole('list', { name: 'Credit history' });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history).toContainText('New User Welcome Credit');
  await expect(history).toContainText('+£5.00');

  // Phone number: edit in place with the profile rules.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Phone number').fill('12345');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Phone number must be at least 10 digits')).toBeVisible();
  await page.getByLabel('Phone number').fill('01392 765432');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('phone-number')).toHaveText('01392 765432');

  await page.getByRole('button', { name: /My Account/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByTestId('toast')).toContainText('You have been successfully logged out.');
  await expect(page).toHaveURL(/\/\?t=\d+$/);
  await expect(page.getByRole('link', { name: 'Login / Register' })).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByText('Please log in to view your profile.')).toBeVisible();
});

test('sign in as the demo customer; a wrong password shows the server message in the red box', async ({
  page,
}) => {
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  await page.getByLabel('Username or email').fill('demo');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or password' })).toBeVisible();

  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText('Welcome back, demo!');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /My Account/ })).toContainText('D');

  // Signed-in visitors are sent away from /auth.
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/$/);
});

test('a sign-out in another tab reaches this tab over the socket, without polling', async ({ browser }) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await first.goto('/auth');
  await first.getByLabel('Username or email').fill('demo');
  await first.getByLabel('Password').fill('demo1234');
  await first.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(first.getByRole('button', { name: /My Account/ })).toBeVisible();

  const second = await context.newPage();
  const connected = socketConnected(second);
  await second.goto('/competitions');
  await expect(second.getByRole('button', { name: /My Account/ })).toBeVisible();
  await connected;

  await first.getByRole('button', { name: /My Account/ }).click();
  await first.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(second.getByRole('link', { name: 'Login / Register' })).toBeVisible({ timeout: 5000 });
  await context.close();
});

test('admin login: a customer is refused, an admin is sent to /admin', async ({ page }) => {
  await page.goto('/admin-login');
  await page.getByLabel('Username or email').fill('demo');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: "You don't have admin privileges" })).toBeVisible();
  expect((await page.request.get('/api/user')).status()).toBe(401);

  await page.getByLabel('Username or email').fill('admin');
  await page.getByLabel('Password').fill('admin123');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/, { timeout: 5000 });
  const me = await (await page.request.get('/api/user')).json();
  expect(me.role).toBe('admin');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the mobile menu greets the signed-in user and offers Sign Out', async ({ page }) => {
    await page.goto('/auth');
    await page.getByLabel('Username or email').fill('admin');
    await page.getByLabel('Password').fill('admin123');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await expect(menu).toContainText('Welcome, Site');
    await expect(menu).toContainText('ADMIN');
    await expect(menu.getByRole('link', { name: 'Admin Panel' })).toBeVisible();
    await menu.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByRole('link', { name: 'Login / Register' })).toBeVisible();
  });
});
