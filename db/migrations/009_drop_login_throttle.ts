import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Login throttling moved to rate-limiter-flexible counters (memory, or Redis with REDIS_URL), taken
// atomically before the password check; the table's read-then-write counting raced.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_throttle');
}

/** The table exactly as 002_login_throttle made it (its rows are gone for good). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_throttle', (t) => {
    tableDefaults(knex)(t);
    t.string('key', 191).primary();
    t.integer('failures').notNullable().defaultTo(0);
    t.bigInteger('window_started_at').notNullable();
    t.bigInteger('blocked_until').notNullable().defaultTo(0);
  });
}
