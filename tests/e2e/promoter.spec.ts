import { expect, test } from '@playwright/test';
import { waitForEmail } from '../support/accounts';
import { e2eDataDir, registerViaApi, signInViaApi } from './support';

// Issue 39 §2, who the promoter is: the admin fills in the promoter's details and the charities in
// Site Settings; the footer of every page (server-rendered too), the Terms, the home page and the
// e-mails then name them. The name and address are the ones pagesAndOrders.spec.ts saves, so the two
// specs agree whichever runs first.

const PROMOTER = {
  name: 'Westcountry Prizes Ltd',
  companyNumber: '09876543',
  address: '1 Quay Street\nTruro TR1 2AA',
  phone: '01632 960777',
  email: 'promoter@example.com',
};

test("the promoter's details and the charities set in Site Settings are named in the footer, the Terms and every e-mail", async ({
  browser,
  page,
}) => {
  test.slow(); // an admin session, a registration and several pages

  // The admin's Site Settings: the demo has filled the details in; the admin sets their own.
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  await admin.goto('/admin/site-settings');
  const operator = admin.getByTestId('operator-settings');
  await expect(operator.getByLabel('Company number')).not.toHaveValue('');
  await operator.getByLabel('Operator name').fill(PROMOTER.name);
  await operator.getByLabel('Company number').fill(PROMOTER.companyNumber);
  await operator.getByLabel('Operator address').fill(PROMOTER.address);
  await operator.getByLabel('Phone').fill(PROMOTER.phone);
  await operator.getByLabel('Email').fill(PROMOTER.email);
  await operator.getByRole('button', { name: 'Save operator details' }).click();
  await expect(admin.getByText('Operator details saved')).toBeVisible();

  // A company number in the wrong form is refused with the reason.
  await operator.getByLabel('Company number').fill('123');
  await operator.getByRole('button', { name: 'Save operator details' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Company number must be 8 characters');
  await operator.getByLabel('Company number').fill(PROMOTER.companyNumber);

  const charities = admin.getByTestId('charities-settings');
  await charities
    .getByLabel('Charities')
    .fill('Example Hospice Trust (e2e), 1234567\nExample Sea Rescue (e2e), SC012345');
  await charities.getByRole('button', { name: 'Save charities' }).click();
  await expect(admin.getByText('Charities saved')).toBeVisible();

  // The home page, as the server renders it for a visitor and as the browser shows it.
  const html = await (await page.request.get('/')).text();
  expect(html).toContain(PROMOTER.name);
  expect(html).toContain(PROMOTER.companyNumber);
  await page.goto('/');
  const footer = page.getByTestId('footer-promoter');
  await expect(footer).toContainText(`Competitions are run by ${PROMOTER.name}`);
  await expect(footer).toContainText(`company number ${PROMOTER.companyNumber}`);
  const named = page.getByTestId('home-charities');
  await expect(named).toContainText('Example Hospice Trust (e2e)');
  await expect(named).toContainText('Registered charity 1234567');
  await expect(named).toContainText('Registered charity SC012345');

  // Another page has it too, and the Terms name the promoter in full.
  await page.goto('/terms');
  await expect(page.getByTestId('footer-promoter')).toContainText(PROMOTER.companyNumber);
  const terms = page.getByTestId('promoter-facts');
  for (const text of [
    PROMOTER.name,
    `registered under number ${PROMOTER.companyNumber}`,
    '1 Quay Street, Truro TR1 2AA',
    `telephone ${PROMOTER.phone}`,
    PROMOTER.email,
  ])
    await expect(terms).toContainText(text);
  await expect(page.getByText('family-run business based in the South West')).toHaveCount(0);

  // Every e-mail names the promoter at its foot: a new customer's confirmation e-mail.
  const customer = await browser.newContext();
  const username = await registerViaApi(customer.request, { prefix: 'pr' });
  const mail = await waitForEmail(e2eDataDir, `${username}@example.co.uk`, 'Promoter:');
  for (const text of [
    `Promoter: ${PROMOTER.name}`,
    `Company number ${PROMOTER.companyNumber}`,
    '1 Quay Street, Truro TR1 2AA',
    `Phone ${PROMOTER.phone}`,
    PROMOTER.email,
  ])
    expect(mail).toContain(text);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the footer names the promoter and the Terms give every detail, within 390 px', async ({ page }) => {
    // Whichever details are set (the demo's, or the other test's): all five, never blank.
    await page.goto('/terms');
    const footer = page.getByTestId('footer-promoter');
    await expect(footer).toContainText('Competitions are run by');
    await expect(footer).toContainText(/company number \w{8}/);
    const terms = page.getByTestId('promoter-facts');
    await expect(terms).toContainText(/registered under number \w{8}/);
    await expect(terms).toContainText(/telephone 0\d/);
    await expect(terms).toContainText('@');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
