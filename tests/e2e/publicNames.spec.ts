import { expect, test } from '@playwright/test';
import { buyAsNewCustomer, entriesGrid, ownCompetition, unique } from './support';

// Public names (docs/product.md#public-names-and-winner-stories): a customer chooses a nickname
// in My Profile, and the competition's entries list and the grid's hover text name them by it.

test('a nickname chosen in My Profile names the entrant in the entries list and the grid', async ({
  browser,
  baseURL,
}) => {
  test.slow();
  const { id, admin } = await ownCompetition(baseURL!);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  // Jory P. buys number 7 (the page's context, so the page is signed in as them).
  await buyAsNewCustomer(page.request, id, [7], 'pn');

  await page.goto('/profile');
  const card = page.getByRole('form', { name: 'Public name' });
  await expect(card.getByTestId('public-name-shown')).toHaveText('Jory P.');
  await expect(card.getByLabel('My first name and initial (Jory P.)')).toBeChecked();
  await card.getByLabel('A nickname').check();
  const nickname = unique('Pip');
  await card.getByRole('textbox', { name: 'Nickname' }).fill(`  ${nickname} `);
  await card.getByRole('button', { name: 'Save public name' }).click();
  await expect(card.getByTestId('public-name-shown')).toHaveText(nickname);

  // Anyone else sees the nickname, never the name.
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto(`/competitions/${id}`);
  const holders = visitor.getByRole('list', { name: 'Ticket holders' });
  await expect(holders).toContainText(nickname);
  await expect(holders).not.toContainText('Jory P.');
  const grid = await entriesGrid(visitor);
  await expect(grid.locator('[data-number="7"]')).toHaveAttribute('title', new RegExp(`by ${nickname}`));

  // Back to the default: the list says Jory P. again.
  await card.getByLabel('My first name and initial (Jory P.)').check();
  await card.getByRole('button', { name: 'Save public name' }).click();
  await expect(card.getByTestId('public-name-shown')).toHaveText('Jory P.');
  await visitor.reload();
  await expect(visitor.getByRole('list', { name: 'Ticket holders' })).toContainText('Jory P.');

  await admin.dispose();
  await context.close();
  await visitor.context().close();
});
