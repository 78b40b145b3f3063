import { expect, test } from '@playwright/test';
import { competitionId } from './support';

// Sharing a competition: the page served to a link-preview crawler carries its card (Open Graph,
// X, canonical, JSON-LD), its 1200×630 picture loads, and 'Share' copies the link where the
// browser has no share sheet (desktop Chromium here).
test('a competition link previews with its card and picture, and Share copies its link', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const id = await competitionId(page.request, 'Carbon Road Bike');

  const html = await (await page.request.get(`/competitions/${id}`)).text();
  const head = html.slice(0, html.indexOf('</head>'));
  expect(head).toContain('<meta property="og:title" content="Carbon Road Bike" />');
  expect(head).toMatch(/<link rel="canonical" href="[^"]+\/competitions\/\d+" \/>/);
  expect(head).toContain('"@type":"Product"');
  const image = /<meta property="og:image" content="([^"]+)" \/>/.exec(head)![1]!;
  const picture = await page.request.get(new URL(image).pathname);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/jpeg');

  await page.goto(`/competitions/${id}`);
  await page.getByRole('button', { name: 'Share Carbon Road Bike' }).click();
  await expect(page.getByTestId('toast')).toContainText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/competitions/${id}`);
});
