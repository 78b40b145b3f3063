import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// The payment reconciler's record (api/orders/paymentReconciler.ts): one row per captured payment
// it found unsettled. The unique key is the claim that lets exactly one process settle a payment;
// claimed_at is a lease, so a claim left by a process that died is taken over later. The rows are
// also the admin dashboard's count of payments that needed reconciling.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_reconciliations', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.string('provider', 16).notNullable();
    t.string('payment_intent_id', 255).notNullable();
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders');
    t.bigInteger('found_at').notNullable();
    t.bigInteger('claimed_at').notNullable();
    t.string('claim_token', 32).notNullable();
    // Set once the payment is fulfilled, refunded (gateway confirmed) or found to need a person.
    t.bigInteger('settled_at').nullable();
    t.string('outcome', 32).nullable();
    t.text('detail').nullable();
    t.unique(['provider', 'payment_intent_id'], { indexName: 'payment_reconciliations_intent_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('payment_reconciliations');
}
