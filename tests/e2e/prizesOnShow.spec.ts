import { expect, test } from '@playwright/test';
import { londonDayOf } from '../../contract/londonTime';
import { competitionId, csrfHeaders, signInViaApi, unique } from './support';

// Nothing hidden (docs/product.md "Prizes on show"): every main prize with its value, cash
// alternative and picture on the competition page (in the server's HTML too) and the admin's,
// the cards' badges, one category list with Travel and Automotive, instant wins grouped on a
// phone, Winners in the main navigation, and competitions above the fold on a desktop.

const CAR = 'VW Golf GTI or £25,000 Cash';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('cards badge winners, instant wins, % sold; competitions show above the fold', async ({ page }) => {
    await page.goto('/');
    const cards = page.getByRole('group', { name: 'All Prizes competitions' });
    const car = cards.getByRole('link').filter({ hasText: CAR });
    await expect(car.getByTestId('card-badge-winners')).toHaveText('3 winners');
    await expect(car.getByTestId('card-badge-sold')).toHaveText(/^\d+% sold$/);
    const bonanza = cards.getByRole('link').filter({ hasText: 'Instant Win Cash Bonanza' });
    await expect(bonanza.getByTestId('card-badge-instant')).toHaveText('Instant wins');
    // A single-prize competition says nothing about winners.
    const bike = cards.getByRole('link').filter({ hasText: 'Carbon Road Bike' });
    await expect(bike.getByTestId('card-badge-sold')).toBeVisible();
    await expect(bike.getByTestId('card-badge-winners')).toHaveCount(0);

    // The hero leaves room: the first card's title is on screen at 1280×800.
    const first = cards.getByRole('link').first();
    const box = await first.getByRole('heading').boundingBox();
    expect(box && box.y + box.height).toBeLessThan(800);
  });

  test('the category bar and footer offer Travel and Automotive, and they filter', async ({ page }) => {
    await page.goto('/');
    const bar = page.getByRole('group', { name: 'Filter by category' });
    await expect(bar.getByRole('button')).toHaveText([
      'All Prizes',
      'Cash',
      'Automotive',
      'Electronics',
      'Travel',
      'Home',
      'Toys',
      'Family',
      'Fashion',
      'Sports',
      'Luxury',
      'Vouchers',
    ]);
    await bar.getByRole('button', { name: 'Automotive' }).click();
    await expect(page).toHaveURL(/category=automotive/);
    await expect(
      page.getByRole('group', { name: 'Automotive competitions' }).getByRole('link'),
    ).toContainText([CAR]);
    await bar.getByRole('button', { name: 'Travel' }).click();
    await expect(page.getByRole('group', { name: 'Travel competitions' }).getByRole('link')).toContainText([
      'Seven Nights in Santorini for Two',
    ]);
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Automotive' })).toHaveAttribute(
      'href',
      '/competitions?category=automotive',
    );
    await expect(footer.getByRole('link', { name: 'Travel' })).toBeVisible();
  });

  test('the competition page lists every prize, in the HTML before any script', async ({ page }) => {
    const id = await competitionId(page.request, CAR);
    // The server's HTML already carries the list (no script has run on a fetched page).
    const html = await (await page.request.get(`/competition/${id}`)).text();
    expect(html).toContain('data-testid="prize-list"');
    for (const text of [
      '3 prizes',
      'Volkswagen Golf GTI',
      '£1,000 cash',
      'Smartwatch',
      '£34,500.00',
      '£25,000.00',
    ])
      expect(html).toContain(text);

    await page.goto(`/competition/${id}`);
    const list = page.getByRole('region', { name: '3 prizes' });
    await expect(list.getByText('3 winners: one for each prize, drawn in this order.')).toBeVisible();
    const prizes = list.getByTestId('prize');
    await expect(prizes).toHaveCount(3);
    await expect(prizes.getByRole('heading')).toHaveText([
      'Volkswagen Golf GTI',
      '£1,000 cash',
      'Smartwatch',
    ]);
    await expect(prizes.nth(0).getByTestId('prize-value')).toHaveText('£34,500.00');
    await expect(prizes.nth(0).getByTestId('prize-cash-alternative')).toHaveText('£25,000.00');
    await expect(prizes.nth(1).getByTestId('prize-cash-alternative')).toHaveCount(0);
    await expect(prizes.nth(2).getByTestId('prize-cash-alternative')).toHaveText('£300.00');
    // The 1st prize's picture is the page's own: shown, but not read out twice.
    await expect(prizes.nth(0).locator('img')).toHaveAttribute('src', '/images/competitions/automotive.svg');
    await expect(prizes.nth(0).locator('img')).toHaveAttribute('alt', '');
    await expect(list.getByRole('img', { name: '2nd prize: £1,000 cash' })).toHaveAttribute(
      'src',
      '/images/competitions/cash.svg',
    );
    await expect(page.getByText('3 winners', { exact: true })).toBeVisible();
  });

  test('the admin detail page lists the prizes and states the prize value', async ({ page }) => {
    await signInViaApi(page.request, 'admin', 'admin123');
    const id = await competitionId(page.request, CAR);
    await page.goto(`/admin/competitions/${id}`);
    await expect(page.getByTestId('admin-prize-value')).toHaveText('£34,500.00');
    const list = page.getByRole('region', { name: '3 prizes' });
    await expect(list.getByTestId('prize').getByRole('heading')).toHaveText([
      'Volkswagen Golf GTI',
      '£1,000 cash',
      'Smartwatch',
    ]);
    await expect(list.getByTestId('prize-value')).toHaveText(['£34,500.00', '£1,000.00', '£399.00']);
  });

  test('Winners is in the main navigation; a card ending today says so', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Winners' }).click();
    await expect(page).toHaveURL(/\/winners$/);

    await signInViaApi(page.request, 'admin', 'admin123');
    const title = unique('Ends Today ');
    const end = Date.now() + 20 * 60_000;
    const created = await page.request.post('/api/admin/competitions', {
      headers: await csrfHeaders(page.request),
      data: {
        title,
        description: 'Closes within the hour.',
        ticketPrice: 1,
        totalTickets: 20,
        endDate: new Date(end).toISOString(),
        details: { category: 'Cash' },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    try {
      await page.goto('/competitions?category=cash');
      const card = page.getByTestId('competition-card').filter({ hasText: title });
      await expect(card).toBeVisible();
      // Unless this runs in the last 20 minutes of a UK day.
      const sameDay = londonDayOf(end) === londonDayOf(Date.now());
      await expect(card.getByTestId('card-badge-ends')).toHaveCount(sameDay ? 1 : 0);
    } finally {
      // Ended again, so the lists other specs count are as the demo made them.
      await page.request.put(`/api/admin/competitions/${id}`, {
        headers: await csrfHeaders(page.request),
        data: { status: 'ended' },
      });
    }
  });
});

test.describe('phone', () => {
  test.use(PHONE);

  test('instant wins are grouped, one line a prize; the prizes list shows', async ({ page }) => {
    await page.goto(`/competition/${await competitionId(page.request, 'Instant Win Cash Bonanza')}`);
    const panel = page.getByTestId('instant-wins');
    const groups = panel.getByTestId('instant-win-group');
    await expect(groups).toHaveCount(3);
    await expect(groups.nth(0).locator('.title')).toHaveText(/^£5 site credit ×20, \d+ left$/);
    await expect(groups.nth(1).locator('.title')).toHaveText(/^£25 site credit ×8, \d+ left$/);
    await expect(panel.getByTestId('instant-win')).toHaveCount(0);

    await page.goto(`/competition/${await competitionId(page.request, CAR)}`);
    await expect(page.getByRole('region', { name: '3 prizes' }).getByTestId('prize')).toHaveCount(3);
  });
});
