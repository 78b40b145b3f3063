import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Account recovery and e-mail verification (docs/security.md#account-tokens): when an address was
// confirmed, the one-time tokens sent by e-mail (only their SHA-256 is stored), and the mailboxes
// that have had the welcome credit. Accounts created before this migration start unconfirmed.
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);

  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('email_verified_at').nullable();
  });

  await knex.schema.createTable('account_tokens', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users');
    t.string('purpose', 16).notNullable().checkIn(['reset_password', 'verify_email']);
    // The first 16 hex digits of the hash: the lookup key. The full hash is compared in constant time.
    t.string('selector', 16).notNullable();
    t.string('token_hash', 64).notNullable();
    // verify_email: the address the link confirms (the new one for a change of address).
    t.string('email', 254).nullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['selector'], 'account_tokens_selector_idx');
    t.index(['user_id', 'purpose'], 'account_tokens_user_idx');
  });

  // One welcome credit per mailbox: the SHA-256 of the normalised address, so no address is kept.
  await knex.schema.createTable('welcome_mailboxes', (t) => {
    table(t);
    t.increments('id').primary();
    t.string('mailbox_hash', 64).notNullable();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users');
    t.bigInteger('created_at').notNullable();
    t.unique(['mailbox_hash'], { indexName: 'welcome_mailboxes_hash_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('welcome_mailboxes');
  await knex.schema.dropTableIfExists('account_tokens');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_verified_at');
  });
}
