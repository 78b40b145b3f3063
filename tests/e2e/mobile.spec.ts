import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { competitionId, firstAvailable, openSelector } from './support';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Nothing may be wider than the phone (no sideways scrolling); the screenshot is kept for review. */
async function checkScreen(page: Page, testInfo: TestInfo, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

test('detail, number selector and cart fit a 390 x 844 phone', async ({ page }, testInfo) => {
  const id = await competitionId(page.request, 'Rolex Submariner Watch');
  await page.goto(`/competition/${id}`);
  await expect(page.getByRole('heading', { name: 'Rolex Submariner Watch' })).toBeVisible();
  await page.getByRole('button', { name: 'Buy Now' }).scrollIntoViewIfNeeded();
  await checkScreen(page, testInfo, 'detail');

  const selector = await openSelector(page);
  await selector.getByRole('slider', { name: 'Number of tickets' }).fill('2');
  for (const n of await firstAvailable(page, 'selector-grid', 2))
    await selector.locator(`[data-number="${n}"]`).tap();
  await expect(selector.getByText('Selected 2 of 2')).toBeVisible();
  const box = await selector.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
  await expect(selector.getByRole('button', { name: 'Confirm Selection' })).toBeInViewport();
  await checkScreen(page, testInfo, 'selector');
  await selector.getByRole('button', { name: 'Confirm Selection' }).tap();
  await page.getByTestId('added-dialog').getByRole('button', { name: 'Continue Shopping' }).tap();

  await page.getByRole('button', { name: 'Buy Now' }).tap();
  await expect(page).toHaveURL(/\/cart$/);
  const items = page.getByTestId('cart-item');
  await expect(items).toHaveCount(2);
  // Cards, not a table: the column headings are hidden and each card is narrower than the screen.
  await expect(page.getByRole('columnheader', { name: 'Price' })).toBeHidden();
  for (const item of await items.all()) expect((await item.boundingBox())!.width).toBeLessThanOrEqual(390);
  await checkScreen(page, testInfo, 'cart');
});

test('the phone home page shows the first competitions and folds the rest behind one button', async ({
  page,
}) => {
  const total = ((await (await page.request.get('/api/competitions')).json()) as unknown[]).length;
  await page.goto('/');
  const cards = page.getByTestId('competition-card');
  await expect(cards).toHaveCount(6);
  const more = page.getByRole('button', { name: `Show all ${total} competitions` });
  await more.tap();
  await expect(cards).toHaveCount(total);
  await expect(more).toHaveCount(0);
});
