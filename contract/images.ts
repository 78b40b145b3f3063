// Responsive variants of an uploaded image, shared by the upload service (which writes them) and
// the client (which lists them in <picture> srcsets). The stored name carries the oriented pixel
// size, and the variant widths follow from it, so the API keeps answering one image URL and the
// client never asks for a variant that was not written:
//
//   original  /uploads/<32 hex>-<W>x<H>.<png|jpg|webp>
//   variants  /uploads/<32 hex>-<W>x<H>-<w>w.<avif|webp>   for w in variantWidths(W)
//
// Names without the size (uploads from before variants, GIFs, SVGs, /images/…, http URLs) have
// no variants and are shown as they are. The steps below are part of the stored names' meaning:
// changing them needs a new name pattern, or old uploads would list variants they do not have.

/** Widths a variant is made at, narrowest first; never wider than the original. */
export const VARIANT_STEPS = [400, 800, 1200, 1600] as const;
export const VARIANT_FORMATS = ['avif', 'webp'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** The variant widths of an original `width` pixels wide: the steps below it, and itself up to the widest step. */
export function variantWidths(width: number): number[] {
  const max = VARIANT_STEPS[VARIANT_STEPS.length - 1]!;
  const below = VARIANT_STEPS.filter((w) => w < width);
  return width <= max ? [...below, width] : below;
}

/** An original with variants: its name's stem (up to the size) and its oriented pixel size. */
export interface ResponsiveSource {
  stem: string;
  width: number;
  height: number;
}

const WITH_VARIANTS = /^(\/uploads\/[a-f0-9]{32}-([1-9]\d{0,4})x([1-9]\d{0,4}))\.(png|jpg|webp)$/;

/** The stem and size of an uploaded image that has variants; undefined for any other URL. */
export function responsiveSource(url: string): ResponsiveSource | undefined {
  const m = WITH_VARIANTS.exec(url);
  if (!m) return undefined;
  return { stem: m[1]!, width: Number(m[2]), height: Number(m[3]) };
}

/** The URL of one variant (the stem is the original's URL up to its size). */
export const variantUrl = (stem: string, width: number, format: VariantFormat) =>
  `${stem}-${width}w.${format}`;

/** A `srcset` value listing every variant of one format. */
export function variantSrcSet(source: ResponsiveSource, format: VariantFormat): string {
  return variantWidths(source.width)
    .map((w) => `${variantUrl(source.stem, w, format)} ${w}w`)
    .join(', ');
}
