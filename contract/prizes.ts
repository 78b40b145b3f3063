import * as v from 'valibot';
import { AdminClaimSchema } from './claims';
import { AdminWinnerStorySchema } from './winnerStories';

// Several prizes in the main draw (docs/draws.md "Several prizes"): the list an admin gives a
// competition, 1st prize first, and each prize's winner as the public, the socket and the admin see it.

export const MAX_MAIN_PRIZES = 10;

/** A main prize as stored and published; money in pence. */
export const MainPrizeSchema = v.object({
  title: v.string(),
  description: v.nullable(v.string()),
  /** The prize's stated value (what the winner's age check goes by); null when not stated. */
  cashValuePence: v.nullable(v.number()),
  /** What the winner may take in cash instead; null when there is no cash alternative. */
  cashAlternativePence: v.nullable(v.number()),
  /** The prize's picture (a path on this site or an http(s) URL); null when it has none. */
  image: v.nullable(v.string()),
});
export type MainPrize = v.InferOutput<typeof MainPrizeSchema>;

const pence = (what: string) =>
  v.pipe(
    v.number(`A prize ${what} must be a whole number of pence`),
    v.integer(`A prize ${what} must be a whole number of pence`),
    v.minValue(0, `A prize ${what} must be a whole number of pence`),
    v.maxValue(10_000_000_000, `A prize ${what} is too large`),
  );

const MainPrizeInputSchema = v.object({
  title: v.pipe(
    v.string('Each prize needs a title'),
    v.trim(),
    v.minLength(1, 'Each prize needs a title'),
    v.maxLength(200, 'A prize title can be at most 200 characters'),
  ),
  description: v.optional(
    v.nullable(
      v.pipe(
        v.string('A prize description must be text'),
        v.trim(),
        v.maxLength(2000, 'A prize description can be at most 2000 characters'),
      ),
    ),
  ),
  cashValuePence: v.optional(v.nullable(pence('value'))),
  cashAlternativePence: v.optional(v.nullable(pence('cash alternative'))),
  image: v.optional(
    v.nullable(
      v.pipe(
        v.string('A prize picture must be an image URL'),
        v.trim(),
        v.maxLength(500, 'A prize picture URL is too long'),
        // A path on this site (/uploads/…, /images/…) or an http(s) URL; nothing that could run script.
        v.regex(/^(\/(?!\/)[^\s]*|https?:\/\/[^\s]+)$/, 'A prize picture must be an uploaded image URL'),
      ),
    ),
  ),
});

/** `prizes` of POST/PUT /api/admin/competitions: 1st prize first; null or absent keeps one prize, the title. */
export const MainPrizesInputSchema = v.nullable(
  v.pipe(
    v.array(MainPrizeInputSchema, 'prizes must be a list'),
    v.minLength(1, 'List at least one prize, or send null for a single prize'),
    v.maxLength(MAX_MAIN_PRIZES, `A competition can have at most ${MAX_MAIN_PRIZES} main prizes`),
    v.transform((list): MainPrize[] =>
      list.map((p) => ({
        title: p.title,
        description: p.description || null,
        cashValuePence: p.cashValuePence ?? null,
        cashAlternativePence: p.cashAlternativePence ?? null,
        image: p.image || null,
      })),
    ),
  ),
);

/** A stored prize in today's shape: lists saved before prizes had a cash alternative and picture lack them. */
const complete = (p: Partial<MainPrize> & { title: string }): MainPrize => ({
  title: p.title,
  description: p.description ?? null,
  cashValuePence: p.cashValuePence ?? null,
  cashAlternativePence: p.cashAlternativePence ?? null,
  image: p.image ?? null,
});

/** The prizes a competition is drawn for, as the admin listed them: its list, or one prize, its title. */
export const mainPrizesOf = (c: { title: string; mainPrizes?: MainPrize[] | null }): MainPrize[] =>
  c.mainPrizes?.length ? c.mainPrizes.map(complete) : [complete({ title: c.title })];

/** The competition's own prize facts, in pence, that stand for its 1st prize's where that has none. */
export interface CompetitionPrizeFacts {
  title: string;
  image: string | null;
  prizeValuePence?: number | null;
  cashAlternativePence: number | null;
  mainPrizes?: MainPrize[] | null;
}

/**
 * Every prize as the public and the admin detail page show it, 1st first (docs/product.md
 * "Prizes on show"): the 1st prize takes the competition's value, cash alternative and picture
 * where it states none of its own (as the age check takes its value); later prizes only their own.
 */
export function prizesOnShow(c: CompetitionPrizeFacts): MainPrize[] {
  const [first, ...rest] = mainPrizesOf(c);
  return [
    {
      ...first!,
      cashValuePence: first!.cashValuePence ?? c.prizeValuePence ?? null,
      cashAlternativePence: first!.cashAlternativePence ?? c.cashAlternativePence,
      image: first!.image ?? c.image,
    },
    ...rest,
  ];
}

/** The number of winners of the main draw: one a prize. */
export const winnerCount = (prizes: readonly unknown[] | undefined): number =>
  Math.max(1, prizes?.length ?? 1);

/** '1st', '2nd', '3rd', '4th' … for a prize's position. */
export function ordinal(position: number): string {
  const tens = position % 100;
  if (tens >= 11 && tens <= 13) return `${position}th`;
  return `${position}${{ 1: 'st', 2: 'nd', 3: 'rd' }[position % 10] ?? 'th'}`;
}

/** One prize's winner, publicly: in `draw.prizes`, `draw:result` `prizes` and the winners page. */
export const PrizeWinnerSchema = v.object({
  /** 1 for the 1st prize. */
  position: v.number(),
  title: v.string(),
  winningNumber: v.number(),
  winnerName: v.string(),
});
export type PrizeWinner = v.InferOutput<typeof PrizeWinnerSchema>;

/** Who won, for admins: the account (null fields once deleted). */
export const WinnerAccountSchema = v.object({
  userId: v.nullable(v.number()),
  username: v.nullable(v.string()),
  email: v.nullable(v.string()),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  /** When an admin verified the winner's age (ISO 8601); null until then (docs/product.md#age-checks). */
  ageVerifiedAt: v.nullable(v.string()),
  /** A postal winner without an account: the postcard's name, e-mail and address (else null). */
  postalEntry: v.nullable(
    v.object({ name: v.string(), email: v.string(), address: v.string(), postcode: v.string() }),
  ),
});

/** One prize's winner in the admin's winners list, with its delivery (docs/draws.md). */
export const AdminPrizeWinnerSchema = v.object({
  ...PrizeWinnerSchema.entries,
  cashValuePence: v.nullable(v.number()),
  winner: WinnerAccountSchema,
  orderId: v.nullable(v.number()),
  orderNumber: v.nullable(v.string()),
  prizeDeliveredAt: v.nullable(v.string()),
  winnerNotifiedAt: v.nullable(v.string()),
  /** The winner's claim (docs/draws.md#7-claiming-a-prize): phone, address, choice and its date. */
  claim: v.optional(v.nullable(AdminClaimSchema)),
  /** The winner's photo and quote with the publicity tick (null: none). */
  story: v.optional(v.nullable(AdminWinnerStorySchema)),
});
export type AdminPrizeWinner = v.InferOutput<typeof AdminPrizeWinnerSchema>;

/** PATCH /api/admin/winners/:competitionId/prizes/:position */
export const PrizeDeliveryUpdateSchema = v.object({
  prizeDelivered: v.boolean('prizeDelivered must be true or false'),
});

/** Path parameters :id and :position. */
export const PrizePositionParamSchema = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,9}$/, 'Competition id must be a positive whole number'),
    v.transform(Number),
  ),
  position: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d?$/, 'The prize position must be a whole number from 1'),
    v.transform(Number),
  ),
});
