import { expect, test } from '@playwright/test';
import { buyAsNewCustomer, csrfHeaders, ownCompetition, signInViaApi, unique } from './support';

// Winner stories (docs/product.md#public-names-and-winner-stories): the admin adds the winner's
// photo and quote with the publicity tick on the winner panel; /winners shows them in its gallery,
// the winner named by their public-name choice.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test("the admin's winner story, with the publicity tick, shows in the /winners gallery", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const {
    id,
    title,
    admin: adminApi,
  } = await ownCompetition(baseURL!, {
    endDate: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const customer = await browser.newContext({ baseURL });
  await buyAsNewCustomer(customer.request, id, [4], 'ws');
  const nickname = unique('Star');
  const named = await customer.request.put('/api/account/public-name', {
    headers: await csrfHeaders(customer.request),
    data: { mode: 'nickname', nickname },
  });
  expect(named.ok(), await named.text()).toBeTruthy();
  const headers = await csrfHeaders(adminApi);
  expect(
    (await adminApi.put(`/api/admin/competitions/${id}`, { headers, data: { status: 'ended' } })).ok(),
  ).toBe(true);
  const drawn = await adminApi.post(`/api/admin/competitions/${id}/draw`, { headers, data: {} });
  expect(drawn.status(), await drawn.text()).toBeLessThan(300);
  await expect
    .poll(async () => (await (await adminApi.get(`/api/competitions/${id}`)).json()).draw?.winnerName, {
      timeout: 30_000,
    })
    .toBe(nickname);

  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  await admin.goto(`/admin/competitions/${id}`);
  const story = admin.getByRole('form', { name: 'Winner: winner story' });
  await story
    .getByLabel("Winner's photo")
    .setInputFiles({ name: 'winner.png', mimeType: 'image/png', buffer: PNG });
  await expect(story.getByAltText("Winner: winner's photo")).toBeVisible();
  await story.getByLabel("Winner's quote").fill('I never win anything, and then I did!');
  // Without the tick nothing is saved.
  await story.getByRole('button', { name: 'Save story' }).click();
  await expect(story.getByRole('alert')).toContainText("tick 'Winner agreed to publicity'");
  await story.getByLabel('Winner agreed to publicity').check();
  await story.getByRole('button', { name: 'Save story' }).click();
  await expect(story.getByText(/^Ticked by admin on /)).toBeVisible();

  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto('/winners');
  const gallery = visitor.getByRole('region', { name: 'Winner stories' });
  const card = gallery.getByTestId('winner-story').filter({ hasText: title });
  await expect(card).toContainText('I never win anything, and then I did!');
  await expect(card).toContainText(`${nickname}, winner of ${title}`);
  await expect(card.getByRole('img', { name: `${nickname}, winner of ${title}` })).toBeVisible();

  await adminApi.dispose();
  await customer.close();
  await admin.context().close();
  await visitor.context().close();
});
