import type { Knex } from 'knex';
import * as foundation from './001_foundation';
import * as loginThrottle from './002_login_throttle';
import * as skillQuestion from './003_skill_question';
import * as checkout from './004_checkout';
import * as admin from './005_admin';
import * as draws from './006_draws';
import * as guestIds from './007_guest_ids';
import * as cartRevisions from './008_cart_revisions';
import * as dropLoginThrottle from './009_drop_login_throttle';
import * as paymentReconciliations from './010_payment_reconciliations';
import * as emails from './013_emails';
import * as accountTokens from './014_account_tokens';
import * as twoFactorPromoCodes from './015_two_factor_promo_codes';
import * as drawBeacon from './016_draw_beacon';
import * as postalEntries from './017_postal_entries';
import * as skillPools from './018_skill_pools';
import * as ageChecksComplaints from './019_age_checks_complaints';
import * as playerProtection from './020_player_protection';
import * as instantWins from './022_instant_wins';
import * as mainPrizes from './023_main_prizes';
import * as capLocks from './024_cap_locks';
import * as paymentIntentId from './025_payment_intent_id';
import * as sessionTombstones from './026_session_tombstones';
import * as exclusionRegister from './027_exclusion_register';
import * as mailOutbox from './028_mail_outbox';
import * as entriesFinal from './030_entries_final';
import * as postalAnswers from './032_postal_answers';
import * as prizeClaims from './033_prize_claims';
import * as cardFacts from './034_card_facts';
import * as drawRequestedBy from './035_draw_requested_by';
import * as backOffice from './036_back_office';
import * as keptHolds from './038_kept_holds';
import * as owedRefunds from './039_owed_refunds';
import * as postalClaims from './040_postal_claims';
import * as launches from './041_launches';
import * as minimumSales from './042_minimum_sales';
import * as bundles from './043_bundles';
import * as gallery from './044_gallery';
import * as publicNames from './045_public_names';
import * as marketing from './046_marketing';
import * as webPush from './047_web_push';
import * as referrals from './048_referrals';
import * as numberAlerts from './049_number_alerts';
import * as launchQueue from './050_launch_queue';
import * as holdProcedures from './051_hold_procedures';

interface Migration {
  name: string;
  up: (knex: Knex) => Promise<void>;
  down: (knex: Knex) => Promise<void>;
}

// Listed in order here rather than discovered from the file system, so the same list runs under
// tsx, vitest and a bundled build. Append new migrations; never edit a released one.
const migrations: Migration[] = [
  { name: '001_foundation', ...foundation },
  { name: '002_login_throttle', ...loginThrottle },
  { name: '003_skill_question', ...skillQuestion },
  { name: '004_checkout', ...checkout },
  { name: '005_admin', ...admin },
  { name: '006_draws', ...draws },
  { name: '007_guest_ids', ...guestIds },
  { name: '008_cart_revisions', ...cartRevisions },
  { name: '009_drop_login_throttle', ...dropLoginThrottle },
  { name: '010_payment_reconciliations', ...paymentReconciliations },
  { name: '013_emails', ...emails },
  { name: '014_account_tokens', ...accountTokens },
  { name: '015_two_factor_promo_codes', ...twoFactorPromoCodes },
  { name: '016_draw_beacon', ...drawBeacon },
  { name: '017_postal_entries', ...postalEntries },
  { name: '018_skill_pools', ...skillPools },
  { name: '019_age_checks_complaints', ...ageChecksComplaints },
  { name: '020_player_protection', ...playerProtection },
  { name: '022_instant_wins', ...instantWins },
  { name: '023_main_prizes', ...mainPrizes },
  { name: '024_cap_locks', ...capLocks },
  { name: '025_payment_intent_id', ...paymentIntentId },
  { name: '026_session_tombstones', ...sessionTombstones },
  { name: '027_exclusion_register', ...exclusionRegister },
  { name: '028_mail_outbox', ...mailOutbox },
  { name: '030_entries_final', ...entriesFinal },
  { name: '032_postal_answers', ...postalAnswers },
  { name: '033_prize_claims', ...prizeClaims },
  { name: '034_card_facts', ...cardFacts },
  { name: '035_draw_requested_by', ...drawRequestedBy },
  { name: '036_back_office', ...backOffice },
  { name: '038_kept_holds', ...keptHolds },
  { name: '039_owed_refunds', ...owedRefunds },
  { name: '040_postal_claims', ...postalClaims },
  { name: '041_launches', ...launches },
  { name: '042_minimum_sales', ...minimumSales },
  { name: '043_bundles', ...bundles },
  { name: '044_gallery', ...gallery },
  { name: '045_public_names', ...publicNames },
  { name: '046_marketing', ...marketing },
  { name: '047_web_push', ...webPush },
  { name: '048_referrals', ...referrals },
  { name: '049_number_alerts', ...numberAlerts },
  { name: '050_launch_queue', ...launchQueue },
  { name: '051_hold_procedures', ...holdProcedures },
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};
