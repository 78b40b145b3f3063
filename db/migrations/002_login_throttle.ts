import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Failed-login counters shared by every app process (so throttling holds behind a load balancer).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_throttle', (t) => {
    tableDefaults(knex)(t);
    t.string('key', 191).primary(); // 'account:<lower username>' or 'ip:<address>'
    t.integer('failures').notNullable().defaultTo(0);
    t.bigInteger('window_started_at').notNullable();
    t.bigInteger('blocked_until').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_throttle');
}
