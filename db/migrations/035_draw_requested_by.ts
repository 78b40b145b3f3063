import type { Knex } from 'knex';

// Who pressed 'Draw now' (docs/draws.md): a draw whose round is due later is completed in the
// background by the draw job, and its record must still name the admin who asked for it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.integer('draw_requested_by_user_id').unsigned().nullable();
    t.string('draw_requested_by', 64).nullable(); // the admin's username
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('draw_requested_by_user_id');
    t.dropColumn('draw_requested_by');
  });
}
