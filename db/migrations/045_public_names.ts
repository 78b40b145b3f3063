import type { Knex } from 'knex';
import { engineOfKnex, tableDefaults } from '../dialect';

// Public names and winner stories (docs/product.md#public-names-and-winner-stories): how each
// customer appears in public ('initial' is "Jo S.", the default; 'nickname'; 'anonymous') with the
// nickname unique case-insensitively, as usernames are (001: the column's collation on MariaDB, a
// NOCASE index on SQLite; nicknames are ASCII, so both engines fold case alike). And a winner's
// story per main prize won: a photo and a quote, published only with the recorded consent tick.
export async function up(knex: Knex): Promise<void> {
  const mysql = engineOfKnex(knex) === 'mysql';
  await knex.schema.alterTable('users', (t) => {
    t.string('public_name_mode', 16).notNullable().defaultTo('initial');
    t.string('nickname', 20).nullable();
    if (mysql) t.unique(['nickname'], { indexName: 'users_nickname_unique' });
  });
  if (!mysql) await knex.raw('CREATE UNIQUE INDEX users_nickname_unique ON users (nickname COLLATE NOCASE)');
  await knex.schema.createTable('winner_stories', (t) => {
    tableDefaults(knex)(t);
    t.integer('competition_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.integer('position').notNullable(); // the main prize: 1 for the 1st
    t.string('photo', 500).nullable();
    t.string('quote', 280).nullable();
    // The "winner agreed to publicity" tick: when and by which admin (null: not ticked).
    t.bigInteger('consent_at').nullable();
    t.integer('consent_by').unsigned().nullable();
    t.string('consent_by_name', 64).nullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['competition_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('winner_stories');
  if (engineOfKnex(knex) !== 'mysql') await knex.raw('DROP INDEX IF EXISTS users_nickname_unique');
  await knex.schema.alterTable('users', (t) => {
    if (engineOfKnex(knex) === 'mysql') t.dropUnique(['nickname'], 'users_nickname_unique');
    t.dropColumn('nickname');
    t.dropColumn('public_name_mode');
  });
}
