import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// One row per competition and cart owner ('g:<guestId>' or 'u:<userId>'), written only to be
// locked: a hold's per-person cap check locks its owner's rows first, so one person's parallel
// holds take turns while other people's holds on the same competition do not wait for them
// (api/tickets/holdChecks.ts, lockOwnerCap). Before, every hold locked the competition's row.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cap_locks', (t) => {
    tableDefaults(knex)(t);
    t.integer('competition_id').unsigned().notNullable();
    t.string('owner_key', 80).notNullable();
    t.primary(['competition_id', 'owner_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('cap_locks');
}
