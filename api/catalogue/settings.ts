import type { Knex } from 'knex';
import type { HeroImage } from '../../contract/competitions';
import { type EntryTerms, POSTAL_PROCESSING_DAYS, type PostalAddressSetting } from '../../contract/postal';
import type { OperatorSettings, OperatorSettingsView } from '../../contract/receipts';
import { SiteSetting } from '../../db/models';
import { type Actor, writeAudit } from '../platform/auditLog';
import { DEFAULT_CAP_SETTING, defaultCap } from '../tickets/holdChecks';

export const DEFAULT_HERO_IMAGE = '/images/hero-default.svg';
export const HERO_IMAGE_KEY = 'hero_image';

export async function getSetting(db: Knex, key: string): Promise<string | undefined> {
  const row = await SiteSetting.query(db).findOne({ key });
  return row?.value;
}

/** The admin's hero image, or the bundled default. */
export async function getHeroImage(db: Knex): Promise<HeroImage> {
  const custom = await getSetting(db, HERO_IMAGE_KEY);
  return custom ? { imageUrl: custom, isDefault: false } : { imageUrl: DEFAULT_HERO_IMAGE, isDefault: true };
}

async function putSetting(trx: Knex.Transaction, key: string, value: string, now: number) {
  await trx('siteSettings')
    .insert({ key, value, createdAt: now, updatedAt: now })
    .onConflict('key')
    .merge(['value', 'updatedAt']);
}

/** The hero image becomes this (already stored) image URL; audited. */
export async function setHeroImage(
  db: Knex,
  actor: Actor,
  imageUrl: string,
  now = Date.now(),
): Promise<HeroImage> {
  return db.transaction(async (trx) => {
    const before = await getHeroImage(trx);
    await putSetting(trx, HERO_IMAGE_KEY, imageUrl, now);
    const after = { imageUrl, isDefault: false };
    await auditHeroImage(trx, actor, before, after, now);
    return after;
  });
}

const auditHeroImage = (
  trx: Knex.Transaction,
  actor: Actor,
  before: HeroImage,
  after: HeroImage,
  now: number,
) =>
  writeAudit(trx, actor, 'setting.hero_image', { type: 'setting', id: HERO_IMAGE_KEY }, before, after, now);

/** Back to the bundled default (the uploaded file stays: other pages may still show it). */
export async function resetHeroImage(db: Knex, actor: Actor, now = Date.now()): Promise<HeroImage> {
  return db.transaction(async (trx) => {
    const before = await getHeroImage(trx);
    await trx('siteSettings').where({ key: HERO_IMAGE_KEY }).delete();
    const after = { imageUrl: DEFAULT_HERO_IMAGE, isDefault: true };
    if (!before.isDefault) {
      await auditHeroImage(trx, actor, before, after, now);
    }
    return after;
  });
}

/**
 * The per-person cap of every competition without its own (the holds read it in
 * tickets/holdChecks.ts, so a change applies to the next hold); audited.
 */
export async function setDefaultTicketCap(db: Knex, actor: Actor, value: number, now = Date.now()) {
  return db.transaction(async (trx) => {
    const before = { defaultMaxTicketsPerUser: await defaultCap(trx) };
    await putSetting(trx, DEFAULT_CAP_SETTING, String(value), now);
    const after = { defaultMaxTicketsPerUser: value };
    await writeAudit(
      trx,
      actor,
      'setting.default_max_tickets_per_user',
      { type: 'setting', id: DEFAULT_CAP_SETTING },
      before,
      after,
      now,
    );
    return after;
  });
}

const OPERATOR_NAME_KEY = 'operator_name';
const OPERATOR_ADDRESS_KEY = 'operator_address';

/** Who runs the site, as receipts name it (null until the admin sets it). */
export async function getOperatorSettings(db: Knex): Promise<OperatorSettingsView> {
  const [operatorName, operatorAddress] = await Promise.all([
    getSetting(db, OPERATOR_NAME_KEY),
    getSetting(db, OPERATOR_ADDRESS_KEY),
  ]);
  return { operatorName: operatorName ?? null, operatorAddress: operatorAddress ?? null };
}

/** The operator's name and address change together; audited. */
export async function setOperatorSettings(
  db: Knex,
  actor: Actor,
  settings: OperatorSettings,
  now = Date.now(),
): Promise<OperatorSettingsView> {
  return db.transaction(async (trx) => {
    const before = await getOperatorSettings(trx);
    await putSetting(trx, OPERATOR_NAME_KEY, settings.operatorName, now);
    await putSetting(trx, OPERATOR_ADDRESS_KEY, settings.operatorAddress, now);
    const after = { ...settings };
    await writeAudit(trx, actor, 'setting.operator', { type: 'setting', id: 'operator' }, before, after, now);
    return after;
  });
}

export const POSTAL_ADDRESS_KEY = 'postal_entry_address';

/** Where free postal entries are sent (null until the admin sets it). */
export async function getPostalAddress(db: Knex): Promise<string | null> {
  return (await getSetting(db, POSTAL_ADDRESS_KEY)) ?? null;
}

/** The postal entry address, shown on the Terms and every competition page; audited. */
export async function setPostalAddress(
  db: Knex,
  actor: Actor,
  postalAddress: string,
  now = Date.now(),
): Promise<PostalAddressSetting> {
  return db.transaction(async (trx) => {
    const before = { postalAddress: await getPostalAddress(trx) };
    await putSetting(trx, POSTAL_ADDRESS_KEY, postalAddress, now);
    const after = { postalAddress };
    await writeAudit(
      trx,
      actor,
      'setting.postal_address',
      { type: 'setting', id: POSTAL_ADDRESS_KEY },
      before,
      after,
      now,
    );
    return after;
  });
}

const COMPLAINT_DAYS_KEY = 'complaint_response_days';
const AGE_CHECK_THRESHOLD_KEY = 'age_check_prize_threshold_pence';
/** Until the admin sets them: answer complaints within 14 days; check the age of every winner. */
export const DEFAULT_COMPLAINT_RESPONSE_DAYS = 14;
export const DEFAULT_AGE_CHECK_THRESHOLD_PENCE = 0;

/** The complaint deadline and the prize value above which a winner's age must be verified. */
export async function getComplianceSettings(db: Knex) {
  const [days, threshold] = await Promise.all([
    getSetting(db, COMPLAINT_DAYS_KEY),
    getSetting(db, AGE_CHECK_THRESHOLD_KEY),
  ]);
  return {
    complaintResponseDays: days === undefined ? DEFAULT_COMPLAINT_RESPONSE_DAYS : Number(days),
    ageCheckPrizeThresholdPence:
      threshold === undefined ? DEFAULT_AGE_CHECK_THRESHOLD_PENCE : Number(threshold),
  };
}

/** Both compliance settings change together; audited. */
export async function setComplianceSettings(
  db: Knex,
  actor: Actor,
  settings: { complaintResponseDays: number; ageCheckPrizeThresholdPence: number },
  now = Date.now(),
) {
  return db.transaction(async (trx) => {
    const before = await getComplianceSettings(trx);
    await putSetting(trx, COMPLAINT_DAYS_KEY, String(settings.complaintResponseDays), now);
    await putSetting(trx, AGE_CHECK_THRESHOLD_KEY, String(settings.ageCheckPrizeThresholdPence), now);
    const after = { ...settings };
    await writeAudit(
      trx,
      actor,
      'setting.compliance',
      { type: 'setting', id: 'compliance' },
      before,
      after,
      now,
    );
    return after;
  });
}

/** What the Terms and competition pages state, from the live settings: nothing hard-coded. */
export async function entryTerms(db: Knex, reservationTtlSeconds: number): Promise<EntryTerms> {
  const [postalAddress, cap] = await Promise.all([getPostalAddress(db), defaultCap(db)]);
  return {
    postalAddress,
    holdMinutes: Math.round(reservationTtlSeconds / 60),
    defaultMaxTicketsPerUser: cap,
    postalProcessingDays: POSTAL_PROCESSING_DAYS,
  };
}
