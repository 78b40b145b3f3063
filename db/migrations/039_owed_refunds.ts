import type { Knex } from 'knex';

// A card refund of part of an order (the admin's "refund some tickets"), owed in the same
// transaction that gives the tickets back: the ledger row of that money. It is sent after COMMIT
// and, if the gateway could not be reached or the process died first, by the payment reconciler,
// always with its own idempotency key, so it is paid exactly once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('order_refunds', (t) => {
    t.increments('id').primary();
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.integer('amount_pence').notNullable();
    t.string('reason', 500).notNullable();
    t.string('idempotency_key', 100).notNullable().unique();
    /** 'owed' until the gateway has done it, then 'sent'. */
    t.string('status', 10).notNullable().defaultTo('owed');
    t.string('reference', 100).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('last_error', 500).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('sent_at').nullable();
    t.index(['status', 'created_at']);
    t.index(['order_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('order_refunds');
}
