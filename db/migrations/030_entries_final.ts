import type { Knex } from 'knex';

// Provable rounds and retired instant wins (docs/draws.md "Version 2" and "Cancelling"):
// - the moment a competition's entries became final, with the delay and the chain's timing the
//   round was computed from, so anyone can recompute which round the draw had to use;
// - an instant win given back by a cancelled order is retired (its number has been public since it
//   was won), never won again on that number.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.bigInteger('draw_entries_final_at').nullable();
    t.integer('draw_beacon_delay_ms').nullable();
    // Seconds since the epoch of round 1, and seconds between rounds (the chain's info).
    t.bigInteger('draw_beacon_genesis').nullable();
    t.integer('draw_beacon_period').nullable();
  });
  await knex.schema.alterTable('instant_wins', (t) => {
    t.bigInteger('retired_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('instant_wins', (t) => {
    t.dropColumn('retired_at');
  });
  await knex.schema.alterTable('competitions', (t) => {
    for (const c of [
      'draw_entries_final_at',
      'draw_beacon_delay_ms',
      'draw_beacon_genesis',
      'draw_beacon_period',
    ])
      t.dropColumn(c);
  });
}
