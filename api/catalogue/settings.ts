import type { Knex } from 'knex';
import { type EntryTerms, POSTAL_PROCESSING_DAYS } from '../../contract/postal';
import {
  type SettingFields,
  SITE_SETTINGS,
  type SiteSetting,
  type StoredValues,
} from '../../contract/siteSettings';
import { type Actor, writeAudit } from '../platform/auditLog';
import { readSiteSetting } from '../platform/settings/promoter';
import { defaultCap } from '../tickets/holdChecks';

// Reads, writes and resets of the site settings declared in contract/siteSettings.ts: each field
// is one `siteSettings` row; every change is audited in its own transaction. The read lives in
// api/platform/promoter.ts (the mailer needs it too) and is re-exported here.

export { readSiteSetting };

/** A setting as its GET answers it. */
export async function siteSettingView<F extends SettingFields, V>(
  db: Knex,
  setting: SiteSetting<F, unknown, V>,
): Promise<V> {
  return setting.toView(await readSiteSetting(db, setting));
}

function audit<F extends SettingFields, V>(
  trx: Knex.Transaction,
  actor: Actor,
  setting: SiteSetting<F, unknown, V>,
  before: StoredValues<F>,
  after: StoredValues<F>,
  now: number,
) {
  const record = (values: StoredValues<F>) =>
    setting.audit.record === 'view' ? setting.toView(values) : values;
  return writeAudit(
    trx,
    actor,
    setting.audit.action,
    { type: 'setting', id: setting.audit.id },
    record(before),
    record(after),
    now,
  );
}

/** A value as its row holds it: a list or object as JSON. */
const storedText = (value: unknown) =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** Stores every field of the setting and audits the change; answers the new view. */
export async function saveSiteSetting<F extends SettingFields, V>(
  db: Knex,
  actor: Actor,
  setting: SiteSetting<F, unknown, V>,
  values: StoredValues<F>,
  now = Date.now(),
): Promise<V> {
  return db.transaction(async (trx) => {
    const before = await readSiteSetting(trx, setting);
    for (const [name, field] of Object.entries(setting.fields)) {
      await trx('siteSettings')
        .insert({ key: field.key, value: storedText(values[name]), createdAt: now, updatedAt: now })
        .onConflict('key')
        .merge(['value', 'updatedAt']);
    }
    await audit(trx, actor, setting, before, values, now);
    return setting.toView(values);
  });
}

/** Back to the defaults (removes the rows); audited when that changes what the setting shows. */
export async function resetSiteSetting<F extends SettingFields, V>(
  db: Knex,
  actor: Actor,
  setting: SiteSetting<F, unknown, V>,
  now = Date.now(),
): Promise<V> {
  return db.transaction(async (trx) => {
    const before = await readSiteSetting(trx, setting);
    const fields = Object.values(setting.fields);
    await trx('siteSettings')
      .whereIn(
        'key',
        fields.map((field) => field.key),
      )
      .delete();
    const after = Object.fromEntries(
      Object.entries(setting.fields).map(([name, field]) => [name, field.default]),
    ) as StoredValues<F>;
    const view = setting.toView(after);
    if (JSON.stringify(setting.toView(before)) !== JSON.stringify(view)) {
      await audit(trx, actor, setting, before, after, now);
    }
    return view;
  });
}

/** What the Terms and competition pages state, from the live settings: nothing hard-coded. */
export async function entryTerms(db: Knex, reservationTtlSeconds: number): Promise<EntryTerms> {
  const [{ postalAddress }, cap] = await Promise.all([
    readSiteSetting(db, SITE_SETTINGS.postalAddress),
    defaultCap(db),
  ]);
  return {
    postalAddress,
    holdMinutes: Math.round(reservationTtlSeconds / 60),
    defaultMaxTicketsPerUser: cap,
    postalProcessingDays: POSTAL_PROCESSING_DAYS,
  };
}
