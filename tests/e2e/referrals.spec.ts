import { expect, test } from '@playwright/test';
import {
  confirmEmailViaApi,
  csrfHeaders,
  fillRegistration,
  ownCompetition,
  registerViaApi,
  unique,
} from './support';

// Referrals (docs/product.md#referrals): the link from My Profile, opened by a new visitor who
// browses on and registers; the referral is recorded, and once the new customer has paid £5 and
// confirmed their address, the referrer's profile shows the credit earned.

test('a referral link: landing, registration, the referral recorded and rewarded in site credit', async ({
  browser,
  baseURL,
}) => {
  test.slow();
  const referrerContext = await browser.newContext({ baseURL });
  await referrerContext.grantPermissions(['clipboard-read', 'clipboard-write']);
  const referrer = await referrerContext.newPage();
  // No share sheet in a headless browser: Share copies the link.
  await referrer.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
  });
  await registerViaApi(referrer.request, { prefix: 'rf' });
  await referrer.goto('/profile');
  const section = referrer.getByTestId('referral-section');
  const linkBox = section.getByLabel('Your referral link');
  await expect(linkBox).toHaveValue(/\/\?ref=[A-Z2-9]{8}$/);
  const link = new URL(await linkBox.inputValue());
  await expect(section.getByTestId('referral-earned')).toHaveText('Nobody has joined with your link yet.');
  await section.getByRole('button', { name: 'Share' }).click();
  await expect(referrer.getByText('Link copied')).toBeVisible();

  // A new visitor lands on the link, looks around, then registers.
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto(`${link.pathname}${link.search}`);
  const code = link.searchParams.get('ref');
  await expect.poll(() => visitor.evaluate(() => sessionStorage.getItem('referralCode'))).toBe(code);
  await visitor.goto('/competitions');
  await visitor.goto('/auth?tab=register');
  const username = unique('rd');
  await fillRegistration(visitor, username);
  await visitor.getByRole('button', { name: 'Create Account' }).click();
  await expect(visitor).not.toHaveURL(/\/auth/);

  await referrer.reload();
  await expect(section.getByTestId('referral-earned')).toHaveText(
    '1 person has joined with your link. You have earned £0.00 in site credit.',
  );

  // The new customer pays £5 (before confirming, so no welcome credit pays part of it) and then
  // confirms their address: the referrer earns £5.00.
  const { id } = await ownCompetition(baseURL!, { ticketPrice: 5 });
  const api = visitor.request;
  const headers = await csrfHeaders(api);
  await api.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await api.post('/api/cart', { data: { competitionId: id, quantity: 1 }, headers });
  expect(held.status()).toBe(201);
  const intent = await api.post('/api/create-payment-intent', { data: {}, headers });
  expect(intent.ok()).toBeTruthy();
  const paid = await api.post('/api/payments/sandbox/confirm', {
    data: {
      clientSecret: (await intent.json()).clientSecret,
      cardNumber: '4000056655665556',
      expMonth: '12',
      expYear: '34',
      cvc: '123',
    },
    headers,
  });
  expect(paid.ok(), await paid.text()).toBeTruthy();
  await confirmEmailViaApi(api, `${username}@example.co.uk`);

  await referrer.reload();
  await expect(section.getByTestId('referral-earned')).toHaveText(
    '1 person has joined with your link. You have earned £5.00 in site credit.',
  );
  await expect(referrer.getByText('Referral reward')).toBeVisible();
});
