import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Free postal entries (docs/product.md#free-postal-entry): one row per postcard an admin records.
// The ticket itself is an ordinary sold row (same unique key as bought tickets), sold on a £0
// order with payment_provider 'postal', so the draw, entries list, caps and history treat it
// exactly like a bought one. The keys are the normalised e-mail and address+postcode that group
// an entrant without an account for the per-person cap.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('postal_entries', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders');
    t.integer('number').notNullable();
    t.integer('user_id').unsigned().nullable().references('id').inTable('users');
    t.string('name', 200).notNullable();
    t.string('email', 254).notNullable();
    t.string('email_key', 254).notNullable();
    t.string('address', 500).notNullable();
    t.string('postcode', 16).notNullable();
    t.string('address_key', 520).notNullable();
    t.bigInteger('received_at').notNullable();
    t.integer('recorded_by_user_id').unsigned().nullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['order_id'], { indexName: 'postal_entries_order_unique' });
    t.index(['competition_id', 'email_key'], 'postal_entries_email_idx');
    t.index(['competition_id', 'address_key'], 'postal_entries_address_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('postal_entries');
}
