import { expect, test } from '@playwright/test';
import { csrfHeaders, signInViaApi, unique } from './support';

// Issue 18 part 3 in the browser: an admin edits the competition's skill question pool, a visitor
// sees the odds and facts, gets the pool's question, and runs out of attempts.

test('the admin edits the pool; a visitor sees the facts, and wrong answers count down to the limit', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const admin = await (await browser.newContext()).newPage();
  await signInViaApi(admin.request, 'admin', 'admin123');
  const title = unique('Skill Pool Hamper ');
  const created = await admin.request.post('/api/admin/competitions', {
    headers: await csrfHeaders(admin.request),
    data: {
      title,
      description: 'A hamper of Cornish treats.',
      ticketPrice: 1,
      totalTickets: 2500,
      maxTicketsPerUser: 25,
      cashAlternative: 150,
      endDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      details: { category: 'Cash' },
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).id as number;

  // The pool, through the admin form: a question with 2 options is refused, 3 are saved.
  await admin.goto('/admin/competitions');
  await admin.getByRole('button', { name: `Edit ${title}` }).click();
  const form = admin.getByTestId('competition-dialog');
  await expect(form.getByTestId('skill-pool')).toContainText('How many days in a typical year?');
  await form.getByRole('button', { name: 'Add a question' }).click();
  await form.getByLabel('Question 1', { exact: true }).fill('Which county is Truro in?');
  await form.getByLabel('Answer options for question 1 (one per line, 3 or 4)').fill('Cornwall\nDevon');
  await form.getByLabel('Correct answer to question 1').selectOption('Cornwall');
  await form.getByRole('button', { name: 'Update Competition' }).click();
  await expect(form.getByText('Give 3 or 4 answer options')).toBeVisible();
  await form
    .getByLabel('Answer options for question 1 (one per line, 3 or 4)')
    .fill('Cornwall\nDevon\nDorset');
  await form.getByLabel('Correct answer to question 1').selectOption('Cornwall');
  await form.getByRole('button', { name: 'Update Competition' }).click();
  await expect(admin.getByTestId('toast').filter({ hasText: 'Competition updated' })).toBeVisible();
  await admin.goto(`/admin/competitions/${id}`);
  await expect(admin.getByTestId('admin-skill-questions')).toContainText(
    'Which county is Truro in? (Cornwall, Devon, Dorset; answer: Cornwall)',
  );

  const page = await (await browser.newContext()).newPage();
  await page.goto(`/competition/${id}`);
  const facts = page.getByTestId('odds-facts');
  await expect(facts.getByTestId('fact-odds')).toHaveText('1 in 2,500 per entry at most');
  await expect(facts.getByTestId('fact-cap')).toHaveText('25 entries');
  await expect(facts.getByTestId('fact-cash')).toHaveText('£150.00');
  await expect(facts.getByTestId('fact-draw-date')).toHaveText(
    await page.getByTestId('end-date').innerText(),
  );
  await expect(facts.getByRole('link', { name: 'Enter for free by post' })).toHaveAttribute(
    'href',
    '#free-entry',
  );

  await page.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = page.getByTestId('skill-dialog');
  await expect(dialog.getByRole('group', { name: 'Which county is Truro in?' })).toBeVisible();
  await dialog.getByLabel('Devon').check();
  await dialog.getByRole('button', { name: 'Submit Answer' }).click();
  await expect(dialog.getByText('Incorrect')).toBeVisible();
  await expect(dialog.getByTestId('skill-attempts-left')).toHaveText('You have 1 attempt left.');
  await dialog.getByRole('button', { name: 'Try Again' }).click();
  await dialog.getByLabel('Dorset').check();
  await dialog.getByRole('button', { name: 'Submit Answer' }).click();
  await expect(dialog.getByTestId('skill-locked')).toHaveText(
    /^You have used all 2 attempts at this skill question\. You can try again after \d\d:\d\d on \d{1,2} \w+ \d{4} \(UK time\)\.$/,
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  // Asking again shows the limit at once, and nothing was held.
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(dialog.getByText('No attempts left')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submit Answer' })).toHaveCount(0);
  expect(await (await page.request.get('/api/cart')).json()).toEqual([]);

  // Nothing sold: removed, so the public lists other tests count stay as they were.
  const removed = await admin.request.delete(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin.request),
  });
  expect(removed.ok()).toBeTruthy();
});
