import { expect, type Page, test } from '@playwright/test';
import { apiVisitor, competitionId, entriesGrid, signInViaApi } from './support';

// The home and competition pages arrive rendered by the server for a visitor (api/pages/,
// web/entry-server.tsx), and the browser takes that markup over (hydrates it) without rendering
// anything else first: no error in the console, every class name and text as the server rendered.

/** Console errors and uncaught exceptions of `page` from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * Elements whose class or text differ from what React rendered: a mismatch the production build
 * leaves in place silently. Empty once a page hydrated cleanly.
 */
const mismatches = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    let hydrated = 0;
    for (const el of document.querySelectorAll('#root *')) {
      const key = Object.keys(el).find((k) => k.startsWith('__reactProps$'));
      if (!key) continue;
      hydrated++;
      const props = (el as unknown as Record<string, { className?: string; children?: unknown }>)[key]!;
      if ((props.className ?? null) !== el.getAttribute('class'))
        out.push(`${el.tagName}: class ${el.getAttribute('class')} instead of ${props.className}`);
      if (
        typeof props.children === 'string' &&
        el.childNodes.length === 1 &&
        el.textContent !== props.children
      )
        out.push(`${el.tagName}: text ${el.textContent} instead of ${props.children}`);
    }
    return { hydrated, out };
  });

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page shows its hero, image and competitions', async ({ page }) => {
    await page.goto('/');
    const hero = page.getByTestId('hero');
    await expect(hero.getByRole('heading', { level: 1, name: "1000's OF PRIZES TO BE WON" })).toBeVisible();
    await expect(page.getByTestId('hero-image')).toHaveAttribute('src', '/images/hero-default.svg');
    await expect(page.getByTestId('hero-image')).toHaveAttribute('fetchpriority', 'high');
    await expect(
      page.getByRole('group', { name: 'All Prizes competitions' }).getByRole('link').first(),
    ).toBeVisible();
    await expect(page).toHaveTitle('Westcountry Prizes | Win prizes from the South West');
  });

  test('a competition page shows its title, image, price and countdown', async ({ page }) => {
    const id = await competitionId(page.request, 'Carbon Road Bike');
    await page.goto(`/competition/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Carbon Road Bike' })).toBeVisible();
    const image = page.getByRole('img', { name: 'Carbon Road Bike' });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('fetchpriority', 'high');
    await expect(page.getByText('per ticket')).toBeVisible();
    // A button that cannot work without its script says so (it is enabled once hydrated).
    await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeDisabled();
    await expect(page.getByRole('timer')).toHaveAttribute(
      'aria-label',
      /^\d+ days \d+ hours \d+ minutes \d+ seconds$/,
    );
    await expect(page).toHaveTitle('Carbon Road Bike | Westcountry Prizes');
  });
});

test('hydrates the home page without an error or a mismatch, and it works', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(page.getByTestId('hero-image')).toBeVisible();
  // Hydrated: React's props are on the server's elements.
  await expect.poll(async () => (await mismatches(page)).hydrated).toBeGreaterThan(100);
  expect((await mismatches(page)).out).toEqual([]);
  // The category bar filters (a client-side navigation and a request of its own).
  await page.getByRole('button', { name: 'Cash', exact: true }).first().click();
  await expect(page).toHaveURL(/category=cash/);
  await expect(page.getByRole('group', { name: 'Cash competitions' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('hydrates a competition page without an error, and its grid follows holds live', async ({
  page,
  baseURL,
}) => {
  const errors = collectErrors(page);
  const id = await competitionId(page.request, 'Carbon Road Bike');
  const entries: Array<{ ticketNumbers: number[] }> = await (
    await page.request.get(`/api/competitions/${id}/entries`)
  ).json();
  const sold = new Set(entries.flatMap((e) => e.ticketNumbers));
  const free = Array.from({ length: 40 }, (_, i) => i + 1).find((n) => !sold.has(n))!;

  await page.goto(`/competition/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Carbon Road Bike' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeEnabled();
  const grid = await entriesGrid(page);
  const cell = grid.locator(`[data-number="${free}"]`);
  await expect(cell).toHaveAttribute('data-state', 'available');
  expect((await mismatches(page)).out).toEqual([]);

  const other = await apiVisitor(baseURL!, id);
  const held = await other.hold([free]);
  expect(held.status()).toBe(201);
  await expect(cell).toHaveAttribute('data-state', 'reserved', { timeout: 3000 });
  await other.api.delete(`/api/cart/${(await held.json()).id}`, { headers: other.headers });
  await expect(cell).toHaveAttribute('data-state', 'available', { timeout: 3000 });
  await other.api.dispose();
  expect(errors).toEqual([]);
});

test('only a visitor gets a server-rendered page; the renderer itself is never served', async ({ page }) => {
  const rendered = await (await page.request.get('/')).text();
  expect(rendered).toContain('<script id="page-seed" type="application/json">');
  expect(rendered).not.toContain('<div id="root"></div>');
  // Nothing executable inline (the Content-Security-Policy allows only the site's own files).
  expect(rendered.match(/<script(?![^>]*(?:type="application\/json"|src=))[^>]*>/g)).toBeNull();

  await signInViaApi(page.request, 'demo', 'demo1234');
  const signedIn = await (await page.request.get('/')).text();
  expect(signedIn).toContain('<div id="root"></div>');
  expect(signedIn).not.toContain('page-seed');

  expect((await page.request.get('/ssr/entry-server.js')).status()).toBe(404);
});
