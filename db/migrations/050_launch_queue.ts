import type { Knex } from 'knex';

// A fair queue for hot launches (docs/draws.md#launch-queue): a competition with `launch_queue`
// lets visitors join from shortly before `starts_at`; at `starts_at` those who joined are put in an
// order fixed by a seed committed beforehand (`queue_commitment`, revealed after the shuffle), and
// let in at `queue_admit_per_second`. One place per account or guest session (`owner_key` is
// 'u:<id>' or 'g:<guest id>'); `address_key` is a keyed hash of the client address, never the address.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.boolean('launch_queue').notNullable().defaultTo(false);
    t.string('queue_seed', 64).nullable();
    t.string('queue_commitment', 64).nullable();
    t.integer('queue_admit_per_second').nullable();
    t.bigInteger('queue_last_admit_at').nullable();
    t.bigInteger('queue_shuffled_at').nullable();
    // Set when, after the shuffle, nobody waits: the competition is open to all, holds skip the queue.
    t.bigInteger('queue_drained_at').nullable();
  });
  await knex.schema.createTable('launch_queue_entries', (t) => {
    t.increments('id').primary();
    t.integer('competition_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.string('owner_key', 80).notNullable();
    t.integer('user_id').unsigned().nullable();
    t.string('guest_id', 64).notNullable();
    t.string('address_key', 64).notNullable();
    t.bigInteger('joined_at').notNullable();
    t.integer('position').nullable();
    t.bigInteger('admitted_at').nullable();
    t.bigInteger('admission_expires_at').nullable();
    t.unique(['competition_id', 'owner_key'], { indexName: 'launch_queue_entries_owner_unique' });
    t.index(['competition_id', 'position'], 'launch_queue_entries_position');
    t.index(['competition_id', 'address_key'], 'launch_queue_entries_address');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('launch_queue_entries');
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('launch_queue');
    t.dropColumn('queue_seed');
    t.dropColumn('queue_commitment');
    t.dropColumn('queue_admit_per_second');
    t.dropColumn('queue_last_admit_at');
    t.dropColumn('queue_shuffled_at');
    t.dropColumn('queue_drained_at');
  });
}
