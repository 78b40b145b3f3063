import { expect, test } from '@playwright/test';

test('the 100,000-number grid scrolls to its last number and stays under 1,400 DOM nodes', async ({
  page,
}) => {
  await page.goto('/competitions');
  await page.getByTestId('competition-card').filter({ hasText: 'Mega Draw' }).click();
  await expect(page.getByText(/Tickets Sold 2,350 \/ 100,000/)).toBeVisible();
  const grid = page.getByTestId('entries-grid');
  await expect(grid.locator('[data-number="1"]')).toBeVisible();

  await grid.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(grid.locator('[data-number="100000"]')).toBeVisible();
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(1400);

  // Jumping to a number brings its cell into view.
  await page.getByRole('spinbutton', { name: 'Ticket number' }).fill('54321');
  await page.getByRole('button', { name: 'Go to number' }).click();
  await expect(grid.locator('[data-number="54321"]')).toBeVisible();
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(1400);
});
