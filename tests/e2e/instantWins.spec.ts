import { expect, test } from '@playwright/test';
import { csrfHeaders, payWithCard, registerViaApi, signInViaApi, unique } from './support';

// Instant wins on the customer's screens (docs/product.md): the buyer of an instant-win number is
// told 'You won instantly!' on the confirmation and in My Entries; another visitor watching the
// competition sees the prize won, with its number, without a reload. A credit card is refused
// first, with the server's message.

test('buying an instant-win number: the buyer wins instantly, a watcher sees it won live', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const title = unique('Instant Win Test ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'One instant prize on number 5.',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 3_600_000).toISOString(),
      details: { category: 'Cash' },
      instantWins: [{ title: '£5 site credit', kind: 'credit', amountPence: 500, numbers: [5] }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // The watcher: the prize is still to be won and its number is nowhere on the page.
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(`/competition/${id}`);
  const panel = watcher.getByTestId('instant-wins');
  await expect(panel.getByRole('heading', { name: 'Instant wins' })).toBeVisible();
  await expect(panel.getByTestId('instant-win')).toHaveText(['£5 site credit' + 'Still to be won']);
  await expect(panel.getByTestId('instant-win-commitment')).toHaveText(/^[0-9a-f]{64}$/);

  // The buyer holds number 5 and pays with the debit sandbox card (credit cards are refused).
  const buyer = await (await browser.newContext()).newPage();
  await registerViaApi(buyer.request, { prefix: 'iw', firstName: 'Tamsin', lastName: 'Rowe' });
  const headers = await csrfHeaders(buyer.request);
  await buyer.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await buyer.request.post('/api/cart', {
    data: { competitionId: id, quantity: 1, selectedNumbers: [5] },
    headers,
  });
  expect(held.status()).toBe(201);
  await buyer.goto('/cart');
  await buyer.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = buyer.getByTestId('checkout-dialog');
  await expect(dialog.getByRole('heading', { name: 'Complete Your Purchase' })).toBeVisible();
  await payWithCard(dialog, '4242 4242 4242 4242');
  await expect(dialog.getByRole('form', { name: 'Card details' }).getByRole('alert')).toHaveText(
    'Credit cards cannot be used for instant win competitions. Use a debit card or site credit.',
  );
  await payWithCard(dialog, '4000 0566 5566 5556');
  await expect(buyer).toHaveURL(/\/confirmation\/\d+$/);
  const won = buyer.getByTestId('instant-won');
  await expect(won.getByRole('heading', { name: 'You won instantly!' })).toBeVisible();
  await expect(won).toContainText('£5 site credit with ticket #5');

  // The watcher's panel shows number 5 won, by the buyer's published name, without a reload.
  await expect(panel.getByTestId('instant-win')).toHaveText([/£5 site credit\s*Won with ticket #5 by /]);

  // My Entries marks the purchase.
  await buyer.goto('/my-competitions');
  await expect(buyer.getByTestId('entry-instant-won')).toContainText(
    'You won £5 site credit instantly with ticket #5',
  );

  // After the close the salt is revealed and the browser checks the list against the commitment.
  const ended = await admin.request.put(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin.request),
    data: { status: 'ended' },
  });
  expect(ended.ok(), await ended.text()).toBeTruthy();
  await watcher.reload();
  await panel.getByRole('button', { name: 'Check the instant wins' }).click();
  await expect(panel.getByTestId('instant-wins-verdict')).toHaveText(
    '✔ Passed: the 1 revealed instant-win numbers match the commitment published before sales opened.',
  );
});
