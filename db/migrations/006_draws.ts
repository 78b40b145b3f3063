import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Draws (docs/draws.md): each competition's secret seed and its published commitment, and one
// row per drawn competition. The unique competition_id makes "drawn exactly once" a database
// guarantee; competitions.drawn_at is the same fact on the row every sale already locks.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    // Hex of 32 random bytes: never leaves the server before the draw.
    t.string('draw_seed', 64).nullable();
    // Hex SHA-256 of the seed bytes: public from creation.
    t.string('draw_commitment', 64).nullable();
    t.bigInteger('drawn_at').nullable();
  });
  // Competitions created before this migration get their seed now (self-contained: no app code).
  const rows = (await knex('competitions').select('id')) as Array<{ id: number }>;
  for (const { id } of rows) {
    const seed = randomBytes(32);
    await knex('competitions')
      .where({ id })
      .update({
        drawSeed: seed.toString('hex'),
        drawCommitment: createHash('sha256').update(seed).digest('hex'),
      });
  }

  await knex.schema.createTable('draws', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.string('seed', 64).notNullable();
    t.string('commitment', 64).notNullable();
    t.string('entries_hash', 64).notNullable();
    t.integer('entry_count').notNullable();
    // The sold numbers at the draw, ascending, as the JSON array the public can recompute from
    // (up to ~700 KB for 100,000 numbers, hence MEDIUMTEXT on MySQL).
    t.text('entries', 'mediumtext').notNullable();
    t.integer('winning_index').notNullable();
    t.integer('winning_number').notNullable();
    // No foreign keys to users or orders: the draw must not take locks on rows that checkout
    // locks in another order; the ids are a record of what was true at the draw.
    t.integer('winner_user_id').unsigned().nullable();
    t.integer('winner_order_id').unsigned().nullable();
    t.bigInteger('drawn_at').notNullable();
    t.integer('drawn_by_user_id').unsigned().nullable(); // null: drawn automatically
    t.string('drawn_by', 64).notNullable(); // the admin's username, or 'auto'
    t.bigInteger('winner_notified_at').nullable();
    t.bigInteger('prize_delivered_at').nullable();
    t.unique(['competition_id'], { indexName: 'draws_competition_unique' });
    t.index(['drawn_at'], 'draws_drawn_at_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('draws');
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('draw_seed');
    t.dropColumn('draw_commitment');
    t.dropColumn('drawn_at');
  });
}
