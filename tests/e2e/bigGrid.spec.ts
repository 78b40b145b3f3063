import { expect, type Page, test } from '@playwright/test';
import { entriesGrid } from './support';

/** Opens the 100,000-number competition from the list, hydrated, with its live state in. */
async function openMegaDraw(page: Page) {
  await page.goto('/competitions');
  await page.getByTestId('competition-card').filter({ hasText: 'Mega Draw' }).click();
  await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeEnabled();
  await expect(page.getByText(/Tickets Sold 2,350 \/ 100,000/)).toBeVisible();
}

test('the 100,000-number grid scrolls to its last number and stays under 1,400 DOM nodes', async ({
  page,
}) => {
  await openMegaDraw(page);
  const grid = await entriesGrid(page);
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

test('the entries grid below the fold renders one row until the visitor scrolls towards it', async ({
  page,
}) => {
  // Everything the page does at load is done.
  await openMegaDraw(page);
  const grid = page.getByTestId('entries-grid');
  await expect(grid).toBeAttached();
  expect(await grid.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(
    page.viewportSize()!.height * 1.5,
  );
  // The grid's IntersectionObserver (useNearViewport) has had its first report once a second one
  // on the grid, made after it, has had its own, and that said "not near"; a frame later React
  // has drawn whatever the report led to.
  const nearAtLoad = await grid.evaluate(
    (el) =>
      new Promise<boolean>((resolve) => {
        const observer = new IntersectionObserver(
          (entries) => {
            observer.disconnect();
            const near = entries.some((e) => e.isIntersecting);
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(near)));
          },
          { rootMargin: '50% 0px' },
        );
        observer.observe(el);
      }),
  );
  expect(nearAtLoad).toBe(false);
  // Only the first row, so the grid is still a grid with a cell to Tab to.
  await expect(grid.getByRole('row')).toHaveCount(1);
  await expect(grid.getByRole('row').first().getByRole('gridcell').first()).toHaveAttribute(
    'data-number',
    '1',
  );

  await grid.scrollIntoViewIfNeeded();
  await expect.poll(() => grid.getByRole('row').count()).toBeGreaterThan(1);
});

test('focus taken into the grid below the fold stays on its cell as the other rows come in', async ({
  page,
}) => {
  await openMegaDraw(page);
  const grid = page.getByTestId('entries-grid');
  await expect(grid.getByRole('row')).toHaveCount(1);

  // As a Tab into it does: the focused cell scrolls the grid in, which renders its other rows.
  const first = grid.locator('[data-number="1"]');
  await first.focus();
  await expect.poll(() => grid.getByRole('row').count()).toBeGreaterThan(1);
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(grid.locator('[data-number="2"]')).toBeFocused();
});

test('a grid scrolled before it came near keeps its place when its rows come in', async ({ page }) => {
  await openMegaDraw(page);
  const grid = page.getByTestId('entries-grid');
  await expect(grid.getByRole('row')).toHaveCount(1);

  // The box scrolls to its end while still far below the fold (as a quick scroll inside it can,
  // before the observer has called back); then the page scrolls to it.
  await grid.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await grid.scrollIntoViewIfNeeded();
  await expect(grid.locator('[data-number="100000"]')).toBeVisible();
  expect(await grid.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
});
