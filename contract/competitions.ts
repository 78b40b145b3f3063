import * as v from 'valibot';
import { DrawBeaconSchema } from './beacon';
import { BundleOfferSchema } from './bundles';
import { PublicDrawSchema } from './draw';
import { GalleryImageSchema } from './gallery';
import { InstantWinRevealSchema, PublicInstantWinSchema } from './instantWins';
import { MinimumSalesViewSchema } from './minimumSales';
import { MainPrizeSchema } from './prizes';

/**
 * 'draft': never public (docs/product.md#drafts-and-scheduled-launches); only admins see it.
 * 'cancelled': called off and refunded (docs/product.md#minimum-sales-and-cancellation); only the
 * cancellation sets it, never an edit (SETTABLE_STATUSES).
 */
export const COMPETITION_STATUSES = ['draft', 'active', 'archived', 'ended', 'cancelled'] as const;
export const SETTABLE_STATUSES = ['draft', 'active', 'archived', 'ended'] as const;
export type CompetitionStatus = (typeof COMPETITION_STATUSES)[number];

/** Display defaults (docs/product.md#competition-detail). */
export const DEFAULT_TOTAL_TICKETS = 1000;
export const MAX_TICKETS_PER_PURCHASE = 10;
export const PROGRESS_BAR_CAP_PERCENT = 95;

export const CompetitionDetailsSchema = v.object({
  category: v.optional(v.string()),
  productName: v.optional(v.string()),
});

/** A competition as the public API returns it. Prices are pounds here (stored as pence). */
export const PublicCompetitionSchema = v.object({
  id: v.number(),
  title: v.string(),
  description: v.string(),
  /** The gallery's first picture, for clients that show one. */
  image: v.nullable(v.string()),
  /** The prize gallery (docs/product.md#prize-galleries), first picture first; optional for older fixtures and cached pages. */
  images: v.optional(v.array(GalleryImageSchema)),
  createdAt: v.string(), // ISO 8601, also the start date on the detail page
  /** ISO 8601: nothing can be held before it (a scheduled launch); null: open since creation. */
  startsAt: v.optional(v.nullable(v.string())),
  endDate: v.string(),
  ticketPrice: v.number(),
  /** Multi-buy offers in pounds, smallest first ("Buy 5 for £4.00"); [] when none. */
  bundles: v.optional(v.array(BundleOfferSchema)),
  ticketsSold: v.number(),
  totalTickets: v.number(),
  autoWin: v.boolean(),
  status: v.picklist(COMPETITION_STATUSES),
  features: v.array(v.string()),
  details: CompetitionDetailsSchema,
  /** Derived with deriveCategory(): what the category filter matches on. */
  category: v.string(),
  /** Pounds; null when the prize has no cash alternative. */
  cashAlternative: v.nullable(v.number()),
  /** The per-person cap that applies: the competition's own, or the site default when it has none. */
  maxTicketsPerUser: v.number(),
  /** Hex SHA-256 of the secret draw seed, published from creation (docs/draws.md). */
  drawCommitment: v.string(),
  /** The beacon round the draw uses, published when the entries became final (docs/draws.md); null before. */
  drawBeacon: v.nullable(DrawBeaconSchema),
  /** The main prizes in draw order, 1st first (one, the title, unless the admin listed several). */
  prizes: v.optional(v.array(MainPrizeSchema)),
  /** The result once drawn, null before; absent where it was not looked up (lists). */
  draw: v.optional(v.nullable(PublicDrawSchema)),
  /**
   * Hex SHA-256 over the instant-win list and its salt, published when sales open; null without
   * instant wins. The server always sends it (optional for older fixtures and cached pages).
   */
  instantWinCommitment: v.optional(v.nullable(v.string())),
  /** The instant-win prizes; `number` only once won. Absent where not looked up (lists). */
  instantWins: v.optional(v.array(PublicInstantWinSchema)),
  /** After the close: the salt and the full list, to check against the commitment. */
  instantWinReveal: v.optional(InstantWinRevealSchema),
  ...MinimumSalesViewSchema,
});
export type PublicCompetition = v.InferOutput<typeof PublicCompetitionSchema>;

export const CompetitionEntrySchema = v.object({
  ownerName: v.string(),
  ticketNumbers: v.array(v.number()),
});
export type CompetitionEntry = v.InferOutput<typeof CompetitionEntrySchema>;

export const HeroImageSchema = v.object({ imageUrl: v.string(), isDefault: v.boolean() });
export type HeroImage = v.InferOutput<typeof HeroImageSchema>;

/** A competition id as a path parameter's text, to its number. */
export const CompetitionIdTextSchema = v.pipe(
  v.string(),
  v.regex(/^[1-9]\d{0,9}$/, 'Competition id must be a positive whole number'),
  v.transform(Number),
);

/** Path parameter :id. */
export const IdParamSchema = v.object({ id: CompetitionIdTextSchema });

/** GET /api/competitions?category=Cash (capitalised name, as the spec's client sends it). */
export const CompetitionListQuerySchema = v.object({
  category: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z][A-Za-z -]{0,39}$/, 'Category must be a category name such as Cash'),
    ),
  ),
});

/** Progress bar width: sold / total as a percentage, kept between 0 and 95 (spec). */
export function progressPercent(ticketsSold: number, totalTickets: number): number {
  const total = totalTickets > 0 ? totalTickets : DEFAULT_TOTAL_TICKETS;
  const pct = (ticketsSold / total) * 100;
  return Math.min(PROGRESS_BAR_CAP_PERCENT, Math.max(0, pct));
}

/** Listing order: live-draw first, then auto-win; each group newest createdAt first (id breaks ties). */
export function compareForListing(
  a: Pick<PublicCompetition, 'autoWin' | 'createdAt' | 'id'>,
  b: Pick<PublicCompetition, 'autoWin' | 'createdAt' | 'id'>,
): number {
  if (a.autoWin !== b.autoWin) return a.autoWin ? 1 : -1;
  const byDate = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return byDate !== 0 ? byDate : b.id - a.id;
}
