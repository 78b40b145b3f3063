import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Referrals paid in site credit (docs/product.md#referrals): each account's own referral code
// (made on first ask), the card fingerprint the gateway reports for an order's card (to refuse a
// reward between two accounts paying with one card), and `referrals`: one row per referred
// account (UNIQUE referred_user_id), pending until both its conditions are met, then rewarded or
// refused with the reason. The reward's ledger row names its referral, and
// `credit_transactions.referral_id` is UNIQUE: a second reward for one referral cannot be written.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('referral_code', 16).nullable().unique('users_referral_code_unique');
  });
  await knex.schema.alterTable('orders', (t) => {
    t.string('card_fingerprint', 64).nullable();
    t.index(['card_fingerprint'], 'orders_card_fingerprint');
  });
  await knex.schema.createTable('referrals', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.integer('referrer_user_id').unsigned().notNullable().references('id').inTable('users');
    t.integer('referred_user_id').unsigned().notNullable().references('id').inTable('users');
    t.string('status', 16).notNullable().defaultTo('pending'); // 'pending' | 'rewarded' | 'refused'
    // Why no reward was paid (contract/referrals.ts REFUSAL_REASONS); null unless refused.
    t.string('refused_reason', 32).nullable();
    t.integer('reward_pence').unsigned().nullable();
    // The referred customer's first paid order of at least £5 that decided it.
    t.integer('order_id').unsigned().nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('decided_at').nullable();
    t.unique(['referred_user_id'], { indexName: 'referrals_referred_unique' });
    t.index(['referrer_user_id', 'status', 'decided_at'], 'referrals_referrer_status');
  });
  await knex.schema.alterTable('credit_transactions', (t) => {
    t.integer('referral_id').unsigned().nullable();
    t.unique(['referral_id'], { indexName: 'credit_transactions_referral_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('credit_transactions', (t) => {
    t.dropUnique(['referral_id'], 'credit_transactions_referral_unique');
    t.dropColumn('referral_id');
  });
  await knex.schema.dropTable('referrals');
  await knex.schema.alterTable('orders', (t) => {
    t.dropIndex(['card_fingerprint'], 'orders_card_fingerprint');
    t.dropColumn('card_fingerprint');
  });
  await knex.schema.alterTable('users', (t) => {
    t.dropUnique(['referral_code'], 'users_referral_code_unique');
    t.dropColumn('referral_code');
  });
}
