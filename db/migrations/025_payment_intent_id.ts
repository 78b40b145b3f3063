import type { Knex } from 'knex';

// orders.stripe_payment_intent_id holds the payment intent of whichever gateway took the order
// (the sandbox's too), so it is named payment_intent_id. Its unique index
// (orders_payment_intent_unique) follows the column on both engines. A plain RENAME COLUMN only
// changes metadata on MariaDB (knex's renameColumn there would drop and re-create the foreign keys
// of the table) and is SQLite's own statement for it.

const rename = (knex: Knex, from: string, to: string) =>
  knex.raw('ALTER TABLE ?? RENAME COLUMN ?? TO ??', ['orders', from, to]);

export async function up(knex: Knex): Promise<void> {
  await rename(knex, 'stripe_payment_intent_id', 'payment_intent_id');
}

export async function down(knex: Knex): Promise<void> {
  await rename(knex, 'payment_intent_id', 'stripe_payment_intent_id');
}
