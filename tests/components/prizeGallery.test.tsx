import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { afterEach, describe, expect, it } from 'vitest';
import { PrizeGallery } from '../../web/components/competitions/gallery/PrizeGallery';
import { theme } from '../../web/theme/theme';
import { renderWithTheme } from './render';

// The competition page's gallery (docs/product.md#prize-galleries): buttons and arrow keys move it
// (going round at the ends), the full-screen view opens on the same picture, Escape closes it and
// the focus returns to the button that opened it. Swiping is the browser's (tests/e2e/gallery.spec.ts).

const upload = (n: number) => `/uploads/${String(n).repeat(32)}-1600x1200.jpg`;
const PICTURES = [
  { url: upload(1), alt: 'The roadster from the front' },
  { url: upload(2), alt: 'The cream leather seats' },
  { url: '/images/engine.svg', alt: 'The engine bay' },
];

const counter = () => screen.getByTestId('gallery-counter').textContent;
const gallery = () => screen.getByRole('region', { name: 'Pictures of Red Roadster' });
const track = () => within(gallery()).getByRole('group', { name: 'Pictures' });

describe('PrizeGallery', () => {
  afterEach(cleanup);

  it('shows every picture with its alt text and variants, the first fetched first, in a fixed box', () => {
    renderWithTheme(<PrizeGallery images={PICTURES} title="Red Roadster" />);
    const slides = within(track()).getAllByRole('group');
    expect(slides.map((s) => s.getAttribute('aria-label'))).toEqual(['1 of 3', '2 of 3', '3 of 3']);
    const imgs = within(track()).getAllByRole('img');
    expect(imgs.map((i) => i.getAttribute('alt'))).toEqual(PICTURES.map((p) => p.alt));
    expect(imgs.map((i) => i.getAttribute('loading'))).toEqual(['eager', 'lazy', 'lazy']);
    expect(imgs.map((i) => [i.getAttribute('width'), i.getAttribute('height')])).toEqual([
      ['800', '600'],
      ['800', '600'],
      ['800', '600'],
    ]);
    // An upload lists its variants with the page's sizes; an SVG is shown as it is.
    const sources = gallery().querySelectorAll('picture source');
    expect(sources).toHaveLength(4);
    expect(sources[0]!.getAttribute('srcset')).toContain('-400w.avif 400w');
    expect(sources[0]!.getAttribute('sizes')).toBe('(min-width: 1024px) 600px, 100vw');
    expect(counter()).toBe('1 of 3');
  });

  it('moves with Previous and Next and the arrow keys, Home and End, going round at the ends', () => {
    renderWithTheme(<PrizeGallery images={PICTURES} title="Red Roadster" />);
    fireEvent.click(screen.getByRole('button', { name: 'Next picture' }));
    expect(counter()).toBe('2 of 3');
    fireEvent.keyDown(track(), { key: 'ArrowRight' });
    expect(counter()).toBe('3 of 3');
    fireEvent.keyDown(track(), { key: 'ArrowRight' });
    expect(counter()).toBe('1 of 3');
    fireEvent.keyDown(track(), { key: 'ArrowLeft' });
    expect(counter()).toBe('3 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Previous picture' }));
    expect(counter()).toBe('2 of 3');
    fireEvent.keyDown(track(), { key: 'Home' });
    expect(counter()).toBe('1 of 3');
    fireEvent.keyDown(track(), { key: 'End' });
    expect(counter()).toBe('3 of 3');
    // The keys work wherever the focus is in the gallery, a button included.
    fireEvent.keyDown(screen.getByRole('button', { name: 'Next picture' }), { key: 'ArrowLeft' });
    expect(counter()).toBe('2 of 3');
    expect(track().getAttribute('tabindex')).toBe('0');
  });

  it('opens full screen on the picture shown; Escape closes it, back on the page at that picture, focus returned', async () => {
    renderWithTheme(<PrizeGallery images={PICTURES} title="Red Roadster" />);
    fireEvent.click(screen.getByRole('button', { name: 'Next picture' }));
    const open = screen.getByRole('button', { name: 'View pictures full screen' });
    open.focus();
    fireEvent.click(open);

    const dialog = screen.getByTestId('gallery-full-screen');
    expect(dialog.getAttribute('aria-label')).toBe('Pictures of Red Roadster, full screen');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    const close = within(dialog).getByRole('button', { name: 'Close full screen' });
    expect(document.activeElement).toBe(close);
    const fullCounter = () => screen.getByTestId('gallery-full-screen-counter').textContent;
    expect(fullCounter()).toBe('2 of 3');
    expect(
      within(dialog)
        .getAllByRole('img')
        .map((i) => i.getAttribute('alt')),
    ).toEqual(PICTURES.map((p) => p.alt));

    // Its own keys and buttons move it, not the page's gallery behind.
    fireEvent.keyDown(close, { key: 'ArrowRight' });
    expect(fullCounter()).toBe('3 of 3');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next picture' }));
    expect(fullCounter()).toBe('1 of 3');
    expect(counter()).toBe('2 of 3');

    await act(async () => {
      fireEvent.keyDown(close, { key: 'Escape' });
    });
    expect(screen.queryByTestId('gallery-full-screen')).toBeNull();
    expect(counter()).toBe('1 of 3');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View pictures full screen' }));
  });

  it('closes full screen with its Close button too', async () => {
    renderWithTheme(<PrizeGallery images={PICTURES} title="Red Roadster" />);
    fireEvent.click(screen.getByRole('button', { name: 'View pictures full screen' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Close full screen' }));
    });
    expect(screen.queryByTestId('gallery-full-screen')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View pictures full screen' }));
  });

  it('stays on a picture that exists when an edit takes pictures away while open', () => {
    const { rerender } = renderWithTheme(<PrizeGallery images={PICTURES} title="Red Roadster" />);
    fireEvent.keyDown(track(), { key: 'End' });
    expect(counter()).toBe('3 of 3');
    rerender(
      <ThemeProvider theme={theme}>
        <PrizeGallery images={PICTURES.slice(0, 2)} title="Red Roadster" />
      </ThemeProvider>,
    );
    expect(counter()).toBe('2 of 2');
  });

  it('one picture has no buttons or counter to step with; none shows the placeholder', () => {
    renderWithTheme(<PrizeGallery images={PICTURES.slice(0, 1)} title="Red Roadster" />);
    expect(screen.queryByRole('button', { name: 'Next picture' })).toBeNull();
    expect(screen.queryByTestId('gallery-counter')).toBeNull();
    expect(track().getAttribute('tabindex')).toBeNull();
    expect(screen.getByRole('button', { name: 'View pictures full screen' })).toBeTruthy();
    cleanup();

    renderWithTheme(<PrizeGallery images={[]} title="Red Roadster" />);
    const img = within(gallery()).getByRole('img');
    expect([img.getAttribute('src'), img.getAttribute('alt')]).toEqual([
      '/images/placeholder.svg',
      'Red Roadster',
    ]);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
