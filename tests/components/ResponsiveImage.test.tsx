import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponsiveImage } from '../../web/components/ui/ResponsiveImage';

const UPLOAD = `/uploads/${'ab'.repeat(16)}-1000x750.jpg`;
const STEM = `/uploads/${'ab'.repeat(16)}-1000x750`;

describe('ResponsiveImage', () => {
  afterEach(cleanup);

  it('offers the AVIF then WebP variants the upload has (none wider than it), the original as fallback', () => {
    const { container } = render(<ResponsiveImage src={UPLOAD} alt="A red car" sizes="100vw" />);
    const sources = [...container.querySelectorAll('picture > source')];
    expect(sources.map((s) => s.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
    expect(sources[0]!.getAttribute('srcset')).toBe(
      `${STEM}-400w.avif 400w, ${STEM}-800w.avif 800w, ${STEM}-1000w.avif 1000w`,
    );
    expect(sources[1]!.getAttribute('srcset')).toBe(
      `${STEM}-400w.webp 400w, ${STEM}-800w.webp 800w, ${STEM}-1000w.webp 1000w`,
    );
    expect(sources.every((s) => s.getAttribute('sizes') === '100vw')).toBe(true);
    const img = container.querySelector('picture > img')!;
    expect(img.getAttribute('src')).toBe(UPLOAD);
    expect(img.getAttribute('alt')).toBe('A red car');
    // The upload's own size (from its name) reserves the space: no layout shift.
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['1000', '750']);
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('fetchpriority')).toBeNull();
  });

  it('fetches the page’s main image at once and first', () => {
    const { container } = render(
      <ResponsiveImage src={UPLOAD} alt="" sizes="50vw" width={800} height={600} priority />,
    );
    const img = container.querySelector('img')!;
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['800', '600']);
  });

  it('shows an image without variants (older upload, GIF, SVG, other site) as a plain img', () => {
    for (const src of [
      `/uploads/${'cd'.repeat(16)}.jpg`,
      `/uploads/${'cd'.repeat(16)}.gif`,
      '/images/placeholder.svg',
      'https://cdn.example/prize-1000x750.jpg',
    ]) {
      const { container } = render(
        <ResponsiveImage src={src} alt="Prize" sizes="100vw" width={400} height={300} />,
      );
      expect(container.querySelector('picture, source'), src).toBeNull();
      const img = container.querySelector('img')!;
      expect(img.getAttribute('src')).toBe(src);
      expect(img.getAttribute('srcset')).toBeNull();
      expect(img.getAttribute('width')).toBe('400');
      cleanup();
    }
  });

  it('lists only the steps below a small upload, and the upload itself', () => {
    const small = `/uploads/${'ef'.repeat(16)}-300x200.png`;
    const { container } = render(<ResponsiveImage src={small} alt="" sizes="100vw" />);
    expect(container.querySelector('source')!.getAttribute('srcset')).toBe(
      `/uploads/${'ef'.repeat(16)}-300x200-300w.avif 300w`,
    );
  });
});
