import { expect, test } from '@playwright/test';
import { csrfHeaders, signInViaApi, unique } from './support';

// Duplicate and relist (docs/product.md#drafts-and-scheduled-launches): Relist on an ended
// competition makes a new draft and opens its admin page.

test('Relist on an ended competition opens the new draft', async ({ browser }) => {
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const headers = await csrfHeaders(admin.request);
  const title = unique('Relist Hamper ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers,
    data: {
      title,
      description: 'A hamper worth running again.',
      ticketPrice: 1,
      totalTickets: 40,
      endDate: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const ended = await admin.request.put(`/api/admin/competitions/${id}`, {
    headers,
    data: { status: 'ended' },
  });
  expect(ended.ok()).toBeTruthy();

  await admin.goto('/admin/competitions');
  await admin.getByRole('tab', { name: /^Ended/ }).click();
  await expect(admin.getByRole('button', { name: `Duplicate ${title}` })).toHaveCount(0);
  await admin.getByRole('button', { name: `Relist ${title}` }).click();

  await expect(admin.getByTestId('toast')).toContainText('Relisted as a draft');
  await expect(admin).toHaveURL(/\/admin\/competitions\/\d+$/);
  const copyId = Number(new URL(admin.url()).pathname.split('/').pop());
  expect(copyId).not.toBe(id);
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(admin.getByTestId('admin-competition-status')).toHaveText('draft');

  // The source is untouched: still ended, under the Ended tab.
  const source = await admin.request.get(`/api/admin/competitions/${id}`);
  expect((await source.json()).status).toBe('ended');
});
