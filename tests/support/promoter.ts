import type { Knex } from 'knex';
import type { OperatorSettings } from '../../contract/receipts';
import { SITE_SETTINGS } from '../../contract/siteSettings';

// The promoter's details every test server starts with (startTestServer), so that competitions can
// be made active through the admin API as a real admin would after filling in Site Settings. A
// test of the refusal clears them first.

export const TEST_PROMOTER: OperatorSettings = {
  operatorName: 'Example Competitions Ltd (test)',
  operatorAddress: '1 Example Street\nTruro\nTR1 9ZZ',
  companyNumber: '00000000',
  phone: '01632 960000',
  email: 'promoter@example.com',
};

const keys = Object.values(SITE_SETTINGS.operator.fields).map((field) => field.key);

export async function fillPromoterDetails(db: Knex, values: OperatorSettings = TEST_PROMOTER): Promise<void> {
  const now = Date.now();
  for (const [name, field] of Object.entries(SITE_SETTINGS.operator.fields)) {
    await db('siteSettings')
      .insert({
        key: field.key,
        value: values[name as keyof OperatorSettings],
        createdAt: now,
        updatedAt: now,
      })
      .onConflict('key')
      .merge(['value', 'updatedAt']);
  }
}

/** No promoter named: as on a new site, before the admin fills in Site Settings. */
export async function clearPromoterDetails(db: Knex): Promise<void> {
  await db('siteSettings').whereIn('key', keys).delete();
}
