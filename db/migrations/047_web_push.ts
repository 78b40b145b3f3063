import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Web push (docs/product.md#web-push): the site's VAPID key pair, made on first start and kept
// here so every process signs with the same key (one row, id 1; the private key sealed with the
// session secret), and each browser's push subscription, owned by one customer.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_keys', (t) => {
    tableDefaults(knex)(t);
    t.integer('id').unsigned().primary();
    t.string('public_key', 128).notNullable();
    t.string('private_key_sealed', 255).notNullable();
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.createTable('push_subscriptions', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    // A browser's endpoint is its identity: one row per endpoint, whoever signed in last owns it.
    t.string('endpoint', 1000).notNullable();
    t.string('endpoint_hash', 64).notNullable();
    t.string('p256dh', 200).notNullable();
    t.string('auth', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['endpoint_hash'], { indexName: 'push_subscriptions_endpoint_unique' });
    t.index(['user_id'], 'push_subscriptions_user_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('push_subscriptions');
  await knex.schema.dropTableIfExists('push_keys');
}
