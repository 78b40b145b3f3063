import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// E-mails (docs/emails.md): the mail log an operator reads to answer "I never got my e-mail",
// each customer's marketing consent with when it last changed, and the once-only marker of an
// order's cancellation notice (a refund can be retried many times; the customer hears once).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_log', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    // No foreign key: the row is a record of what was sent, kept when the account goes.
    t.integer('user_id').unsigned().nullable();
    t.string('recipient', 254).notNullable();
    t.string('subject', 255).notNullable();
    t.string('template', 64).notNullable();
    t.string('status', 16).notNullable(); // 'sent' | 'failed'
    t.string('error', 255).nullable();
    t.string('message_id', 255).nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['created_at'], 'mail_log_created_at_idx');
    t.index(['recipient'], 'mail_log_recipient_idx');
  });
  await knex.schema.alterTable('users', (t) => {
    t.boolean('marketing_emails').notNullable().defaultTo(false);
    t.bigInteger('marketing_emails_updated_at').nullable();
  });
  await knex.schema.alterTable('orders', (t) => {
    t.bigInteger('cancellation_notice_sent_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('cancellation_notice_sent_at');
  });
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('marketing_emails');
    t.dropColumn('marketing_emails_updated_at');
  });
  await knex.schema.dropTableIfExists('mail_log');
}
