import { expect, type Page, test } from '@playwright/test';
import { csrfHeaders, ownCompetition } from './support';

// A fair queue for hot launches (docs/draws.md#launch-queue): two pages join before the opening,
// the server's own one-second tick shuffles them at the opening by the committed seed and lets
// them in one a second (the admin's rate), and each page is admitted in its shuffled place. The
// banners of each state are the component test's (tests/components/launchQueue.test.tsx).

test('a launch queue admits two pages in their shuffled order', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // Within the joining window, far enough ahead for two pages to load and join on a busy machine.
  const { id, admin } = await ownCompetition(baseURL!, {
    startsAt: new Date(Date.now() + 5 * 60_000).toISOString(),
    launchQueue: true,
  });
  const rate = await admin.put(`/api/admin/competitions/${id}/queue`, {
    headers: await csrfHeaders(admin),
    data: { admitPerSecond: 1 },
  });
  expect(rate.status()).toBe(200);

  const pages: Array<{ page: Page; entryId: number }> = [];
  for (let i = 0; i < 2; i++) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`/competitions/${id}`);
    await expect(page.getByTestId('launch-queue')).toBeVisible();
    const joined = page.waitForResponse((r) => r.url().endsWith(`/api/competitions/${id}/queue`));
    await page.getByRole('button', { name: 'Join the queue' }).click();
    const answer = await (await joined).json();
    expect(answer).toMatchObject({ status: 'waiting' });
    await expect(page.getByTestId('queue-waiting')).toContainText("You're in the queue.");
    pages.push({ page, entryId: answer.entryId });
  }
  // Both joined: the admin brings the opening forward to a moment from now.
  const moved = await admin.put(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin),
    data: { startsAt: new Date(Date.now() + 2000).toISOString() },
  });
  expect(moved.status()).toBe(200);

  // Each page leaves the queue when it is let in: the first one a second before the second. (The
  // queue then empties and the competition opens to all, so the 'You're in' banner of the one let
  // in last may show only for a moment; the moment the queue panel goes is what is compared.)
  const admittedAt = pages.map(async ({ page }) => {
    await page.getByTestId('launch-queue').waitFor({ state: 'hidden', timeout: 45_000 });
    return Date.now();
  });
  const times = await Promise.all(admittedAt);
  for (const { page } of pages) {
    await expect(page.getByRole('button', { name: 'Select Lucky Numbers' })).toBeVisible();
  }

  // The order anyone can check: the page in position 1 was let in first.
  const order = await (await admin.get(`/api/competitions/${id}/queue/order`)).json();
  const positionOf = (entryId: number) =>
    order.entries.find((e: { entryId: number }) => e.entryId === entryId).position as number;
  const [first, second] = [...pages.keys()].sort(
    (a, b) => positionOf(pages[a]!.entryId) - positionOf(pages[b]!.entryId),
  );
  expect(order.entries.map((e: { joinedBeforeOpening: boolean }) => e.joinedBeforeOpening)).toEqual([
    true,
    true,
  ]);
  expect(times[first!]!).toBeLessThan(times[second!]!);
});
