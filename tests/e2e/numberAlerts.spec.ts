import { expect, test } from '@playwright/test';
import { apiVisitor, firstAvailable, openSelector, ownCompetition } from './support';

// "Tell me when a number frees up": a number someone else holds, asked about from the selector's
// search; when the holder lets it go, this page (and only this visitor) is told and can hold it
// with one press.
test('a visitor waiting on a held number is told when it frees up and holds it in one press', async ({
  page,
  baseURL,
}) => {
  const { id, admin } = await ownCompetition(baseURL!);
  await page.goto(`/competition/${id}`);
  const selector = await openSelector(page);
  const [n] = await firstAvailable(page, 'selector-grid', 1);
  const other = await apiVisitor(baseURL!, id);
  const held = await other.hold([n!]);
  expect(held.status()).toBe(201);
  const cell = selector.getByTestId('selector-grid').locator(`[data-number="${n}"]`);
  await expect(cell).toHaveAttribute('data-state', 'reserved');

  await selector.getByRole('searchbox', { name: 'Search numbers' }).fill(String(n));
  const alert = selector.getByTestId('held-number-alert');
  await expect(alert).toContainText(`Number ${n} is held by someone else right now.`);
  await alert.getByRole('button', { name: `Tell me when ${n} is free` }).click();
  await expect(alert).toContainText("We'll tell you when it's free.");
  await selector.getByRole('button', { name: 'Cancel' }).click();

  const item = await held.json();
  await other.api.delete(`/api/cart/${item.id}`, { headers: other.headers });
  const notice = page.getByTestId('freed-numbers');
  await expect(notice).toContainText(`Number ${n} is free again`);
  await notice.getByRole('button', { name: `Hold number ${n}` }).click();
  await expect(page.getByTestId('added-dialog')).toContainText('1 ticket for');
  await expect(notice).not.toContainText(`Number ${n} is free again`);
  const cart: Array<{ competitionId: number; heldNumbers: number[] }> = await (
    await page.request.get('/api/cart')
  ).json();
  expect(cart.find((i) => i.competitionId === id)?.heldNumbers).toContain(n);
  await other.api.dispose();
  await admin.dispose();
});
