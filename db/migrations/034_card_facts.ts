import type { Knex } from 'knex';

// The card a payment used, as the gateway reported it: its brand ('visa', 'mastercard', ...) and
// its last four digits, beside 020's card funding, so an order says "Visa Debit ••5556" instead
// of "Credit Card". Null for orders paid without a card and for orders made before this.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.string('card_brand', 32).nullable();
    t.string('card_last4', 4).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('card_last4');
    t.dropColumn('card_brand');
  });
}
