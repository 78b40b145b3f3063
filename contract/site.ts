import * as v from 'valibot';
import { CharitySchema, PromoterSchema } from './promoter';

export const SiteConfigSchema = v.object({
  siteName: v.string(),
  supportEmail: v.string(),
  /** The promoter (Site Settings: Operator details), named in the footer and on the Terms. */
  promoter: PromoterSchema,
  /** The charities the site names, with their registration numbers (Site Settings). */
  charities: v.array(CharitySchema),
  /** Which card form to show: Stripe's Payment Element or the sandbox's test-card form. */
  payments: v.object({
    provider: v.picklist(['stripe', 'sandbox']),
    publishableKey: v.nullable(v.string()),
    testMode: v.boolean(),
  }),
});
export type SiteConfig = v.InferOutput<typeof SiteConfigSchema>;

export const HealthSchema = v.object({ ok: v.boolean(), db: v.string() });
export type Health = v.InferOutput<typeof HealthSchema>;

/** GET /api/ready (docs/operations.md#readiness): 200 when every check is ok, else 503. */
export const READY_CHECK_RESULTS = ['ok', 'failed', 'pending migrations'] as const;
const ReadyCheckSchema = v.picklist(READY_CHECK_RESULTS);
export const ReadySchema = v.object({
  ready: v.boolean(),
  checks: v.object({
    database: ReadyCheckSchema,
    migrations: ReadyCheckSchema,
    /** Only with REDIS_URL. */
    redis: v.optional(ReadyCheckSchema),
  }),
});
export type Ready = v.InferOutput<typeof ReadySchema>;

/**
 * GET /api/promotions/current: the sign-up offer new accounts get right now, or null when there is
 * none (docs/product.md#sign-up-offer). Pounds; validUntil is ISO 8601, null for no end date.
 */
export const SignUpOfferSchema = v.object({
  creditAmount: v.number(),
  validUntil: v.nullable(v.string()),
});
export type SignUpOffer = v.InferOutput<typeof SignUpOfferSchema>;
export const CurrentPromotionsSchema = v.object({ signUpOffer: v.nullable(SignUpOfferSchema) });
export type CurrentPromotions = v.InferOutput<typeof CurrentPromotionsSchema>;

/**
 * GET /api/limits: the request limits a client from one address meets (docs/security.md), so that
 * a load tool such as `npm run swarm` can keep within them or name the setting to relax. The
 * values are the same for every visitor and only say how fast one may go.
 */
export const LimitsSummarySchema = v.object({
  /** RATE_LIMITS: false when the request-rate limits are off (benchmarks and load tools). */
  requestLimits: v.boolean(),
  registrationsPerAddress: v.object({ count: v.number(), windowSeconds: v.number() }),
  holdsPerMinute: v.object({ perSession: v.number(), perAddress: v.number() }),
  /** How long a hold lasts before it is released (RESERVATION_TTL_SECONDS). */
  reservationSeconds: v.number(),
});
export type LimitsSummary = v.InferOutput<typeof LimitsSummarySchema>;
