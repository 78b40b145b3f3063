import { expect, request, test } from '@playwright/test';
import { buyAsNewCustomer, ownCompetition, socketConnected } from './support';

// Cancel and refund (docs/product.md#minimum-sales-and-cancellation): the admin cancels a
// competition with a reason; the refund's progress bar fills live over the admins' room, and an
// open public page of the competition turns to 'Cancelled' with the reason, without a reload.

test('cancelling a competition refunds its orders with live progress; its open page says why', async ({
  browser,
  baseURL,
}) => {
  const { id, admin } = await ownCompetition(baseURL!, {
    minTicketsSold: 50,
    extendByDays: 5,
    maxExtensions: 1,
  });
  for (const numbers of [[1, 2], [3], [4, 5]]) {
    const buyer = await request.newContext({ baseURL });
    await buyAsNewCustomer(buyer, id, numbers, 'br');
    await buyer.dispose();
  }

  const visitor = await (await browser.newContext()).newPage();
  const live = socketConnected(visitor);
  await visitor.goto(`/competitions/${id}`);
  await live;
  await expect(visitor.getByTestId('fact-minimum')).toContainText(
    'needs at least 50 tickets sold by its end date',
  );

  const page = await (await browser.newContext({ storageState: await admin.storageState() })).newPage();
  const adminLive = socketConnected(page);
  await page.goto(`/admin/competitions/${id}`);
  await adminLive;
  await page.getByRole('button', { name: 'Cancel and refund' }).click();
  const dialog = page.getByTestId('cancel-competition-dialog');
  await dialog.getByLabel('Reason (shown on the page and in the e-mail)').fill('The prize supplier withdrew');
  await dialog.getByRole('button', { name: 'Cancel and refund' }).click();

  const progress = page.getByTestId('refund-progress');
  await expect(progress).toContainText('Every order refunded: 3 of 3');
  await expect(progress.getByRole('progressbar')).toHaveAttribute('value', '3');

  await expect(visitor.getByTestId('cancelled-notice')).toHaveText(
    'Cancelled: The prize supplier withdrew. Every entry has been refunded.',
  );
  await expect(visitor.getByText('Cancelled', { exact: true })).toBeVisible();
});
