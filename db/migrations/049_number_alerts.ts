import type { Knex } from 'knex';

// "Tell me when a number frees up": a visitor asks about up to five numbers someone else holds,
// and is told once when one is released. The owner is the account, or the guest session before
// sign-in (`owner_key` is 'u:<id>' or 'g:<guest id>', so one unique index covers both).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('number_alerts', (t) => {
    t.increments('id').primary();
    t.integer('competition_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.integer('number').notNullable();
    t.string('owner_key', 80).notNullable();
    t.string('guest_id', 64).notNullable();
    t.integer('user_id').unsigned().nullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.unique(['competition_id', 'owner_key', 'number'], { indexName: 'number_alerts_owner_number_unique' });
    t.index(['competition_id', 'number'], 'number_alerts_number');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('number_alerts');
}
