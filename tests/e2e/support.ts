import { type APIRequestContext, expect, type Page, request } from '@playwright/test';

/** The id of a demo competition by its title. */
export async function competitionId(api: APIRequestContext, title: string): Promise<number> {
  const list: Array<{ id: number; title: string }> = await (await api.get('/api/competitions')).json();
  const found = list.find((c) => c.title === title);
  if (!found) throw new Error(`No demo competition titled ${title}`);
  return found.id;
}

/** A visitor acting only through the API (its own cookies), with the skill question answered. */
export async function apiVisitor(baseURL: string, id: number) {
  const api = await request.newContext({ baseURL });
  const { csrfToken } = await (await api.get('/api/csrf-token')).json();
  const headers = { 'X-CSRF-Token': csrfToken };
  await api.post(`/api/competitions/${id}/skill-answer`, { data: { answer: '365' }, headers });
  const hold = (selectedNumbers: number[]) =>
    api.post('/api/cart', {
      data: { competitionId: id, quantity: selectedNumbers.length, selectedNumbers },
      headers,
    });
  return { api, headers, hold };
}

/** Answers the open skill question correctly and waits for the modal to move on. */
export async function answerSkillQuestion(page: Page) {
  const dialog = page.getByTestId('skill-dialog');
  await dialog.getByLabel('365').check();
  await dialog.getByRole('button', { name: 'Submit Answer' }).click();
  await expect(dialog.getByText('Correct! Proceeding...')).toBeVisible();
}

/** Opens 'Select Lucky Numbers' (answering the question) and returns the selector dialog. */
export async function openSelector(page: Page) {
  await page.getByRole('button', { name: 'Select Lucky Numbers' }).click();
  await answerSkillQuestion(page);
  const selector = page.getByTestId('number-selector');
  await expect(selector.getByRole('heading', { name: 'Select Your Lucky Numbers' })).toBeVisible();
  await expect(selector.getByTestId('selector-grid')).toBeVisible();
  return selector;
}

/** The numbers of the first `count` available cells in view of a grid. */
export async function firstAvailable(page: Page, testId: string, count: number): Promise<number[]> {
  const cells = page.getByTestId(testId).locator('[data-state="available"]');
  await expect(cells.nth(count - 1)).toBeVisible();
  const numbers: number[] = [];
  for (let i = 0; i < count; i++) numbers.push(Number(await cells.nth(i).getAttribute('data-number')));
  return numbers;
}

export const domNodeCount = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);
