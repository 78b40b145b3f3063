import type { Knex } from 'knex';

// The back office (issue 39 §10): an admin's notes on a customer (who wrote what, when), and the
// reason an admin gave for cancelling an order (the customer's e-mail quotes it).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('customer_notes', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('admin_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.text('text').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['user_id', 'created_at']);
  });
  await knex.schema.alterTable('orders', (t) => {
    t.string('cancellation_reason', 500).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('cancellation_reason');
  });
  await knex.schema.dropTable('customer_notes');
}
