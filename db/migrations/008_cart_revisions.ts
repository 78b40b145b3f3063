import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// A counter per cart owner ('u:<userId>' or 'g:<guestId>'), bumped in the same transaction as
// every change to that cart. Every cart the server sends carries it, so a browser applies the
// answers to its own requests and the pushes caused by other tabs in order, whatever order they
// arrive in.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cart_revisions', (t) => {
    tableDefaults(knex)(t);
    t.string('owner_key', 80).primary();
    t.bigInteger('revision').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('cart_revisions');
}
