import type { Knex } from 'knex';
import { tableDefaults } from '../dialect';

// Winners can claim (docs/draws.md#7-claiming-a-prize): a customer's delivery address on the
// account, and one claim per prize won (a main prize's position, or an instant win of kind
// 'prize'; site credit needs none): the winner confirms the address and takes the prize or its
// cash alternative before the deadline, 14 days from the win (the Terms' 'Cash Alternatives').
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('address_line1', 200).nullable();
    t.string('address_line2', 200).nullable();
    t.string('address_town', 100).nullable();
    t.string('address_postcode', 10).nullable();
  });
  await knex.schema.createTable('prize_claims', (t) => {
    tableDefaults(knex)(t);
    t.increments('id').primary();
    // 'main:<competition id>:<position>' or 'instant:<instant win id>': one claim per prize won.
    t.string('prize_ref', 64).notNullable();
    t.string('kind', 16).notNullable(); // 'main' | 'instant'
    t.integer('competition_id').unsigned().notNullable();
    t.integer('position').nullable(); // main prizes: 1 for the 1st
    t.integer('instant_win_id').unsigned().nullable();
    // No foreign key, as on draws: a record of who won; the account's erasure clears the address.
    t.integer('user_id').unsigned().notNullable();
    // As the winner e-mail names it: '2nd prize: Smart watch', or the instant win's title.
    t.string('prize_label', 260).notNullable();
    // The cash alternative offered when the prize was won (null: none, the prize only).
    t.integer('cash_alternative_pence').unsigned().nullable();
    t.string('status', 16).notNullable(); // 'awaiting' | 'claimed' (expired is awaiting past the deadline)
    t.string('choice', 8).nullable(); // 'prize' | 'cash'
    // The address and phone confirmed with the claim (a snapshot: later profile edits do not move a prize).
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
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('prize_claims');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('address_line1');
    t.dropColumn('address_line2');
    t.dropColumn('address_town');
    t.dropColumn('address_postcode');
  });
}
