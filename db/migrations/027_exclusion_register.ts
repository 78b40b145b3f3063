import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// The exclusion register (docs/compliance.md#the-exclusion-register): a break binds the person,
// not one account row. Each entry is a keyed hash (HMAC, EXCLUSION_REGISTER_KEY) of a normalised
// mailbox and when the break ends; it outlives a deleted account until then. users.mailbox_key is
// the same hash of the account's address, so every check by account id reaches the register in
// the same statement (tickets/holdChecks.ts breakRead). Accounts made before this migration get
// theirs at start-up (api/accounts/protection/exclusionRegister.ts backfillMailboxKeys).
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);
  await knex.schema.createTable('exclusion_register', (t) => {
    table(t);
    t.increments('id').primary();
    // 'mailbox': the only kind written today; the hash input starts with the kind.
    t.string('kind', 16).notNullable();
    t.string('key_hash', 64).notNullable();
    t.bigInteger('ends_at').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['key_hash'], { indexName: 'exclusion_register_key_unique' });
    t.index(['ends_at'], 'exclusion_register_ends_at');
  });
  await knex.schema.alterTable('users', (t) => {
    t.string('mailbox_key', 64).nullable();
    t.index(['mailbox_key'], 'users_mailbox_key');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropIndex(['mailbox_key'], 'users_mailbox_key');
    t.dropColumn('mailbox_key');
  });
  await knex.schema.dropTableIfExists('exclusion_register');
}
