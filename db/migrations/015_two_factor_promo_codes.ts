import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Two-factor sign-in (TOTP), kept out of `users` so that reading a user never carries the secret;
// and promo codes a customer types in (docs/product.md#site-credit).
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);

  // Stored upper-case; NULL for promos that are only applied automatically.
  await knex.schema.alterTable('promo_configs', (t) => {
    t.string('code', 32).nullable();
    t.unique(['code'], { indexName: 'promo_configs_code_unique' });
  });

  // One row per user who has started setting up two-factor sign-in.
  await knex.schema.createTable('two_factor', (t) => {
    table(t);
    t.integer('user_id').unsigned().primary().references('id').inTable('users').onDelete('CASCADE');
    // AES-256-GCM of the base32 secret (api/platform/secretBox.ts), never the secret itself.
    t.string('secret_encrypted', 255).notNullable();
    // Null while set up but not yet confirmed with a code.
    t.bigInteger('enabled_at').nullable();
    // The last 30-second step a code was accepted for: a code is good once (no replay).
    t.bigInteger('last_step').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  // Ten single-use codes per enabling, stored as SHA-256 hashes.
  await knex.schema.createTable('two_factor_recovery_codes', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('code_hash', 64).notNullable();
    t.bigInteger('used_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['user_id'], 'two_factor_recovery_user_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('two_factor_recovery_codes');
  await knex.schema.dropTableIfExists('two_factor');
  await knex.schema.alterTable('promo_configs', (t) => {
    t.dropUnique(['code'], 'promo_configs_code_unique');
    t.dropColumn('code');
  });
}
