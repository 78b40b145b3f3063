import type { Knex } from 'knex';

// Prize galleries (docs/product.md#prize-galleries): a competition's pictures in order, JSON
// [{ url, alt }] (at most 8), as text like the other JSON columns so both engines store it alike.
// Null: no gallery, the competition shows `image` alone; `image` stays the first picture's URL.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.text('images').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('images');
  });
}
