import * as v from 'valibot';

// A competition's prize gallery (docs/product.md#prize-galleries): up to 8 pictures in order, each
// with its alt text. `image` stays the first picture's URL, so clients that know one picture
// (cards, the cart, share previews) keep working.

export const MAX_GALLERY_IMAGES = 8;
export const MAX_ALT_LENGTH = 300;

export const ALT_REQUIRED = 'Each picture needs alt text: say what it shows';
export const GALLERY_TOO_LONG = `A competition can have at most ${MAX_GALLERY_IMAGES} pictures`;
export const IMAGE_NOT_FIRST = "The image is the gallery's first picture: send the same URL or leave it out";

/** One picture as stored and published. */
export const GalleryImageSchema = v.object({ url: v.string(), alt: v.string() });
export type GalleryImage = v.InferOutput<typeof GalleryImageSchema>;

// A missing key is checked as '' so each field's own message applies, not the object's.
const GalleryImageInputSchema = v.object(
  {
    url: v.optional(
      v.pipe(
        v.string('Each picture must be an uploaded image URL'),
        v.trim(),
        v.maxLength(500, 'A picture URL is too long'),
        // A path on this site (/uploads/…, /images/…) or an http(s) URL; nothing that could run script.
        v.regex(/^(\/(?!\/)[^\s]*|https?:\/\/[^\s]+)$/, 'Each picture must be an uploaded image URL'),
      ),
      '',
    ),
    alt: v.optional(
      v.pipe(
        v.string(ALT_REQUIRED),
        v.trim(),
        v.nonEmpty(ALT_REQUIRED),
        v.maxLength(MAX_ALT_LENGTH, `Alt text can be at most ${MAX_ALT_LENGTH} characters`),
      ),
      '',
    ),
  },
  'Each picture must have a url and alt text',
);

/** `images` of POST/PUT /api/admin/competitions: the whole gallery, first picture first; [] for none. */
export const GalleryInputSchema = v.pipe(
  v.array(GalleryImageInputSchema, 'images must be a list of pictures'),
  v.maxLength(MAX_GALLERY_IMAGES, GALLERY_TOO_LONG),
);

/**
 * The pictures a competition shows: its gallery, or (saved before galleries, or through `image`
 * alone) its one image described by its title; none without either.
 */
export function galleryOf(c: {
  title: string;
  image: string | null;
  images?: GalleryImage[] | null;
}): GalleryImage[] {
  if (c.images?.length) return c.images.map(({ url, alt }) => ({ url, alt }));
  return c.image ? [{ url: c.image, alt: c.title }] : [];
}
