import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// The transactional outbox of e-mails (docs/emails.md#the-outbox): a row written in the same
// transaction as the fact the e-mail reports (a paid order, a draw, a refund), sent afterwards by
// the outbox worker with retries. UNIQUE (kind, subject_key) makes an e-mail owed twice (a retried
// transaction, a repeated webhook) one row; claimed_until is the lease that keeps two processes
// from sending one row at once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_outbox', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    // The template's name ('order-confirmation') and what it is about ('order:12').
    t.string('kind', 64).notNullable();
    t.string('subject_key', 128).notNullable();
    // No foreign key: account deletion removes the user's rows itself (api/accounts).
    t.integer('user_id').unsigned().nullable();
    t.string('recipient', 254).notNullable();
    // The template's props as JSON, frozen at enqueue; cleared once sent. Draw results can list
    // thousands of numbers, hence more than TEXT's 64 KB on MariaDB.
    t.text('props', 'mediumtext').nullable();
    t.string('status', 16).notNullable(); // 'pending' | 'sent' | 'failed' | 'suppressed'
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_at').notNullable();
    t.bigInteger('claimed_until').nullable();
    t.string('last_error', 255).nullable();
    // Derived from kind, subject_key and created_at at the first try; every try carries it.
    t.string('message_id', 255).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('sent_at').nullable();
    t.unique(['kind', 'subject_key'], { indexName: 'mail_outbox_kind_subject_unique' });
    t.index(['status', 'next_attempt_at'], 'mail_outbox_due_idx');
    t.index(['user_id'], 'mail_outbox_user_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mail_outbox');
}
