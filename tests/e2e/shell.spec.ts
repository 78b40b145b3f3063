import { expect, test } from '@playwright/test';

test('a static page from the nav, with the FAQ accordion and chips', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' })).toBeVisible();
  const chips = [
    'All Questions',
    'Getting Started',
    'Tickets & Entries',
    'Payments & Refunds',
    'Draws & Winners',
  ];
  for (const chip of chips) await expect(page.getByRole('button', { name: chip, exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Draws & Winners', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Draws & Winners', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const question = page.getByRole('main').locator('button[aria-expanded]').first();
  await expect(question).toHaveAttribute('aria-expanded', 'false');
  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  const answerId = await question.getAttribute('aria-controls');
  await expect(page.locator(`[id="${answerId}"]`)).toBeVisible();
});

test('terms have 17 numbered sections', async ({ page }) => {
  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms & Conditions' })).toBeVisible();
  await expect(page.locator('section[id^="section-"]')).toHaveCount(17);
  await expect(page.getByRole('heading', { level: 2, name: /^16\b/ })).toBeVisible();
});

test('the header: promo banner dismisses until the next page load; scroll resets on navigation', async ({
  page,
}) => {
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'New customer offer' });
  // The demo's welcome promo: £5.00, no end date; the minimum spend for credit goes with it.
  await expect(banner).toContainText(
    'New customers: £5.00 site credit when you open an account and confirm your e-mail. Site credit can be used on baskets of £5.00 or more.',
  );
  await expect(banner.getByRole('link', { name: 'Sign Up Now' })).toHaveAttribute(
    'href',
    '/auth?tab=register',
  );
  await banner.getByRole('button', { name: 'Dismiss offer' }).click();
  await expect(banner).toHaveCount(0);

  await page.mouse.wheel(0, 3000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await page.getByRole('contentinfo').getByRole('link', { name: 'About Us' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  await page.reload();
  await expect(page.getByRole('region', { name: 'New customer offer' })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the mobile menu toggles and the short banner text shows', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.getByText('£5.00 credit for new accounts. Use it on baskets of £5.00 or more.'),
    ).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'How to Play' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-menu').getByRole('link', { name: 'How to Play' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/how-to-play$/);
    await expect(page.locator('#mobile-menu')).toHaveCount(0);
    // Nothing overflows sideways at 360 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

test('countdowns follow the server clock (sent over Socket.IO), not a wrong device clock', async ({
  page,
  request,
}) => {
  // This device's clock runs two days fast.
  await page.addInitScript(() => {
    const realNow = Date.now.bind(Date);
    Date.now = () => realNow() + 2 * 86_400_000;
  });
  const list = await (await request.get('/api/competitions')).json();
  // A demo competition still days from its end (other specs add ones that end or close early).
  const live = list.find(
    (c: { autoWin: boolean; status: string; endDate: string }) =>
      !c.autoWin && c.status === 'active' && Date.parse(c.endDate) > Date.now() + 86_400_000,
  );
  await page.goto(`/competition/${live.id}`);
  const expectedDays = Math.floor((Date.parse(live.endDate) - Date.now()) / 86_400_000);
  await expect(page.getByRole('timer')).toHaveAttribute('aria-label', new RegExp(`^${expectedDays} days `));
});
