import type { Knex } from 'knex';

// Multi-buy pricing (docs/product.md#multi-buy-pricing): a competition's bundles, and what each
// ticket of an order line actually cost, so refunds, receipts and every limit use what was paid.
//   competitions.bundles: JSON [{ quantity, pricePence }], null = none.
//   order_items.paid_pence: what the line cost (existing lines: quantity × ticket price).
//   order_items.ticket_costs: JSON pence per ticket, in the order of selected_numbers; null = each
//   ticket at ticket_price_pence (every line written before bundles existed).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.text('bundles').nullable();
  });
  await knex.schema.alterTable('order_items', (t) => {
    t.integer('paid_pence').notNullable().defaultTo(0);
    t.text('ticket_costs').nullable();
  });
  await knex('order_items').update({ paid_pence: knex.raw('ticket_price_pence * quantity') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.dropColumn('paid_pence');
    t.dropColumn('ticket_costs');
  });
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('bundles');
  });
}
