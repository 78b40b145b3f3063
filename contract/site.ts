import * as v from 'valibot';

export const SiteConfigSchema = v.object({
  siteName: v.string(),
  supportEmail: v.string(),
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
