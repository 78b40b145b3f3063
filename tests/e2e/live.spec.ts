import { expect, test } from '@playwright/test';
import { apiVisitor, competitionId, entriesGrid } from './support';

test("a watcher's grid shows another visitor's hold and release live, and its own holds as its own", async ({
  page,
  baseURL,
}) => {
  const id = await competitionId(page.request, 'Carbon Road Bike');
  const entries: Array<{ ticketNumbers: number[] }> = await (
    await page.request.get(`/api/competitions/${id}/entries`)
  ).json();
  const sold = new Set(entries.flatMap((e) => e.ticketNumbers));
  const free = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((n) => !sold.has(n)).slice(0, 2);

  await page.goto(`/competition/${id}`);
  const grid = await entriesGrid(page);
  const cell = (n: number) => grid.locator(`[data-number="${n}"]`);
  await expect(cell(free[0]!)).toHaveAttribute('data-state', 'available');

  const other = await apiVisitor(baseURL!, id);
  const held = await other.hold([free[0]!]);
  expect(held.status()).toBe(201);
  await expect(cell(free[0]!)).toHaveAttribute('data-state', 'reserved', { timeout: 1500 });
  await expect(cell(free[0]!)).toHaveAttribute('title', /temporarily reserved by another user/);

  const item = await held.json();
  await other.api.delete(`/api/cart/${item.id}`, { headers: other.headers });
  await expect(cell(free[0]!)).toHaveAttribute('data-state', 'available', { timeout: 1500 });

  // A hold made with this page's own session shows as the visitor's own.
  const csrf = (await (await page.request.get('/api/csrf-token')).json()).csrfToken;
  await page.request.post(`/api/competitions/${id}/skill-answer`, {
    data: { answer: '365' },
    headers: { 'X-CSRF-Token': csrf },
  });
  const mine = await page.request.post('/api/cart', {
    data: { competitionId: id, quantity: 1, selectedNumbers: [free[1]] },
    headers: { 'X-CSRF-Token': csrf },
  });
  expect(mine.status()).toBe(201);
  await expect(cell(free[1]!)).toHaveAttribute('data-state', 'mine', { timeout: 1500 });
  await other.api.dispose();
});
