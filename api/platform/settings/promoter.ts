import type { Knex } from 'knex';
import { type Charity, type Promoter, type PublicSiteFacts, promoterOf } from '../../../contract/promoter';
import type { SettingFields, StoredValues } from '../../../contract/siteSettings';
import { SITE_SETTINGS } from '../../../contract/siteSettings';

// The stored values of a site setting (contract/siteSettings.ts), and the two every visitor sees:
// the promoter's details and the charities. Here, below every domain, because the mailer puts the
// promoter at the foot of every e-mail.

/** A setting's stored values: its rows, else each field's default. */
export async function readSiteSetting<F extends SettingFields>(
  db: Knex,
  setting: { fields: F },
): Promise<StoredValues<F>> {
  const fields = Object.entries(setting.fields);
  const rows: { key: string; value: string }[] = await db('siteSettings')
    .whereIn(
      'key',
      fields.map(([, field]) => field.key),
    )
    .select('key', 'value');
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return Object.fromEntries(
    fields.map(([name, field]) => {
      const text = stored.get(field.key);
      return [name, text === undefined ? field.default : field.decode(text)];
    }),
  ) as StoredValues<F>;
}

/** The promoter as Site Settings name it: each detail null until set. */
export async function readPromoter(db: Knex): Promise<Promoter> {
  return promoterOf(await readSiteSetting(db, SITE_SETTINGS.operator));
}

export async function readCharities(db: Knex): Promise<Charity[]> {
  return (await readSiteSetting(db, SITE_SETTINGS.charities)).charities;
}

/** What GET /api/site-config and a server-rendered page carry of them. */
export async function publicSiteFacts(db: Knex): Promise<PublicSiteFacts> {
  const [promoter, charities] = await Promise.all([readPromoter(db), readCharities(db)]);
  return { promoter, charities };
}
