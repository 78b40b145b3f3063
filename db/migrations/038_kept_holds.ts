import type { Knex } from 'knex';

// 'Keep my numbers' (docs/product.md#holds): when a hold was kept once (each hold may be, once).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cart_items', (t) => {
    t.bigInteger('kept_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cart_items', (t) => {
    t.dropColumn('kept_at');
  });
}
