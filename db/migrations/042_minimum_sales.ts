import type { Knex } from 'knex';

// Minimum sales and bulk refunds (docs/product.md#minimum-sales-and-cancellation): a competition
// may need `min_tickets_sold` by its end date, else it is extended by `extend_by_days` (at most
// `max_extensions` times) or cancelled. A cancellation refunds every order through a job that
// survives a crash: `bulk_refund_jobs` (one per competition) and one `bulk_refund_orders` row per
// order, each refunded once.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.integer('min_tickets_sold').nullable();
    t.integer('extend_by_days').notNullable().defaultTo(7);
    t.integer('max_extensions').notNullable().defaultTo(0);
    t.integer('extensions_used').notNullable().defaultTo(0);
    t.string('cancellation_reason', 500).nullable();
    t.bigInteger('cancelled_at').nullable();
  });
  await knex.schema.createTable('bulk_refund_jobs', (t) => {
    t.increments('id').primary();
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.string('reason', 500).notNullable();
    t.string('status', 16).notNullable().defaultTo('running').checkIn(['running', 'done', 'failed']);
    t.integer('total').notNullable();
    t.integer('done').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    /** The admin who cancelled; null: the minimum-sales rule at the end date. */
    t.integer('requested_by').unsigned().nullable().references('id').inTable('users');
    /** The process working on it until then; another takes over after (its process died). */
    t.bigInteger('lease_until').nullable();
    /** What the admin must deal with by hand (JSON list of messages), e.g. spent instant-win credit. */
    t.text('notes').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('finished_at').nullable();
    t.unique(['competition_id'], { indexName: 'bulk_refund_jobs_competition_unique' });
    t.index(['status'], 'bulk_refund_jobs_status_idx');
  });
  await knex.schema.createTable('bulk_refund_orders', (t) => {
    t.increments('id').primary();
    t.integer('job_id').unsigned().notNullable().references('id').inTable('bulk_refund_jobs');
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders');
    t.string('status', 16).notNullable().defaultTo('owed').checkIn(['owed', 'refunded', 'failed']);
    t.string('message', 500).nullable();
    t.bigInteger('done_at').nullable();
    t.unique(['job_id', 'order_id'], { indexName: 'bulk_refund_orders_unique' });
    t.index(['job_id', 'status'], 'bulk_refund_orders_status_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('bulk_refund_orders');
  await knex.schema.dropTable('bulk_refund_jobs');
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('min_tickets_sold');
    t.dropColumn('extend_by_days');
    t.dropColumn('max_extensions');
    t.dropColumn('extensions_used');
    t.dropColumn('cancellation_reason');
    t.dropColumn('cancelled_at');
  });
}
