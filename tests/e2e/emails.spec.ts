import { expect, test } from '@playwright/test';
import { csrfHeaders, fillRegistration, registerViaApi, signInViaApi, unique } from './support';

// Marketing consent from the registration box to My Account > Privacy, and the admin's
// 'E-mails sent' answering "I never got my e-mail".

test('the marketing box is unticked at registration; Privacy in My Account shows and changes the choice', async ({
  page,
}) => {
  test.slow(); // registration hashes a password; the shared test machine can be slow
  const username = unique('mk');
  await page.goto('/auth?tab=register');
  const box = page.getByLabel(/Send me e-mails about new competitions and offers/);
  await expect(box).not.toBeChecked();
  await fillRegistration(page, username);
  await box.check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByTestId('toast')).toContainText(`Welcome, ${username}!`);

  await page.goto('/profile');
  const privacy = page.getByRole('region', { name: 'Privacy' });
  await expect(privacy.getByRole('heading', { name: 'Marketing e-mails' })).toBeVisible();
  const consent = privacy.getByLabel('Send me e-mails about new competitions and offers');
  await expect(consent).toBeChecked();
  await consent.uncheck();
  await expect(page.getByTestId('toast')).toContainText('Marketing e-mails turned off');
  await expect(privacy.getByRole('status')).toContainText('Saved on');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Privacy' }).getByLabel(/Send me e-mails/)).not.toBeChecked();
});

test("an admin finds a customer's order confirmation in 'E-mails sent'", async ({ browser, baseURL }) => {
  test.slow(); // a purchase and an admin session in one test
  // A customer buys one Lucky Dip ticket with the sandbox card, through the API.
  const customer = await browser.newContext({ baseURL });
  const username = await registerViaApi(customer.request, { prefix: 'em' });
  const headers = await csrfHeaders(customer.request);
  const competitions: Array<{ id: number; status: string; ticketPrice: number }> = await (
    await customer.request.get('/api/competitions')
  ).json();
  // A ticket a card can pay for: card payments start at £0.30.
  const id = competitions.find((c) => c.status === 'active' && c.ticketPrice >= 0.3)!.id;
  await customer.request.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const held = await customer.request.post('/api/cart', {
    data: { competitionId: id, quantity: 1 },
    headers,
  });
  expect(held.status()).toBe(201);
  const intent = await (
    await customer.request.post('/api/create-payment-intent', { data: {}, headers })
  ).json();
  const paid = await customer.request.post('/api/payments/sandbox/confirm', {
    data: {
      clientSecret: intent.clientSecret,
      cardNumber: '4000056655665556', // a debit card: the competition may have instant wins
      expMonth: '12',
      expYear: '34',
      cvc: '123',
    },
    headers,
  });
  expect(paid.status(), await paid.text()).toBe(200);

  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  await admin.goto('/admin');
  await admin.getByRole('link', { name: /E-mails sent/ }).click();
  await expect(admin).toHaveURL(/\/admin\/emails$/);
  await expect(admin.getByRole('heading', { name: 'E-mails sent' })).toBeVisible();
  await admin.getByLabel('Recipient').fill(`${username}@example.co.uk`);
  await admin.getByRole('button', { name: 'Search' }).click();
  // Newest first: the order confirmation, then the confirmation link sent at registration.
  const rows = admin.getByTestId('email-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(`${username}@example.co.uk`);
  await expect(rows.first()).toContainText(`order ${intent.orderNumber} is confirmed`);
  await expect(rows.first()).toContainText('sent');
  await expect(rows.nth(1)).toContainText('Please confirm your e-mail address');

  // A customer cannot open it: the page sends them home.
  const nosy = await customer.newPage();
  await nosy.goto('/admin/emails');
  await expect(nosy).toHaveURL(/\/$/);
});
