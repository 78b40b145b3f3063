import type { CSSProperties } from 'react';
import { responsiveSource, variantSrcSet } from '../../../contract/images';

export interface ResponsiveImageProps {
  src: string;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each viewport width. */
  sizes: string;
  /**
   * The box's width and height, so the browser reserves the space before the image arrives (no
   * layout shift); the uploaded image's own size when left out (its name carries it).
   */
  width?: number;
  height?: number;
  /** The page's largest image (LCP): fetched at once and first, never lazily. */
  priority?: boolean;
  className?: string;
  'data-testid'?: string;
}

// `display: contents`: the <picture> adds no box, so the <img> sizes and styles as it did alone.
const PICTURE_STYLE: CSSProperties = { display: 'contents' };

/**
 * An image as a <picture>: AVIF and WebP variants of an upload (contract/images.ts) for the
 * browser to pick by `sizes`, and the original in the <img> for browsers that take neither.
 * Any other image (an SVG, an upload from before variants) is a plain <img>.
 */
export function ResponsiveImage({
  src,
  alt,
  sizes,
  width,
  height,
  priority = false,
  className,
  'data-testid': testId,
}: ResponsiveImageProps) {
  const source = responsiveSource(src);
  const img = (
    <img
      src={src}
      alt={alt}
      width={width ?? source?.width}
      height={height ?? source?.height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={className}
      data-testid={testId}
    />
  );
  if (!source) return img;
  return (
    <picture style={PICTURE_STYLE}>
      <source type="image/avif" srcSet={variantSrcSet(source, 'avif')} sizes={sizes} />
      <source type="image/webp" srcSet={variantSrcSet(source, 'webp')} sizes={sizes} />
      {img}
    </picture>
  );
}
