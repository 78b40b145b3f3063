import * as v from 'valibot';

export const SiteConfigSchema = v.object({ siteName: v.string(), supportEmail: v.string() });
export type SiteConfig = v.InferOutput<typeof SiteConfigSchema>;

export const HealthSchema = v.object({ ok: v.boolean(), db: v.string() });
export type Health = v.InferOutput<typeof HealthSchema>;
