import type { Knex } from 'knex';
import type { Charity } from '../../contract/promoter';
import type { OperatorSettings } from '../../contract/receipts';
import { SITE_SETTINGS } from '../../contract/siteSettings';

// The promoter and the charities of the demo: clearly fictional (Ofcom's drama-range phone number,
// an example.com mailbox, an all-zero company number, "(demo)" in every name), so the demo's
// competitions can be active and the footer, Terms, receipts and e-mails show what a real site would.

export const DEMO_PROMOTER: OperatorSettings = {
  operatorName: 'Example Competitions Ltd (demo)',
  operatorAddress: '1 Example Street\nTruro\nTR1 9ZZ',
  companyNumber: '00000000',
  phone: '01632 960123',
  email: 'promoter@example.com',
};

export const DEMO_CHARITIES: Charity[] = [
  { name: 'Example Veterans Aid (demo)', registrationNumber: '1000001' },
  { name: "Example Children's Hospice (demo)", registrationNumber: '1000002' },
  { name: 'Example Animal Rescue (demo)', registrationNumber: '1000003' },
  { name: 'Example Retired Police Dogs (demo)', registrationNumber: 'SC000004' },
];

/** Each value the admin has not set yet (an admin's own are never replaced). */
export async function seedPromoterAndCharities(trx: Knex, now: number): Promise<void> {
  const values: [string, string][] = [
    ...Object.entries(SITE_SETTINGS.operator.fields).map(
      ([name, field]) => [field.key, DEMO_PROMOTER[name as keyof OperatorSettings]] as [string, string],
    ),
    [SITE_SETTINGS.charities.fields.charities.key, JSON.stringify(DEMO_CHARITIES)],
  ];
  for (const [key, value] of values) {
    if (await trx('siteSettings').where({ key }).first('id')) continue;
    await trx('siteSettings').insert({ key, value, createdAt: now, updatedAt: now });
  }
}
