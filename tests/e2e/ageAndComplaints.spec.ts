import { expect, test } from '@playwright/test';
import { emailsTo, waitForEmail } from '../support/accounts';
import {
  confirmEmailViaApi,
  e2eDataDir,
  fillRegistration,
  registerViaApi,
  signInViaApi,
  unique,
} from './support';

// Age checks and complaints (docs/product.md#age-checks, #complaints) as a customer and an admin
// meet them: the registration form's date of birth, My Account's Complaints, the admin's queue
// and its e-mailed reply, and the admin's age verification in Users.

test('registration asks for the date of birth and refuses anyone under 18', async ({ page }) => {
  const username = unique('dob');
  await page.goto('/auth?tab=register');
  await fillRegistration(page, username);
  const field = page.getByLabel('Date of birth');
  await expect(field).toHaveAttribute('type', 'date');
  await field.fill(`${new Date().getFullYear() - 16}-06-01`);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('You must be 18 or over to enter.')).toBeVisible();

  await field.fill('1988-09-14');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByTestId('toast')).toContainText(`Welcome, ${username}!`);
  await page.goto('/profile');
  await expect(page.getByTestId('date-of-birth')).toHaveText('14 September 1988');
});

test('a customer complains from My Account; the admin replies from the queue by e-mail and checks an age', async ({
  page,
  browser,
}) => {
  test.slow();
  const username = await registerViaApi(page.request, { prefix: 'cmp' });
  const email = `${username}@example.co.uk`;
  // The acknowledgement goes only to a confirmed address (docs/product.md#complaints).
  await confirmEmailViaApi(page.request, email);
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Complaints' }).click();
  await expect(page).toHaveURL(/\/profile#complaints$/);
  const section = page.locator('#complaints');
  await expect(section.getByRole('heading', { name: 'Complaints' })).toBeVisible();
  await expect(section).toContainText('You have not made any complaints.');

  await section.getByRole('button', { name: 'Send complaint' }).click();
  await expect(section.getByText('Subject is required')).toBeVisible();
  await section.getByLabel('Subject').fill('My prize has not arrived');
  await section.getByLabel('Your complaint').fill('I won three weeks ago and have heard nothing since.');
  await section.getByRole('button', { name: 'Send complaint' }).click();
  await expect(page.getByTestId('toast')).toContainText('Complaint received');
  const item = section.getByTestId('complaint');
  await expect(item).toContainText('My prize has not arrived');
  await expect(item).toContainText('Open');
  await expect(item).toContainText('reply due by');
  const reference = /CMP-[A-Z2-9]{8}/.exec((await item.textContent()) ?? '')![0];
  await waitForEmail(e2eDataDir, email, reference);

  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  await admin.goto('/admin/complaints');
  const row = admin.getByTestId('complaint-row').filter({ hasText: reference });
  await expect(row).toContainText(username);
  await row.getByRole('button', { name: `Open ${reference}` }).click();
  const dialog = admin.getByTestId('complaint-dialog');
  await expect(dialog).toContainText('I won three weeks ago and have heard nothing since.');
  await dialog
    .getByLabel('Reply (e-mailed to the customer)')
    .fill('Sorry for the wait: your prize was posted today.');
  await dialog.getByRole('button', { name: 'Send reply' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Reply sent');
  await waitForEmail(e2eDataDir, email, 'your prize was posted today');
  expect(
    emailsTo(e2eDataDir, email).some((m) => m.includes(`Our reply to your complaint ${reference}`)),
  ).toBe(true);

  await page.reload();
  await expect(item).toContainText('Replied');
  await expect(item).toContainText('Sorry for the wait: your prize was posted today.');

  // Users: the date of birth given at registration, and the age check after a document was seen.
  await admin.goto('/admin/users');
  const user = admin.getByTestId('user-row').filter({ hasText: username });
  await expect(user).toContainText('1 Apr 1990');
  await user.getByRole('button', { name: `Mark ${username} age-verified` }).click();
  await admin
    .getByTestId('age-verification-dialog')
    .getByRole('button', { name: 'Mark age verified' })
    .click();
  await expect(user).toContainText('Verified');
});
