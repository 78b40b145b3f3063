import type { Knex } from 'knex';

// An ended session keeps its row, marked, until it would have expired: a request that loaded the
// session before it ended saves it at its end, and that late save must find the mark and write
// nothing, rather than recreate the session (api/platform/sessions.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.bigInteger('ended_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('ended_at');
  });
}
