import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  competitionId,
  entriesGrid,
  openSelector,
  payWithCard,
  registerViaApi,
  socketConnected,
} from './support';

// The finish a customer notices (issue 22): toasts, logo, grid layout and keyboard use, the skip
// link, a quiet anonymous page load, and image sizes.

const PHONE = { width: 390, height: 844 };

/** True when the two boxes share any area. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [p, q] = [await a.boundingBox(), await b.boundingBox()];
  if (!p || !q) throw new Error('an element has no box');
  return p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
}

/** Every action of a dialog is clear of the toast and still takes a click (nothing on top of it). */
async function expectActionsClear(dialog: Locator, toastBox: Locator, names: string[]) {
  for (const name of names) {
    const action = dialog.getByRole('button', { name, exact: true });
    await action.scrollIntoViewIfNeeded();
    expect(await overlap(toastBox, action), `the toast covers '${name}'`).toBe(false);
    await action.click({ trial: true, timeout: 2000 });
  }
}

test.describe('at 390 x 844', () => {
  test.use({ viewport: PHONE });

  test("a toast in the number picker never covers 'Confirm Selection'", async ({ page }) => {
    await page.goto(`/competition/${await competitionId(page.request, 'Rolex Submariner Watch')}`);
    const selector = await openSelector(page);
    await expect(selector.locator('[data-state="available"]').first()).toBeVisible();
    // Confirming with no number picked (a pick past the count raises it: no toast there).
    await selector.getByRole('button', { name: 'Confirm Selection' }).click();
    const toastBox = selector.getByTestId('toast'); // shown inside the dialog
    await expect(toastBox).toContainText('Selection incomplete');
    await expectActionsClear(selector, toastBox, ['Cancel', 'Confirm Selection']);
  });

  test("a toast in the payment dialog never covers 'Pay Now'", async ({ page }) => {
    await registerViaApi(page.request, { prefix: 'fin' });
    const id = await competitionId(page.request, 'Ninja Kitchen Appliance Bundle');
    const { csrfToken } = await (await page.request.get('/api/csrf-token')).json();
    const headers = { 'X-CSRF-Token': csrfToken };
    await page.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
    const held = await page.request.post('/api/cart', {
      data: { competitionId: id, quantity: 1, selectedNumbers: [] },
      headers,
    });
    expect(held.status()).toBe(201);
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    const dialog = page.getByTestId('checkout-dialog');
    await payWithCard(dialog, '4000 0000 0000 0002'); // declined
    const toastBox = dialog.getByTestId('toast');
    await expect(toastBox).toContainText('Payment failed');
    await expectActionsClear(dialog, toastBox, ['Cancel', 'Pay Now']);
  });

  test('the logo keeps its full width next to Login / Register', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Login / Register' })).toBeVisible();
    const logo = page.locator('header a[aria-label="Home"] img');
    await expect(logo).toHaveJSProperty('complete', true);
    const box = (await logo.boundingBox())!;
    // The logo is 240 x 56: shown whole, at no less than 36 px high.
    expect(box.height).toBeGreaterThanOrEqual(36);
    expect(box.width / box.height).toBeCloseTo(240 / 56, 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});

/** Space between the first row's last cell and the grid's inner right edge, in px. */
const rightStrip = (grid: Locator) =>
  grid.evaluate((el) => {
    const inner = el.getBoundingClientRect().left + el.clientLeft + el.clientWidth;
    const first = el.querySelector('[data-number="1"]')!.getBoundingClientRect();
    const row = [...el.querySelectorAll('[data-number]')]
      .map((c) => c.getBoundingClientRect())
      .filter((r) => Math.abs(r.top - first.top) < 1);
    return inner - Math.max(...row.map((r) => r.right));
  });

test('the entries grid fills its width at 390 and 1280 px', async ({ page }) => {
  const id = await competitionId(page.request, 'Rolex Submariner Watch');
  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    await page.goto(`/competition/${id}`);
    const grid = await entriesGrid(page);
    await expect(grid.locator('[data-number="1"]')).toBeVisible();
    // Only the row's own padding is left (6 px), not a column's worth of blank.
    expect(await rightStrip(grid), `at ${viewport.width} px`).toBeLessThanOrEqual(8);
  }
});

test('a skip link leads to the main content, and the entries grid works with the keyboard', async ({
  page,
}) => {
  await page.goto(`/competition/${await competitionId(page.request, 'Rolex Submariner Watch')}`);
  const grid = page.getByRole('grid', { name: /^Ticket numbers 1 to / });
  await expect(grid.locator('[data-number="1"]')).toBeVisible({ timeout: 20_000 });
  await expect(grid.getByRole('row').first().getByRole('gridcell').first()).toHaveAttribute(
    'data-number',
    '1',
  );

  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  // One Tab stop in the grid, reached from the field before it, and left with the next Tab.
  await page.getByRole('button', { name: 'Go to number' }).focus();
  await page.keyboard.press('Tab');
  const cell = (n: number) => grid.locator(`[data-number="${n}"]`);
  await expect(cell(1)).toBeFocused();
  await expect(grid.locator('[tabindex="0"]')).toHaveCount(1);
  const columns = await grid.getByRole('row').first().getByRole('gridcell').count();
  const total = Number(await grid.getAttribute('aria-rowcount')) * columns; // at least the last number

  await page.keyboard.press('ArrowRight');
  await expect(cell(2)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(cell(2 + columns)).toBeFocused();
  await page.keyboard.press('End');
  await expect(cell(2 * columns)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(cell(2 * columns - 1)).toBeFocused();
  // To the last number, scrolled into view (its row was not rendered before).
  await page.keyboard.press('Control+End');
  const last = grid.locator('[data-number]').last();
  await expect(last).toBeFocused();
  await expect(last).toBeInViewport();
  expect(Number(await last.getAttribute('data-number'))).toBeLessThanOrEqual(total);
  await page.keyboard.press('Control+Home');
  await expect(cell(1)).toBeFocused();

  await page.keyboard.press('Tab');
  expect(await grid.evaluate((el) => el.contains(document.activeElement))).toBe(false);
});

test('the number picker works with the keyboard, skipping numbers that cannot be picked', async ({
  page,
}) => {
  await page.goto(`/competition/${await competitionId(page.request, 'Rolex Submariner Watch')}`);
  const selector = await openSelector(page);
  const grid = selector.getByTestId('selector-grid');
  const stop = grid.locator('[tabindex="0"]');
  await expect(stop).toHaveCount(1);
  await stop.focus();
  const from = Number(await stop.getAttribute('data-number'));
  await page.keyboard.press('ArrowRight');
  const to = await page.evaluate(() => Number(document.activeElement?.getAttribute('data-number')));
  expect(to).toBeGreaterThan(from);
  const next = grid.locator(`[data-number="${to}"]`);
  await expect(next).toBeFocused();
  await expect(next).toBeEnabled();
  // Every number passed over could not be picked.
  for (let n = from + 1; n < to; n++) await expect(grid.locator(`[data-number="${n}"]`)).toBeDisabled();
  await page.keyboard.press('Space');
  await expect(next).toHaveAttribute('aria-pressed', 'true');
  await expect(selector.getByText('Selected 1 of 1')).toBeVisible();
});

/** Console errors and the API requests of one page load, until the cart has been asked for. */
async function watchLoad(page: Page, path: string) {
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push(url.pathname);
  });
  const cart = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/cart');
  const connected = socketConnected(page);
  await page.goto(path);
  await cart;
  // The load's last step is the socket (after the session): once it is connected and no request
  // is left in flight, a second cart request or an error of the load would have shown.
  await connected;
  await page.waitForLoadState('networkidle');
  return { errors, requests };
}

test('an anonymous visit logs no console error and asks for the cart once', async ({ page }) => {
  const { errors, requests } = await watchLoad(page, '/');
  await expect(page.getByTestId('competition-card').first()).toBeVisible();
  expect(errors).toEqual([]);
  expect(requests.filter((p) => p === '/api/cart')).toHaveLength(1);
  expect(requests).toContain('/api/session');
  expect(requests).not.toContain('/api/user');
  // Moving to another page checks the session again, still without an error.
  await page.getByRole('link', { name: 'Competitions', exact: true }).first().click();
  await expect(page.getByTestId('competition-count')).toBeVisible();
  expect(errors).toEqual([]);
});

test('images carry their width and height', async ({ page }) => {
  for (const path of ['/', '/competitions']) {
    await page.goto(path);
    await expect(page.getByTestId('competition-card').first()).toBeVisible();
    const unsized = await page.evaluate(() =>
      [...document.images]
        .filter((img) => !img.getAttribute('width') || !img.getAttribute('height'))
        .map((img) => img.src),
    );
    expect(unsized, path).toEqual([]);
    // The logo and the card scheme marks among them.
    await expect(page.locator('header a[aria-label="Home"] img')).toHaveAttribute('width', /\d+/);
    await expect(page.getByRole('img', { name: 'Visa' })).toHaveAttribute('height', /\d+/);
  }
});
