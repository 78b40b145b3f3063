import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Checkout and payments: what an order needs beyond the foundation's columns, and the offline
// sandbox gateway's own records (its payment intents and refunds), kept in the database so that
// several processes and restarts see the same payments.
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);

  await knex.schema.alterTable('orders', (t) => {
    // What the order was made from (items, numbers, prices, credit): an unchanged cart may reuse it.
    t.string('fingerprint', 64).nullable();
    // Shown to the customer, e.g. replacement numbers given for holds lost while paying.
    t.text('notice').nullable();
    t.string('failure_message', 255).nullable();
    // Set when the money must go back (lost holds, a superseded order paid); refunded_at once the
    // gateway has accepted the refund.
    // Text: the reason names competitions (titles up to 200 characters) and numbers.
    t.text('refund_reason').nullable();
    t.string('refund_reference', 255).nullable();
    t.integer('refunded_pence').notNullable().defaultTo(0);
    t.bigInteger('refunded_at').nullable();
    t.bigInteger('confirmation_sent_at').nullable();
  });

  await knex.schema.createTable('sandbox_payment_intents', (t) => {
    table(t);
    t.string('id', 64).primary();
    t.string('client_secret', 128).notNullable();
    t.integer('order_id').unsigned().nullable().references('id').inTable('orders');
    t.integer('amount_pence').notNullable();
    t.string('currency', 3).notNullable();
    t.string('status', 32).notNullable().checkIn(['requires_payment_method', 'succeeded', 'canceled']);
    t.string('idempotency_key', 255).nullable();
    t.string('last_error_code', 32).nullable();
    t.string('last_error_message', 255).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['idempotency_key'], { indexName: 'sandbox_intents_idempotency_unique' });
    t.index(['order_id'], 'sandbox_intents_order_idx');
    t.check('?? > 0', ['amount_pence'], 'sandbox_intents_amount_positive');
  });

  await knex.schema.createTable('sandbox_refunds', (t) => {
    table(t);
    t.string('id', 64).primary();
    t.string('payment_intent_id', 64).notNullable().references('id').inTable('sandbox_payment_intents');
    t.integer('amount_pence').notNullable();
    t.string('reason', 255).notNullable();
    t.string('idempotency_key', 255).nullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['idempotency_key'], { indexName: 'sandbox_refunds_idempotency_unique' });
    t.check('?? > 0', ['amount_pence'], 'sandbox_refunds_amount_positive');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sandbox_refunds');
  await knex.schema.dropTableIfExists('sandbox_payment_intents');
  await knex.schema.alterTable('orders', (t) => {
    for (const column of [
      'fingerprint',
      'notice',
      'failure_message',
      'refund_reason',
      'refund_reference',
      'refunded_pence',
      'refunded_at',
      'confirmation_sent_at',
    ]) {
      t.dropColumn(column);
    }
  });
}
