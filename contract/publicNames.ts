import * as v from 'valibot';

// How a customer appears in public (docs/product.md#public-names-and-winner-stories): in the
// entries list, the grid's hover text, /winners, instant-win winners and the live draw.

/** 'initial' is "Jo S." (the default), 'nickname' one they choose, 'anonymous' "Anonymous". */
export const PUBLIC_NAME_MODES = ['initial', 'nickname', 'anonymous'] as const;
export type PublicNameMode = (typeof PUBLIC_NAME_MODES)[number];

/** How an entrant who chose 'anonymous' is shown. */
export const ANONYMOUS_NAME = 'Anonymous';

export const NICKNAME_MIN = 3;
export const NICKNAME_MAX = 20;

export const NICKNAME_RULES = `${NICKNAME_MIN} to ${NICKNAME_MAX} letters, digits, spaces, - or _, starting with a letter or digit`;

/** 409: another customer has it (case does not count). */
export const NICKNAME_TAKEN = 'That nickname is already taken: please choose another.';
/** 400: it contains a word we do not publish. */
export const NICKNAME_REFUSED = 'That nickname is not allowed: please choose another.';

/**
 * A nickname: trimmed, inner spaces single. ASCII only, so the unique index folds case the same
 * way on both engines (migration 045), and no dots, so no nickname reads like someone's "Jo S.".
 */
export const NicknameSchema = v.pipe(
  v.optional(v.string('Enter a nickname'), ''),
  v.transform((s) => s.trim().replace(/\s+/g, ' ')),
  v.nonEmpty('Enter a nickname'),
  v.minLength(NICKNAME_MIN, `A nickname needs at least ${NICKNAME_MIN} characters`),
  v.maxLength(NICKNAME_MAX, `A nickname can be at most ${NICKNAME_MAX} characters`),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9 _-]*$/, `A nickname is ${NICKNAME_RULES}`),
  v.regex(/[A-Za-z]/, 'A nickname needs at least one letter'),
);

/** PUT /api/account/public-name: a nickname comes with mode 'nickname' (and is ignored otherwise). */
export const PublicNameSchema = v.variant(
  'mode',
  [
    v.object({ mode: v.literal('nickname'), nickname: NicknameSchema }),
    v.object({
      mode: v.picklist(['initial', 'anonymous']),
      nickname: v.optional(v.unknown()),
    }),
  ],
  "Choose how your name is shown: 'initial', 'nickname' or 'anonymous'",
);
export type PublicNameInput = v.InferOutput<typeof PublicNameSchema>;

/** GET and PUT /api/account/public-name: the choice, and the name the public sees now. */
export interface PublicNameView {
  mode: PublicNameMode;
  /** Kept only while the mode is 'nickname'. */
  nickname: string | null;
  /** "Jo S.", the nickname or "Anonymous". */
  shownAs: string;
  /** The default name, "Jo S.", whatever the choice (the form offers it). */
  initialName: string;
}
