import {
  type APIRequestContext,
  type Browser,
  expect,
  type Page,
  test,
  type WebSocketRoute,
} from '@playwright/test';
import {
  answerSkillQuestion,
  apiVisitor,
  buyAsNewCustomer,
  csrfHeaders,
  entriesGrid,
  firstAvailable,
  registerViaApi,
  signInViaApi,
  unique,
} from './support';

// Issue 39 §6 and §8: the page is honest in real time (a dropped socket says so and marks its
// numbers, the entrant count follows the grid, the buyer's confirmation follows the sell-out and its
// draw) and the picker follows the customer. Each on a phone (390x844) and a desktop (1280x800).

test.describe.configure({ timeout: 90_000 });

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;

/** A new competition (category Cash, which no other test counts), created by the admin. */
async function newCompetition(browser: Browser, fields: Record<string, unknown>) {
  const admin = await browser.newContext();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title: unique('Honest Hamper '),
      description: 'A hamper of Cornish treats.',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
      ...fields,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await admin.close();
  return id;
}

/**
 * The page's Socket.IO connection, routed so the test can drop it and keep it down: while `down`,
 * every reconnect attempt is closed at once.
 */
async function droppableSocket(page: Page) {
  const state = { down: false, current: undefined as WebSocketRoute | undefined };
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    // Down: the attempt reaches the server and is cut at once (closing one side closes both).
    if (state.down) {
      void server.close();
      return;
    }
    state.current = ws;
  });
  // The client may fall back to long-polling: while down, that way is cut too.
  await page.route(/\/socket\.io\//, (route) => (state.down ? route.abort() : route.continue()));
  return {
    drop: async () => {
      state.down = true;
      await state.current?.close();
    },
    restore: () => {
      state.down = false;
    },
  };
}

/** Holds, pays for and returns the order of `quantity` Lucky Dip tickets for this session. */
async function buy(api: APIRequestContext, competitionId: number, quantity: number) {
  const headers = await csrfHeaders(api);
  await api.post(`/api/competitions/${competitionId}/skill-answer`, { data: { answer: '365' }, headers });
  expect((await api.post('/api/cart', { data: { competitionId, quantity }, headers })).status()).toBe(201);
  const intent = await api.post('/api/create-payment-intent', { data: {}, headers });
  expect(intent.ok()).toBeTruthy();
  const order = (await intent.json()) as { orderId: number; clientSecret: string };
  const paid = await api.post('/api/payments/sandbox/confirm', {
    data: {
      clientSecret: order.clientSecret,
      cardNumber: '4242424242424242',
      expMonth: '12',
      expYear: '34',
      cvc: '123',
    },
    headers,
  });
  expect(paid.ok()).toBeTruthy();
  return order.orderId;
}

for (const size of SIZES) {
  test.describe(`on a ${size.name}`, () => {
    test.use({ viewport: size.viewport });

    test('a dropped socket shows Reconnecting… and marks the numbers stale until the snapshot is back', async ({
      page,
      baseURL,
      browser,
    }) => {
      const id = await newCompetition(browser, {});
      const socket = await droppableSocket(page);
      await page.goto(`/competition/${id}`);
      const grid = await entriesGrid(page);
      const numbers = page.getByTestId('live-numbers').first();
      await expect(grid.locator('[data-number="5"]')).toHaveAttribute('data-state', 'available');
      await expect(numbers).toHaveAttribute('data-stale', 'false');
      // The live state is in (the page watches the competition) before the drop.
      await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeEnabled();

      await socket.drop();
      await expect(page.getByTestId('reconnecting-banner')).toHaveText(/^Reconnecting…/, { timeout: 5000 });
      await expect(numbers).toHaveAttribute('data-stale', 'true');
      await expect(page.getByTestId('stale-note')).toBeVisible();
      await expect(grid.locator('[data-number="5"]')).toHaveAttribute('title', /may be out of date/);

      // Taken while this page could not hear of it.
      const other = await apiVisitor(baseURL!, id);
      expect((await other.hold([5])).status()).toBe(201);
      await expect(grid.locator('[data-number="5"]')).not.toHaveAttribute('data-state', 'reserved');

      socket.restore();
      await expect(page.getByTestId('reconnecting-banner')).toHaveCount(0, { timeout: 25_000 });
      await expect(grid.locator('[data-number="5"]')).toHaveAttribute('data-state', 'reserved');
      await expect(numbers).toHaveAttribute('data-stale', 'false');
      await expect(page.getByTestId('stale-note')).toHaveCount(0);
      await other.api.dispose();
    });

    test('"N people have entered" follows the live grid', async ({ page, browser }) => {
      const id = await newCompetition(browser, {});
      await page.goto(`/competition/${id}`);
      await entriesGrid(page);
      await expect(page.getByRole('heading', { name: 'No entries yet' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeEnabled();

      const first = await browser.newContext();
      await buyAsNewCustomer(first.request, id, [2]);
      await expect(
        page.getByRole('heading', { name: '1 person has entered this competition' }),
      ).toBeVisible();
      const second = await browser.newContext();
      await buyAsNewCustomer(second.request, id, [3, 4]);
      await expect(
        page.getByRole('heading', { name: '2 people have entered this competition' }),
      ).toBeVisible();
      await expect(page.getByTestId('entries-grid').locator('[data-number="4"]')).toHaveAttribute(
        'data-state',
        'purchased',
      );
      await first.close();
      await second.close();
    });

    test('the buyer who sells out sees "Sold out: the draw is happening now", then the result, live', async ({
      browser,
    }) => {
      const id = await newCompetition(browser, { autoWin: true, totalTickets: 3 });
      const context = await browser.newContext({ viewport: size.viewport });
      const page = await context.newPage();
      await registerViaApi(page.request, { prefix: 'so' });
      const firstOrder = await buy(page.request, id, 1);
      // Every text the draw status shows, in order, however fast they follow one another.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { drawTexts: string[] }).drawTexts = seen;
        new MutationObserver(() => {
          const text = document.querySelector('[data-testid="draw-status"]')?.textContent;
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto(`/confirmation/${firstOrder}`);
      await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
      await expect(page.getByTestId('draw-date')).not.toContainText('Sold out');

      // The same buyer takes the last two tickets: sold out, and the auto-win draw follows.
      await buy(page.request, id, 2);
      const status = page.getByTestId('draw-status');
      await expect(status).toHaveText(/^Drawn: the winning ticket is #[123](\. You won!)?$/, {
        timeout: 20_000,
      });
      const texts = await page.evaluate(() => (window as unknown as { drawTexts: string[] }).drawTexts);
      expect(texts[0]).toBe('Sold out: the draw is happening now');
      await expect(page.getByTestId('draw-date')).not.toContainText(/\d{4}/);
      await context.close();
    });

    test('the entries grid opens the selector with the number clicked; the count and total follow the picks', async ({
      page,
      browser,
    }) => {
      const id = await newCompetition(browser, { totalTickets: 3000, ticketPrice: 2 });
      await page.goto(`/competition/${id}`);
      await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeEnabled();
      const grid = await entriesGrid(page);
      await grid.locator('[data-number="7"]').click();
      await answerSkillQuestion(page);
      const selector = page.getByTestId('number-selector');
      await expect(selector.locator('[data-number="7"]')).toHaveAttribute('aria-pressed', 'true');
      await expect(selector.getByTestId('selector-total')).toHaveText('1 ticket: £2.00');
      const confirm = selector.getByRole('button', { name: 'Confirm Selection' });
      await expect(confirm).toBeInViewport();

      // A pick past the count raises it; the total follows; the slider never wipes the picks.
      const [a] = await firstAvailable(page, 'selector-grid', 2).then((ns) => ns.filter((n) => n !== 7));
      await selector.locator(`[data-number="${a}"]`).click();
      await expect(selector.getByText('How many tickets: 2')).toBeVisible();
      await expect(selector.getByTestId('selector-total')).toHaveText('2 tickets: £4.00');
      await selector.getByRole('slider', { name: 'Number of tickets' }).fill('4');
      await expect(selector.getByText('How many tickets: 4')).toBeVisible();
      await expect(selector.locator('[aria-pressed="true"]')).toHaveCount(2);
      await expect(selector.getByTestId('selector-total')).toHaveText('4 tickets: £8.00');
      await selector.getByRole('slider', { name: 'Number of tickets' }).fill('1');
      await expect(selector.getByText('How many tickets: 2')).toBeVisible();
      await expect(selector.locator('[aria-pressed="true"]')).toHaveCount(2);

      // A range jump lands on the number asked for, and says so.
      const range = selector.getByRole('combobox', { name: 'Jump to range' });
      await range.selectOption('2001');
      await expect(selector.locator('[data-number="2001"]')).toBeInViewport();
      await expect(range).toHaveValue('2001');
      await expect(confirm).toBeInViewport();
      await confirm.click();
      await expect(page.getByTestId('added-dialog')).toContainText('2 tickets');

      // Revisiting the page: the question passed is not asked again.
      await page.goto(`/competition/${id}`);
      await page.getByRole('button', { name: 'Select Lucky Numbers' }).click();
      await expect(selector.getByRole('heading', { name: 'Select Your Lucky Numbers' })).toBeVisible();
      await expect(page.getByTestId('skill-dialog').getByText('Answer correctly')).toHaveCount(0);
    });
  });
}
