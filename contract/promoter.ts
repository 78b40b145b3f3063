import * as v from 'valibot';
import { type OperatorSettingsView, trimmed } from './receipts';

// Who the promoter is (the legal entity running every competition) and the charities the site
// names: both from Site Settings, shown to every visitor (footer, Terms, receipts, e-mails).

/** The 409 (code promoter_details_missing) when a competition would go on sale without them. */
export const PROMOTER_DETAILS_MISSING = "Fill in the promoter's details in Site Settings first.";

/** The promoter as the public site shows it: each null until the admin sets it. */
export const PromoterSchema = v.object({
  name: v.nullable(v.string()),
  companyNumber: v.nullable(v.string()),
  address: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  email: v.nullable(v.string()),
});
export type Promoter = v.InferOutput<typeof PromoterSchema>;

export const promoterOf = (o: OperatorSettingsView): Promoter => ({
  name: o.operatorName,
  companyNumber: o.companyNumber,
  address: o.operatorAddress,
  phone: o.phone,
  email: o.email,
});

/** Every detail set: what a competition needs before it can become active. */
export const promoterComplete = (p: Promoter): boolean =>
  Object.values(p).every((value) => typeof value === 'string' && value.trim() !== '');

const CHARITY_NUMBER_MESSAGE =
  'Registration number must be a charity number, like 1234567 (England and Wales), SC012345 or NIC100001';
/** A registered charity's number: 6–7 digits (England and Wales), SC + 6 (Scotland), NIC + 6 (NI). */
export const CharityNumberSchema = v.pipe(
  v.string(CHARITY_NUMBER_MESSAGE),
  v.transform((s) => s.replace(/\s+/g, '').toUpperCase()),
  v.regex(/^(?:\d{6,7}|SC\d{6}|NIC\d{6})$/, CHARITY_NUMBER_MESSAGE),
);

export const CharitySchema = v.object({
  name: trimmed('Charity name', 200),
  registrationNumber: CharityNumberSchema,
});
export type Charity = v.InferOutput<typeof CharitySchema>;

export const MAX_CHARITIES = 12;

/** PUT /api/admin/settings/charities: the charities the site names, in the order it names them. */
export const CharitiesSettingSchema = v.object({
  charities: v.pipe(
    v.array(CharitySchema, 'Charities must be a list'),
    v.maxLength(MAX_CHARITIES, `At most ${MAX_CHARITIES} charities`),
  ),
});
export type CharitiesSetting = v.InferOutput<typeof CharitiesSettingSchema>;

/** Who the site names, for every visitor: part of GET /api/site-config and of a rendered page. */
export interface PublicSiteFacts {
  promoter: Promoter;
  charities: Charity[];
}

/** The stored list (JSON text) as charities; anything unreadable is no list. */
export function decodeCharities(text: string): Charity[] {
  try {
    const parsed = v.safeParse(v.array(CharitySchema), JSON.parse(text));
    return parsed.success ? parsed.output : [];
  } catch {
    return [];
  }
}

/** The admin card's text: one charity a line, its name, a comma, its number. */
export const charitiesToText = (charities: Charity[]): string =>
  charities.map((c) => `${c.name}, ${c.registrationNumber}`).join('\n');

/** The card's lines as the PUT body's list (the server validates each). */
export const charitiesFromText = (text: string): { name: string; registrationNumber: string }[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const comma = line.lastIndexOf(',');
      return comma < 0
        ? { name: line, registrationNumber: '' }
        : { name: line.slice(0, comma).trim(), registrationNumber: line.slice(comma + 1).trim() };
    });
