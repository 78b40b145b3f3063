import { expect, test } from '@playwright/test';
import { FORGOT_PASSWORD_SENT, RESET_LINK_INVALID } from '../../contract/account';
import { confirmEmailViaApi, linkFromOutbox, registerViaApi, signInViaApi } from './support';

test('forgot password -> the e-mail in the outbox -> reset -> sign in with the new password', async ({
  page,
  request,
}) => {
  test.slow(); // several screens and e-mails
  // An account made elsewhere (its own cookies): this page is a signed-out visitor.
  const username = await registerViaApi(request, { prefix: 'rp' });
  const email = `${username}@example.co.uk`;

  await page.goto('/auth');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('E-mail address').press('Enter'); // the keyboard is enough
  await expect(page.getByText(FORGOT_PASSWORD_SENT)).toBeVisible();

  const link = await linkFromOutbox(email, '/reset-password');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('fresh-start-1');
  await page.getByLabel('Confirm new password').fill('something-else');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill('fresh-start-1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been changed. Please sign in with it.')).toBeVisible();
  // The other session of the account ended with the reset.
  expect((await request.get('/api/user')).status()).toBe(401);

  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill('kernow123');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or password' })).toBeVisible();
  await page.getByLabel('Password').fill('fresh-start-1');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText(`Welcome back, ${username}!`);

  // The link worked once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('third-time-1');
  await page.getByLabel('Confirm new password').fill('third-time-1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: RESET_LINK_INVALID })).toBeVisible();
});

test('My Account: Security and Privacy: change password, sessions, download my data, delete my account', async ({
  page,
  request,
}) => {
  test.slow(); // several screens and e-mails
  const username = await registerViaApi(page.request, { prefix: 'sec' });
  await confirmEmailViaApi(page.request, `${username}@example.co.uk`);
  await signInViaApi(request, username, 'kernow123'); // a second session, elsewhere
  await page.goto('/profile');
  const security = page.getByRole('region', { name: 'Security' });

  await security.getByLabel('Current password').fill('not-my-password');
  await security.getByLabel('New password', { exact: true }).fill('kernow456');
  await security.getByLabel('Confirm new password').fill('kernow456');
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(security.getByRole('alert')).toHaveText('Your current password is incorrect.');

  const sessions = security.getByRole('list', { name: 'Signed-in sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions).toContainText('This device');
  await security.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(security.getByRole('status')).toHaveText('1 other session has been signed out.');
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  expect((await request.get('/api/user')).status()).toBe(401);

  const privacy = page.getByRole('region', { name: 'Privacy' });
  const download = page.waitForEvent('download');
  await privacy.getByRole('button', { name: 'Download my data' }).click();
  expect((await download).suggestedFilename()).toMatch(/^my-data-\d+\.json$/);

  await privacy.getByLabel('Password').fill('kernow123');
  await privacy.getByLabel('Type DELETE to confirm').fill('delete');
  await privacy.getByRole('button', { name: 'Delete my account' }).click();
  await expect(privacy.getByText('Please type DELETE to confirm')).toBeVisible();
  await privacy.getByLabel('Type DELETE to confirm').fill('DELETE');
  await privacy.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByTestId('toast')).toContainText('Your account has been deleted.');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login / Register' })).toBeVisible();
});
