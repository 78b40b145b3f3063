import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Marketing e-mails and the watchlist (docs/emails.md#marketing-e-mails): what a customer watches,
// each campaign (one per kind and competition: the ending-soon notice and the 'new competition
// live' announcement), who each campaign reached and how (owed now, waiting for the customer's
// daily allowance, or dropped), and each one-click unsubscribe with the campaign it came from.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('watchlist', (t) => {
    tableDefaults(knex)(t);
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('competition_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.primary(['user_id', 'competition_id']);
    t.index(['competition_id'], 'watchlist_competition_idx');
  });
  await knex.schema.createTable('marketing_campaigns', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.string('kind', 32).notNullable(); // 'ending-soon' | 'new-competition'
    // No foreign key: the record of what was sent stays when a competition without sales is deleted.
    t.integer('competition_id').unsigned().notNullable();
    t.string('title', 255).notNullable();
    t.bigInteger('started_at').notNullable();
    t.unique(['kind', 'competition_id'], { indexName: 'marketing_campaigns_kind_competition_unique' });
  });
  await knex.schema.createTable('marketing_messages', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.integer('campaign_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('marketing_campaigns')
      .onDelete('CASCADE');
    // No foreign key: account deletion removes the user's rows itself (api/accounts).
    t.integer('user_id').unsigned().notNullable();
    t.string('status', 16).notNullable(); // 'owed' | 'waiting' | 'dropped'
    // When it goes (or went): now, or the end of the wait for the customer's daily allowance.
    t.bigInteger('send_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['campaign_id', 'user_id'], { indexName: 'marketing_messages_campaign_user_unique' });
    t.index(['user_id', 'send_at'], 'marketing_messages_user_send_idx');
  });
  await knex.schema.createTable('marketing_unsubscribes', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable();
    t.string('kind', 32).notNullable();
    t.integer('campaign_id').unsigned().nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['campaign_id'], 'marketing_unsubscribes_campaign_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('marketing_unsubscribes');
  await knex.schema.dropTableIfExists('marketing_messages');
  await knex.schema.dropTableIfExists('marketing_campaigns');
  await knex.schema.dropTableIfExists('watchlist');
}
