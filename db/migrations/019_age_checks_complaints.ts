import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Age checks and the complaints process (docs/product.md#age-checks, #complaints): each customer's
// date of birth and the admin's document check; a competition's stated prize value (winners of
// prizes over the site's threshold must be age-verified); complaints and the admin's replies.
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);

  await knex.schema.alterTable('users', (t) => {
    // YYYY-MM-DD as typed: a calendar date, not an instant, so no time zone can shift it.
    t.string('date_of_birth', 10).nullable();
    t.bigInteger('age_verified_at').nullable();
    // No foreign key: the record of who checked stays if that admin's account goes.
    t.integer('age_verified_by').unsigned().nullable();
  });

  await knex.schema.alterTable('competitions', (t) => {
    t.integer('prize_value_pence').unsigned().nullable();
  });

  await knex.schema.createTable('complaints', (t) => {
    table(t);
    t.increments('id').primary();
    t.string('reference', 16).notNullable().unique('complaints_reference_unique');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('order_id').unsigned().nullable().references('id').inTable('orders').onDelete('SET NULL');
    t.string('subject', 200).notNullable();
    t.text('message').notNullable();
    t.string('status', 16).notNullable(); // 'open' | 'responded' | 'closed'
    t.bigInteger('due_at').notNullable();
    t.bigInteger('closed_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['user_id'], 'complaints_user_idx');
    t.index(['status', 'due_at'], 'complaints_queue_idx');
  });

  await knex.schema.createTable('complaint_replies', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('complaint_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('complaints')
      .onDelete('CASCADE');
    // No foreign key: the reply stays if the admin's account goes.
    t.integer('admin_user_id').unsigned().nullable();
    t.string('admin_username', 64).nullable();
    t.text('message').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['complaint_id'], 'complaint_replies_complaint_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('complaint_replies');
  await knex.schema.dropTableIfExists('complaints');
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('prize_value_pence');
  });
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('date_of_birth');
    t.dropColumn('age_verified_at');
    t.dropColumn('age_verified_by');
  });
}
