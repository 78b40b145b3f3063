import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// A postal winner claims too (docs/draws.md#7-claiming-a-prize): a claim belongs to an account
// (user_id) or to the postcard that won (postal_entry_id), never both, and a postal claim is opened
// by the e-mailed link: only the SHA-256 of its random token is kept (token_hash), never the token.
// SQLite cannot add a CHECK to a table, so the table is rebuilt, the same way on both engines.

const COLUMNS = [
  'id',
  'prize_ref',
  'kind',
  'competition_id',
  'position',
  'instant_win_id',
  'user_id',
  'prize_label',
  'cash_alternative_pence',
  'status',
  'choice',
  'address_line1',
  'address_line2',
  'address_town',
  'address_postcode',
  'phone_number',
  'claimed_at',
  'deadline_at',
  'created_at',
];

/** prize_claims as 033 made it, with the winner columns given (033's or this one's). */
function createClaims(knex: Knex, name: string, postal: boolean) {
  return knex.schema.createTable(name, (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    // 'main:<competition id>:<position>' or 'instant:<instant win id>': one claim per prize won.
    t.string('prize_ref', 64).notNullable();
    t.string('kind', 16).notNullable();
    t.integer('competition_id').unsigned().notNullable();
    t.integer('position').nullable();
    t.integer('instant_win_id').unsigned().nullable();
    if (postal) {
      // No foreign key to users, as on draws: a record of who won.
      t.integer('user_id').unsigned().nullable();
      t.integer('postal_entry_id').unsigned().nullable().references('id').inTable('postal_entries');
      t.string('token_hash', 64).nullable();
    } else {
      t.integer('user_id').unsigned().notNullable();
    }
    t.string('prize_label', 260).notNullable();
    t.integer('cash_alternative_pence').unsigned().nullable();
    t.string('status', 16).notNullable();
    t.string('choice', 8).nullable();
    t.string('address_line1', 200).nullable();
    t.string('address_line2', 200).nullable();
    t.string('address_town', 100).nullable();
    t.string('address_postcode', 10).nullable();
    t.string('phone_number', 40).nullable();
    t.bigInteger('claimed_at').nullable();
    t.bigInteger('deadline_at').notNullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['prize_ref'], { indexName: 'prize_claims_ref_unique' });
    t.index(['user_id'], 'prize_claims_user_idx');
    t.index(['competition_id'], 'prize_claims_competition_idx');
    if (postal) {
      t.index(['postal_entry_id'], 'prize_claims_postal_entry_idx');
      // An account's claim or a postcard's, never both or neither; a postcard's has its link.
      t.check('(?? is null) <> (?? is null)', ['user_id', 'postal_entry_id'], 'prize_claims_one_winner');
      t.check('(?? is null) = (?? is null)', ['postal_entry_id', 'token_hash'], 'prize_claims_postal_token');
    }
  });
}

/** Rebuilds prize_claims with or without the postal columns, keeping every account's claim. */
async function rebuild(knex: Knex, postal: boolean) {
  await knex.schema.renameTable('prize_claims', 'prize_claims_old');
  // SQLite names indexes across the whole database: the old table's go before the new table's come.
  await knex.schema.alterTable('prize_claims_old', (t) => {
    t.dropUnique(['prize_ref'], 'prize_claims_ref_unique');
    t.dropIndex(['user_id'], 'prize_claims_user_idx');
    t.dropIndex(['competition_id'], 'prize_claims_competition_idx');
  });
  await createClaims(knex, 'prize_claims', postal);
  const columns = COLUMNS.join(', ');
  await knex.raw(
    `insert into prize_claims (${columns}) select ${columns} from prize_claims_old${postal ? '' : ' where user_id is not null'}`,
  );
  await knex.schema.dropTable('prize_claims_old');
}

export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, true);
}

export async function down(knex: Knex): Promise<void> {
  // A postcard's claims cannot be kept without the column that names the postcard.
  await rebuild(knex, false);
}
