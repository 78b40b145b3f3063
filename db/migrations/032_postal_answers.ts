import type { Knex } from 'knex';

// A postcard's answer to the competition's skill question (docs/product.md#free-postal-entry):
// recorded with the entry, which is refused when the answer is wrong. Earlier rows have none.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('postal_entries', (t) => {
    t.string('answer', 100).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('postal_entries', (t) => {
    t.dropColumn('answer');
  });
}
