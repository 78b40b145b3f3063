import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Player protection (docs/product.md#player-protection): a monthly spend limit with a pending
// raise, a self-exclusion end, the card funding of each card order (for the credit-card cap), and
// the operator's harm-review notes.
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);

  await knex.schema.alterTable('users', (t) => {
    // Null: no limit. A lower limit replaces it at once; a higher one (or none) waits 24 hours.
    t.integer('monthly_spend_limit_pence').nullable();
    // A raise or removal waiting: pending_spend_limit_at set; the value may be null (removal).
    t.integer('pending_spend_limit_pence').nullable();
    t.bigInteger('pending_spend_limit_at').nullable();
    // Time-out or self-exclusion: no holds, purchases or marketing until then.
    t.bigInteger('self_excluded_at').nullable();
    t.bigInteger('self_excluded_until').nullable();
  });

  // 'credit' | 'debit' | 'prepaid' | 'unknown', recorded before the card is charged.
  await knex.schema.alterTable('orders', (t) => {
    t.string('card_funding', 16).nullable();
  });

  await knex.schema.createTable('harm_reviews', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('admin_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('action', 32).notNullable();
    t.text('note').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['user_id', 'created_at'], 'harm_reviews_user_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('harm_reviews');
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('card_funding');
  });
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('monthly_spend_limit_pence');
    t.dropColumn('pending_spend_limit_pence');
    t.dropColumn('pending_spend_limit_at');
    t.dropColumn('self_excluded_at');
    t.dropColumn('self_excluded_until');
  });
}
