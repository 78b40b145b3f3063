import canonicalize from 'canonicalize';
import * as v from 'valibot';
import { AdminClaimSchema } from './claims';
import { isSeedHex, toHex } from './draw';

// Instant wins (docs/draws.md#instant-wins): ticket numbers that win a prize the moment they are
// sold, fixed and committed to before sales open. Money is pence in the list and the commitment
// (integers hash exactly); the admin input takes pence too, as the public shape says.

export const INSTANT_WIN_KINDS = ['credit', 'prize'] as const;
export type InstantWinKind = (typeof INSTANT_WIN_KINDS)[number];

/** At most this many instant wins per competition: the list is small enough to hash and show. */
export const MAX_INSTANT_WINS = 1000;

export const INSTANT_WINS_LOCKED =
  'Instant wins cannot be changed once a ticket of this competition has been held or sold.';
export const CREDIT_CARD_INSTANT_WIN =
  'Credit cards cannot be used for instant win competitions. Use a debit card or site credit.';

const pence = (message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(100_000_000, message));

/** One prize as the admin sends it: `count` random numbers, or explicit `numbers` (not both). */
export const InstantWinInputSchema = v.pipe(
  v.object({
    title: v.pipe(
      v.string('Each instant win needs a title'),
      v.trim(),
      v.nonEmpty('Each instant win needs a title'),
      v.maxLength(200, 'An instant win title can be at most 200 characters'),
    ),
    kind: v.picklist(INSTANT_WIN_KINDS, "An instant win's kind must be credit or prize"),
    amountPence: v.optional(pence('A credit instant win needs an amount in whole pence of at least 1')),
    description: v.optional(
      v.pipe(
        v.string('An instant win description must be text'),
        v.trim(),
        v.maxLength(2000, 'An instant win description is too long'),
      ),
    ),
    cashValuePence: v.optional(pence('A cash value must be a whole number of pence of at least 1')),
    count: v.optional(
      v.pipe(
        v.number('count must be a whole number between 1 and 1000'),
        v.integer('count must be a whole number between 1 and 1000'),
        v.minValue(1, 'count must be a whole number between 1 and 1000'),
        v.maxValue(MAX_INSTANT_WINS, 'count must be a whole number between 1 and 1000'),
      ),
    ),
    numbers: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.number('Instant-win numbers must be whole numbers of at least 1'),
            v.integer('Instant-win numbers must be whole numbers of at least 1'),
            v.minValue(1, 'Instant-win numbers must be whole numbers of at least 1'),
          ),
          'numbers must be a list of ticket numbers',
        ),
        v.minLength(1, 'numbers must list at least one ticket number'),
        v.maxLength(MAX_INSTANT_WINS, 'At most 1000 instant-win numbers'),
      ),
    ),
  }),
  v.check(
    (w) => (w.count === undefined) !== (w.numbers === undefined),
    'Each instant win needs either a count or a list of numbers, not both',
  ),
  v.check(
    (w) => w.kind !== 'credit' || w.amountPence !== undefined,
    'A credit instant win needs amountPence',
  ),
  v.check(
    (w) => w.kind !== 'prize' || w.cashValuePence !== undefined,
    'A prize instant win needs cashValuePence',
  ),
);
export type InstantWinInput = v.InferOutput<typeof InstantWinInputSchema>;

export const InstantWinListInputSchema = v.pipe(
  v.array(InstantWinInputSchema, 'instantWins must be a list'),
  v.check(
    (list) => list.reduce((n, w) => n + (w.count ?? w.numbers?.length ?? 0), 0) <= MAX_INSTANT_WINS,
    'At most 1000 instant-win numbers per competition',
  ),
);

/**
 * What the public list says of a prize given back by a cancelled order: its number was announced
 * with the win, so it is retired, never won again (docs/draws.md#instant-wins).
 */
export const INSTANT_WIN_RETIRED =
  'Retired: returned when its order was cancelled, and not to be won again (its number was already public).';

/**
 * Public competition JSON: one prize; `number` and `winnerDisplayName` only once it is won;
 * `retired` (with its number, public since the win) once a cancelled order gave it back.
 */
export const PublicInstantWinSchema = v.object({
  id: v.number(),
  title: v.string(),
  kind: v.picklist(INSTANT_WIN_KINDS),
  won: v.boolean(),
  number: v.optional(v.number()),
  winnerDisplayName: v.optional(v.string()),
  retired: v.optional(v.boolean()),
});
export type PublicInstantWin = v.InferOutput<typeof PublicInstantWinSchema>;

/** One committed line: the number, the prize id, its title, kind and value in pence. */
export const CommittedInstantWinSchema = v.object({
  number: v.number(),
  id: v.number(),
  title: v.string(),
  kind: v.picklist(INSTANT_WIN_KINDS),
  valuePence: v.number(),
});
export type CommittedInstantWin = v.InferOutput<typeof CommittedInstantWinSchema>;

/** After the close: the secret salt and the whole list, so anyone can recompute the commitment. */
export const InstantWinRevealSchema = v.object({
  salt: v.string(),
  list: v.array(CommittedInstantWinSchema),
});
export type InstantWinReveal = v.InferOutput<typeof InstantWinRevealSchema>;

/** The admin's view of one prize: everything, with who won it, when and in which order. */
export const AdminInstantWinSchema = v.object({
  id: v.number(),
  title: v.string(),
  kind: v.picklist(INSTANT_WIN_KINDS),
  amountPence: v.nullable(v.number()),
  description: v.nullable(v.string()),
  cashValuePence: v.nullable(v.number()),
  number: v.number(),
  won: v.boolean(),
  wonAt: v.nullable(v.string()),
  /** 1 for the first prize won in this competition, 2 for the next … */
  wonOrder: v.nullable(v.number()),
  winner: v.nullable(
    v.object({ userId: v.nullable(v.number()), displayName: v.string(), orderId: v.nullable(v.number()) }),
  ),
  deliveredAt: v.nullable(v.string()),
  /** When a cancelled order gave it back: retired, never won again. */
  retiredAt: v.optional(v.nullable(v.string())),
  /** A won physical prize's claim (docs/draws.md#7-claiming-a-prize), on the competition detail. */
  claim: v.optional(v.nullable(AdminClaimSchema)),
});
export type AdminInstantWin = v.InferOutput<typeof AdminInstantWinSchema>;

/** PATCH /api/admin/competitions/:id/instant-wins/:prizeId */
export const InstantWinUpdateSchema = v.object({
  delivered: v.boolean('delivered must be true or false'),
});

export const InstantWinParamsSchema = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,9}$/, 'The id must be a positive whole number'),
    v.transform(Number),
  ),
  prizeId: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,9}$/, 'The prize id must be a positive whole number'),
    v.transform(Number),
  ),
});

/** What a buyer won, on the order view and in `instant:won`. */
export const InstantWinPrizeSchema = v.object({
  id: v.number(),
  competitionId: v.number(),
  number: v.number(),
  title: v.string(),
  kind: v.picklist(INSTANT_WIN_KINDS),
  /** Credit paid into the account, in pence (credit prizes). */
  amountPence: v.nullable(v.number()),
  description: v.nullable(v.string()),
});
export type InstantWinPrize = v.InferOutput<typeof InstantWinPrizeSchema>;

// ---- The commitment rule, version 1 -------------------------------------------------------------
//
//   commitment = hex(SHA-256(utf8(JCS({ v: 1, salt, list }))))
//
// JCS is RFC 8785 (the `canonicalize` package); salt is the 32-byte secret as 64 lowercase hex
// characters; list holds one { number, id, title, kind, valuePence } per instant-win number,
// sorted by number ascending. valuePence: the credit amount, or the prize's cash value.

export const INSTANT_WIN_RULE_VERSION = 1;

/** The list in committed order (ascending number). */
export const sortCommitted = (list: readonly CommittedInstantWin[]): CommittedInstantWin[] =>
  [...list]
    .sort((a, b) => a.number - b.number)
    .map(({ number, id, title, kind, valuePence }) => ({ number, id, title, kind, valuePence }));

/** The exact UTF-8 text that is hashed. */
export function instantWinCanonicalText(salt: string, list: readonly CommittedInstantWin[]): string {
  if (!isSeedHex(salt)) throw new Error('the salt must be 64 lowercase hex characters');
  return canonicalize({ v: INSTANT_WIN_RULE_VERSION, salt, list: sortCommitted(list) }) as string;
}

export async function instantWinCommitment(
  salt: string,
  list: readonly CommittedInstantWin[],
): Promise<string> {
  const bytes = new TextEncoder().encode(instantWinCanonicalText(salt, list));
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available here');
  return toHex(await s.digest('SHA-256', bytes));
}

/** Whether a reveal matches the published commitment (false for anything malformed). */
export async function verifyInstantWinReveal(commitment: string, reveal: unknown): Promise<boolean> {
  if (!v.is(InstantWinRevealSchema, reveal)) return false;
  try {
    return (await instantWinCommitment(reveal.salt, reveal.list)) === commitment;
  } catch {
    return false;
  }
}
