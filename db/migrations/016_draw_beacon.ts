import type { Knex } from 'knex';

// Draws wait for public randomness (docs/draws.md "Version 2"): the beacon round a competition's
// draw uses is fixed when its entries become final, before the round exists, and published. Each
// draw records the rule (version) that made it, so draws made before this migration (version 1,
// seed and entries only) still verify.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    // The chain (its hash and public key), the round and when it is produced: null until fixed.
    t.string('draw_beacon_chain', 64).nullable();
    t.string('draw_beacon_public_key', 192).nullable();
    t.bigInteger('draw_beacon_round').nullable();
    t.bigInteger('draw_beacon_due_at').nullable();
    // The round's values once drawn (also on the draws row), so the public competition carries them.
    t.string('draw_beacon_randomness', 64).nullable();
    t.string('draw_beacon_signature', 192).nullable();
    // Why the beacon could not be reached or checked last time, for the admin; cleared by the draw.
    t.string('draw_beacon_error', 500).nullable();
    t.bigInteger('draw_beacon_error_at').nullable();
  });
  await knex.schema.alterTable('draws', (t) => {
    t.integer('version').notNullable().defaultTo(1);
    t.string('beacon_chain', 64).nullable();
    t.string('beacon_public_key', 192).nullable();
    t.bigInteger('beacon_round').nullable();
    t.string('beacon_randomness', 64).nullable();
    t.string('beacon_signature', 192).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('draws', (t) => {
    for (const c of [
      'version',
      'beacon_chain',
      'beacon_public_key',
      'beacon_round',
      'beacon_randomness',
      'beacon_signature',
    ])
      t.dropColumn(c);
  });
  await knex.schema.alterTable('competitions', (t) => {
    for (const c of [
      'draw_beacon_chain',
      'draw_beacon_public_key',
      'draw_beacon_round',
      'draw_beacon_due_at',
      'draw_beacon_randomness',
      'draw_beacon_signature',
      'draw_beacon_error',
      'draw_beacon_error_at',
    ])
      t.dropColumn(c);
  });
}
