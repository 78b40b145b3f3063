import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// The admin back office: each ticket number's history (held, sold, released, cancelled) for the
// ticket lookup, and an audit log of every admin action that changes data.
export async function up(knex: Knex): Promise<void> {
  const table = tableDefaults(knex);

  // Append-only. No foreign keys to users or orders: the hold path must not take extra locks,
  // and history outlives what it describes. It goes with its competition.
  await knex.schema.createTable('ticket_events', (t) => {
    table(t);
    t.bigIncrements('id').primary();
    t.integer('competition_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.integer('number').notNullable();
    t.string('event', 16).notNullable().checkIn(['held', 'sold', 'released', 'cancelled']);
    t.integer('order_id').unsigned().nullable();
    t.integer('user_id').unsigned().nullable();
    // Why, where it matters: 'expired', 'removed from cart', 'order ORD-…'.
    t.string('note', 100).nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['competition_id', 'number', 'id'], 'ticket_events_number_idx');
  });

  await knex.schema.createTable('audit_log', (t) => {
    table(t);
    t.bigIncrements('id').primary();
    t.integer('actor_user_id').unsigned().nullable(); // the admin (kept if they are later deleted)
    t.string('actor_username', 64).nullable();
    t.string('action', 64).notNullable(); // e.g. 'competition.update'
    t.string('entity_type', 32).notNullable(); // competition, order, user, promo, setting, credit
    t.string('entity_id', 64).nullable();
    t.text('before_json').nullable();
    t.text('after_json').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['entity_type', 'entity_id', 'id'], 'audit_log_entity_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audit_log');
  await knex.schema.dropTableIfExists('ticket_events');
}
