import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoAxeViolations } from './axe';
import { csrfHeaders, ownCompetition, signInViaApi } from './support';

// Prize galleries (docs/product.md#prize-galleries): the competition page's pictures swipe on a
// phone, step with the buttons and arrow keys on a desktop, open full screen and close with
// Escape (focus back where it was), in a fixed box that never shifts the page.

const COLOURS = [
  { r: 200, g: 30, b: 30 },
  { r: 30, g: 140, b: 60 },
  { r: 30, g: 60, b: 200 },
];
const ALTS = ['The red roadster from the front', 'The green interior', 'The blue paintwork'];

/** Three uploaded JPEGs (variants made by the server), set as the competition's gallery. */
async function galleryCompetition(baseURL: string) {
  const { id, title, admin } = await ownCompetition(baseURL);
  const images = [];
  for (const [i, background] of COLOURS.entries()) {
    const buffer = await sharp({ create: { width: 1200, height: 900, channels: 3, background } })
      .jpeg()
      .toBuffer();
    images.push({ url: await upload(admin, buffer, `picture-${i}.jpg`), alt: ALTS[i]! });
  }
  const set = await admin.put(`/api/admin/competitions/${id}`, {
    headers: await csrfHeaders(admin),
    data: { images },
  });
  expect(set.status(), await set.text()).toBe(200);
  return { id, title, images };
}

async function upload(admin: APIRequestContext, buffer: Buffer, name: string) {
  const res = await admin.post('/api/admin/upload-image', {
    headers: await csrfHeaders(admin),
    multipart: { image: { name, mimeType: 'image/jpeg', buffer } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { imageUrl: string }).imageUrl;
}

const gallery = (page: Page) => page.getByRole('region', { name: /^Pictures of / });
const counter = (page: Page) => page.getByTestId('gallery-counter');

/** Which slide fills the track: its scroll position in slide widths (snap settles on a whole one). */
const slideShown = (page: Page) =>
  gallery(page)
    .getByRole('group', { name: 'Pictures' })
    .evaluate((t) => Math.round(t.scrollLeft / t.clientWidth) + 1);

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a swipe moves to the next picture and back', async ({ page, baseURL }) => {
    const { id } = await galleryCompetition(baseURL!);
    await page.goto(`/competitions/${id}`);
    const track = gallery(page).getByRole('group', { name: 'Pictures' });
    await expect(counter(page)).toHaveText('1 of 3');
    const box = (await track.boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    // A finger's swipe: down, moved across in steps, lifted (the browser scrolls and snaps).
    const swipe = async (dx: number) => {
      const y = Math.round(box.y + box.height / 2);
      const from = Math.round(box.x + box.width / 2 - dx / 2);
      const touch = (type: string, x: number) =>
        cdp.send('Input.dispatchTouchEvent', {
          type,
          touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
        } as never);
      await touch('touchStart', from);
      for (let step = 1; step <= 10; step++) await touch('touchMove', Math.round(from + (dx * step) / 10));
      await touch('touchEnd', from + dx);
    };
    await swipe(-Math.round(box.width * 0.6));
    await expect(counter(page)).toHaveText('2 of 3');
    await expect.poll(() => slideShown(page)).toBe(2);
    await swipe(Math.round(box.width * 0.6));
    await expect(counter(page)).toHaveText('1 of 3');
    await expect.poll(() => slideShown(page)).toBe(1);
  });
});

test('on a desktop: buttons and arrow keys step, full screen opens on that picture and Escape closes it', async ({
  page,
  baseURL,
}) => {
  const { id, title, images } = await galleryCompetition(baseURL!);
  await page.goto(`/competitions/${id}`);
  await expect(gallery(page)).toHaveAccessibleName(`Pictures of ${title}`);
  // Responsive variants, and the first picture is the page's image everywhere.
  const first = gallery(page).locator('picture').first();
  await expect(first.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /-400w\.avif 400w/);
  await expect(first.locator('img')).toHaveAttribute('src', images[0]!.url);
  await expect(first.locator('img')).toHaveAttribute('alt', ALTS[0]!);

  await expectNoAxeViolations(page, 'the gallery', { include: '[data-testid="prize-gallery"]' });

  await page.getByRole('button', { name: 'Next picture' }).click();
  await expect(counter(page)).toHaveText('2 of 3');
  await expect.poll(() => slideShown(page)).toBe(2);
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('3 of 3');
  await expect.poll(() => slideShown(page)).toBe(3);
  await page.getByRole('button', { name: 'Previous picture' }).click();
  await expect(counter(page)).toHaveText('2 of 3');

  const opener = page.getByRole('button', { name: 'View pictures full screen' });
  await opener.click();
  const screen = page.getByRole('dialog', { name: `Pictures of ${title}, full screen` });
  await expect(screen).toBeVisible();
  await expect(screen.getByRole('button', { name: 'Close full screen' })).toBeFocused();
  await expect(page.getByTestId('gallery-full-screen-counter')).toHaveText('2 of 3');
  // It fills the window.
  const size = (await screen.boundingBox())!;
  expect([size.width, size.height]).toEqual([page.viewportSize()!.width, page.viewportSize()!.height]);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('gallery-full-screen-counter')).toHaveText('3 of 3');
  await expectNoAxeViolations(page, 'the full-screen view', {
    include: '[data-testid="gallery-full-screen"]',
  });

  await page.keyboard.press('Escape');
  await expect(screen).toHaveCount(0);
  await expect(opener).toBeFocused();
  // The page's gallery shows the picture full screen was on.
  await expect(counter(page)).toHaveText('3 of 3');
  await expect.poll(() => slideShown(page)).toBe(3);

  // Nothing moved the page's layout: the box is fixed before any picture arrives.
  const shift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >)
            if (!e.hadRecentInput) total += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() => resolve(total));
      }),
  );
  expect(shift).toBeLessThanOrEqual(0.02);
});

test('an admin adds pictures with alt text, reorders and removes one, and the page shows them in that order', async ({
  page,
  baseURL,
}) => {
  const { id, title } = await ownCompetition(baseURL!);
  await signInViaApi(page.request, 'admin', 'admin123');
  await page.goto('/admin/competitions');
  await page.getByRole('tab', { name: /^Live/ }).click();
  await page
    .getByTestId('competition-row')
    .filter({ hasText: title })
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  const dialog = page.getByTestId('competition-dialog');
  const pictures = dialog.getByRole('group', { name: 'Pictures' });
  for (const [i, background] of COLOURS.entries()) {
    const buffer = await sharp({ create: { width: 800, height: 600, channels: 3, background } })
      .jpeg()
      .toBuffer();
    await pictures
      .getByLabel('Add a picture')
      .setInputFiles({ name: `p${i}.jpg`, mimeType: 'image/jpeg', buffer });
    await expect(pictures.getByLabel(`Picture ${i + 1}: alt text`)).toBeVisible();
  }
  // Alt text is required: nothing is sent without it.
  await dialog.getByRole('button', { name: 'Update Competition' }).click();
  await expect(pictures.getByText('Each picture needs alt text: say what it shows').first()).toBeVisible();
  for (const [i, alt] of ALTS.entries()) await pictures.getByLabel(`Picture ${i + 1}: alt text`).fill(alt);
  await pictures.getByRole('button', { name: 'Move picture 3 up' }).click();
  await pictures.getByRole('button', { name: 'Remove picture 1' }).click();
  await expect(pictures.getByLabel('Picture 1: alt text')).toHaveValue(ALTS[2]!);
  await expect(pictures.getByLabel('Picture 2: alt text')).toHaveValue(ALTS[1]!);
  await expectNoAxeViolations(page, 'the pictures in the competition form', {
    include: '[data-testid="gallery-fields"]',
  });
  await dialog.getByRole('button', { name: 'Update Competition' }).click();
  await expect(page.getByTestId('toast')).toContainText('Competition updated');

  await page.goto(`/competitions/${id}`);
  await expect(counter(page)).toHaveText('1 of 2');
  const alts = await gallery(page)
    .getByRole('group', { name: 'Pictures' })
    .getByRole('img')
    .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')));
  expect(alts).toEqual([ALTS[2], ALTS[1]]);
});
