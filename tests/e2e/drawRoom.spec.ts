import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  apiVisitor,
  buyAsNewCustomer,
  csrfHeaders,
  firstAvailable,
  ownCompetition,
  signInViaApi,
  unique,
} from './support';

// The live draw room: two viewers see each step of the reveal in the same second (timed from the
// server's draw time on the server clock), each browser checks the round and the seed itself, and
// the recorded draw shows whole on a later visit, with a replay.

async function viewer(browser: Browser, id: number, path = `/competitions/${id}/draw`): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Live draw:');
  // When the winning number's step appears, by this machine's clock (both pages share it).
  await page.evaluate(() => {
    const seen = new MutationObserver(() => {
      if (document.querySelector('[data-step="number-1"]') && !('numberShownAt' in window)) {
        (window as unknown as { numberShownAt: number }).numberShownAt = Date.now();
        seen.disconnect();
      }
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  return page;
}

test('two viewers see the reveal in the same second, each checking it; a later visit shows the recorded draw and replays it', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const title = unique('Draw Room Hamper ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'A hamper drawn in the draw room.',
      ticketPrice: 1,
      totalTickets: 30,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // Open: the countdown to the close and the entries, live.
  const first = await viewer(browser, id);
  await expect(first.getByTestId('draw-room-entries')).toHaveText('0 tickets sold');
  await buyAsNewCustomer((await browser.newContext()).request, id, [4, 17, 22]);
  await expect(first.getByTestId('draw-room-entries')).toHaveText('3 tickets sold');

  const ended = await admin.request.put(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin.request),
    data: { status: 'ended' },
  });
  expect(ended.ok()).toBeTruthy();
  await expect(first.getByTestId('draw-room-closed')).toContainText('Entries are closed');
  const second = await viewer(browser, id);
  await expect(second.getByTestId('draw-room-closed')).toBeVisible();
  // A streamer's overlay: the same room in big type, on a transparent page with no navigation.
  const overlay = await viewer(browser, id, `/overlay/draw/${id}`);
  await expect(overlay.getByTestId('draw-room-closed')).toBeVisible();
  await expect(overlay.locator('header, nav, footer')).toHaveCount(0);
  expect(await overlay.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgba(0, 0, 0, 0)',
  );
  // Three watching: the two pages and the overlay, counted by the server and shown on each.
  for (const page of [first, second, overlay])
    await expect(page.getByTestId('draw-room-viewers')).toHaveText('3 watching now');

  const drawn = await admin.request.post(`/api/admin/competitions/${id}/draw`, {
    headers: await csrfHeaders(admin.request),
    data: {},
  });
  expect(drawn.ok()).toBeTruthy();
  for (const page of [first, second, overlay]) {
    const steps = page.getByTestId('reveal-steps');
    await expect(steps.locator('[data-step="winner-1"]')).toContainText('Won by ', { timeout: 30_000 });
    for (const step of ['round', 'seed', 'number-1'])
      await expect(steps.locator(`[data-step="${step}"]`)).toHaveAttribute('data-verdict', 'passed');
    await expect(steps.locator('[data-step="number-1"] h3')).toHaveText(/^The winning number: (4|17|22)$/);
  }
  const shownAt = await Promise.all(
    [first, second, overlay].map((p) =>
      p.evaluate(() => (window as unknown as { numberShownAt: number }).numberShownAt),
    ),
  );
  expect(Math.max(...shownAt) - Math.min(...shownAt)).toBeLessThan(1000);

  // A later visit: the recorded draw at once, checked, and a replay that runs the steps again.
  const later = await (await browser.newContext()).newPage();
  await later.goto(`/competitions/${id}/draw`);
  const steps = later.getByTestId('reveal-steps');
  await expect(steps.locator('[data-step="seed"]')).toHaveAttribute('data-verdict', 'passed');
  await expect(steps.locator('[data-step="round"] code')).toHaveText(/^[0-9a-f]{64}$/);
  await later.getByRole('button', { name: 'Replay the reveal' }).click();
  await expect(steps.locator('[data-step="winner-1"]')).toHaveCount(0);
  await expect(steps.locator('[data-step="winner-1"]')).toContainText('Won by ', { timeout: 20_000 });
});

test('the grid overlay shows the live grid with sold and held counts, on one chroma-key colour with ?chroma=1', async ({
  page,
  baseURL,
}) => {
  const { id, admin } = await ownCompetition(baseURL!);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`/overlay/grid/${id}?chroma=1`);
  const overlay = page.getByTestId('grid-overlay');
  await expect(overlay.getByTestId('entries-grid')).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(0, 177, 64)');
  await expect(page.locator('header, nav, footer')).toHaveCount(0);
  const heldBefore = Number((await overlay.getByTestId('overlay-held').textContent())!.split(' ')[0]);
  const [free] = await firstAvailable(page, 'entries-grid', 1);
  const other = await apiVisitor(baseURL!, id);
  expect((await other.hold([free!])).status()).toBe(201);
  await expect(overlay.getByTestId('overlay-held')).not.toHaveText(`${heldBefore} held`);
  await expect(overlay.locator(`[data-number="${free}"]`)).toHaveAttribute('data-state', 'reserved');
  await other.api.dispose();
  await admin.dispose();
});
