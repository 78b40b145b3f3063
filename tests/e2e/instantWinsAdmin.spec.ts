import { expect, test } from '@playwright/test';
import { signInViaApi, unique } from './support';

// Instant wins in the back office (docs/draws.md#instant-wins): the admin sets two site-credit
// prizes in the competition form and its page lists each number as not yet won.

test('an admin creates a competition with 2 credit instant wins and sees them not yet won', async ({
  browser,
}) => {
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  await admin.goto('/admin/competitions');
  await admin.getByRole('button', { name: 'Create Competition' }).click();
  const dialog = admin.getByTestId('competition-dialog');
  // Archived, so the public lists other tests count never see it.
  const title = unique('Instant Credit Prize ');
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Ticket Price (£)').fill('1.00');
  await dialog.getByLabel('Total Tickets').fill('50');
  await dialog.getByLabel('Category').selectOption('Cash');
  await dialog.getByLabel('Status').selectOption('archived');

  await dialog.getByRole('button', { name: 'Add an instant win' }).click();
  await dialog.getByRole('button', { name: 'Add an instant win' }).click();
  await dialog.getByLabel('Instant win 1: title').fill('£5 site credit');
  await dialog.getByLabel('Instant win 1: credit amount (£)').fill('5');
  await dialog.getByLabel('Instant win 2: title').fill('£2 site credit');
  await dialog.getByLabel('Instant win 2: credit amount (£)').fill('2');
  await dialog.getByLabel('Instant win 2: winning numbers').selectOption('numbers');
  // Outside the 50 tickets: refused in the form first.
  await dialog.getByLabel('Instant win 2: ticket numbers (comma separated)').fill('51');
  await dialog.getByRole('button', { name: 'Create Competition' }).click();
  await expect(
    dialog.getByText('Instant-win number 51 is not a ticket number: tickets run from 1 to 50.'),
  ).toBeVisible();
  await dialog.getByLabel('Instant win 2: ticket numbers (comma separated)').fill('7');
  await dialog.getByRole('button', { name: 'Create Competition' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Competition created');

  await admin.getByRole('tab', { name: /^Archived/ }).click();
  await admin.getByRole('link', { name: title, exact: true }).click();
  const wins = admin.getByTestId('admin-instant-win');
  await expect(wins).toHaveCount(2);
  await expect(wins.filter({ hasText: '£2 site credit' })).toContainText(/^7/);
  await expect(wins.filter({ hasText: '£2 site credit' })).toContainText('£2.00 site credit');
  const five = wins.filter({ hasText: '£5 site credit' });
  await expect(five).toContainText('Not yet won');
  await expect(five).toContainText('£5.00 site credit');
  const number = Number((await five.locator('td').first().textContent())?.trim());
  expect(number).toBeGreaterThanOrEqual(1);
  expect(number).toBeLessThanOrEqual(50);
  expect(number).not.toBe(7);
  await expect(wins.filter({ hasText: 'Not yet won' })).toHaveCount(2);
});
