import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Instant wins (docs/draws.md#instant-wins): one row per winning ticket number, fixed before
// sales, with who won it, when and in which order. The competition keeps the secret salt and the
// published commitment (null until sales open with a list).
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);

  await knex.schema.alterTable('competitions', (t) => {
    // Secret until the close, as the draw seed.
    t.string('instant_win_salt', 64).nullable();
    t.string('instant_win_commitment', 64).nullable();
  });

  await knex.schema.createTable('instant_wins', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('competition_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.string('title', 200).notNullable();
    // 'credit' (amount_pence paid into the credit ledger) | 'prize' (delivered, worth cash_value_pence)
    t.string('kind', 16).notNullable();
    t.integer('amount_pence').nullable();
    t.text('description').nullable();
    t.integer('cash_value_pence').nullable();
    t.integer('number').notNullable();
    t.bigInteger('won_at').nullable();
    // 1 for the competition's first prize won, 2 for the next …
    t.integer('won_order').nullable();
    t.integer('user_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.integer('order_id').unsigned().nullable().references('id').inTable('orders').onDelete('SET NULL');
    // The published name (first name and initial) as it was when the prize was won.
    t.string('winner_name', 200).nullable();
    t.bigInteger('delivered_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['competition_id', 'number'], { indexName: 'instant_wins_number_unique' });
    t.index(['order_id'], 'instant_wins_order_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('instant_wins');
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('instant_win_salt');
    t.dropColumn('instant_win_commitment');
  });
}
