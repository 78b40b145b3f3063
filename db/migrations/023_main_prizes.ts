import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Several prizes in the main draw (docs/draws.md "Several prizes"). A competition's ordered list of
// main prizes (null: one prize, its title). The `draws` row stays the 1st prize's winner record;
// the 2nd and later prizes get a `draw_prizes` row each, with their own e-mail and delivery.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    // JSON [{ title, description, cashValuePence }], 1st prize first.
    t.text('main_prizes').nullable();
  });
  await knex.schema.createTable('draw_prizes', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.integer('position').notNullable(); // 2, 3, ...
    t.string('title', 200).notNullable();
    t.integer('winning_index').notNullable(); // among the entries not yet won
    t.integer('winning_number').notNullable();
    t.integer('counter').notNullable();
    // No foreign keys, as on draws: a record of what was true at the draw.
    t.integer('winner_user_id').unsigned().nullable();
    t.integer('winner_order_id').unsigned().nullable();
    t.bigInteger('winner_notified_at').nullable();
    t.bigInteger('prize_delivered_at').nullable();
    t.unique(['competition_id', 'position'], { indexName: 'draw_prizes_position_unique' });
    // One number cannot win twice (the 1st prize's number is on draws).
    t.unique(['competition_id', 'winning_number'], { indexName: 'draw_prizes_number_unique' });
    t.index(['winner_user_id'], 'draw_prizes_winner_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('draw_prizes');
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('main_prizes');
  });
}
