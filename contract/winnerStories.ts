import * as v from 'valibot';

// Winner stories (docs/product.md#public-names-and-winner-stories): per main prize won, a photo and
// a short quote, published on /winners only with the recorded "winner agreed to publicity" tick.

export const STORY_QUOTE_MAX = 280;

export const STORY_NEEDS_CONSENT =
  "A photo or quote is published only with the winner's agreement: tick 'Winner agreed to publicity'";

/** The tick's label, on the admin's form and in the docs. */
export const PUBLICITY_CONSENT_LABEL = 'Winner agreed to publicity';

/**
 * PUT /api/admin/winners/:id/prizes/:position/story: the whole story (an absent photo or quote is
 * none). Without consent it can hold nothing: 400. Consent false with nothing clears the story.
 */
export const WinnerStoryUpdateSchema = v.pipe(
  v.object({
    photo: v.optional(
      v.nullable(
        v.pipe(
          v.string('The photo must be an image URL'),
          v.trim(),
          v.maxLength(500, 'The photo URL is too long'),
          // An upload on this site (/uploads/…) or an http(s) URL; nothing that could run script.
          v.regex(/^(\/(?!\/)[^\s]*|https?:\/\/[^\s]+|)$/, 'The photo must be an uploaded image URL'),
          v.transform((s) => s || null),
        ),
      ),
      null,
    ),
    quote: v.optional(
      v.nullable(
        v.pipe(
          v.string('The quote must be text'),
          v.trim(),
          v.maxLength(STORY_QUOTE_MAX, `The quote can be at most ${STORY_QUOTE_MAX} characters`),
          v.transform((s) => s || null),
        ),
      ),
      null,
    ),
    consent: v.boolean(`consent must be true or false (${PUBLICITY_CONSENT_LABEL})`),
  }),
  v.check((b) => b.consent || (!b.photo && !b.quote), STORY_NEEDS_CONSENT),
);
export type WinnerStoryUpdate = v.InferOutput<typeof WinnerStoryUpdateSchema>;

/** A prize's story as the admin's winner panel shows it. */
export const AdminWinnerStorySchema = v.object({
  photo: v.nullable(v.string()),
  quote: v.nullable(v.string()),
  /** When the publicity tick was recorded (ISO 8601), and by which admin. */
  consentAt: v.nullable(v.string()),
  consentBy: v.nullable(v.string()),
});
export type AdminWinnerStory = v.InferOutput<typeof AdminWinnerStorySchema>;

/** A published story on /winners: the winner named by their public-name choice. */
export const WinnerStorySchema = v.object({
  position: v.number(),
  prizeTitle: v.string(),
  winnerName: v.string(),
  photo: v.nullable(v.string()),
  quote: v.nullable(v.string()),
});
export type WinnerStory = v.InferOutput<typeof WinnerStorySchema>;
