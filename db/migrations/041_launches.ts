import type { Knex } from 'knex';

// Drafts and scheduled launches (docs/product.md#drafts-and-scheduled-launches): two new
// statuses, 'draft' (never public) and 'cancelled' (a competition called off and refunded), and
// `starts_at`, before which nothing can be held; `opened_at` records that the opening was
// announced (`competition:opened`), once.

const STATUSES = ['draft', 'active', 'archived', 'ended', 'cancelled'];
const OLD_STATUSES = ['active', 'archived', 'ended'];
const LISTING_INDEX = 'competitions_listing_idx';

/**
 * The status column with the allowed values. MariaDB replaces the column's CHECK. SQLite cannot
 * change a CHECK in place: the column is rebuilt without one, and triggers refuse any other value.
 */
async function statusValues(knex: Knex, values: string[]) {
  if (knex.client.config.client !== 'better-sqlite3') {
    await knex.schema.alterTable('competitions', (t) => {
      t.string('status', 16)
        .notNullable()
        .defaultTo('active')
        .checkIn(values, 'competitions_status_valid')
        .alter();
    });
    return;
  }
  await knex.raw('DROP TRIGGER IF EXISTS competitions_status_insert');
  await knex.raw('DROP TRIGGER IF EXISTS competitions_status_update');
  await knex.raw("ALTER TABLE competitions ADD COLUMN status_next varchar(16) NOT NULL DEFAULT 'active'");
  await knex.raw('UPDATE competitions SET status_next = status');
  await knex.schema.alterTable('competitions', (t) => {
    t.dropIndex(['status', 'auto_win', 'created_at'], LISTING_INDEX);
  });
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('status');
  });
  await knex.raw('ALTER TABLE competitions RENAME COLUMN status_next TO status');
  await knex.schema.alterTable('competitions', (t) => {
    t.index(['status', 'auto_win', 'created_at'], LISTING_INDEX);
  });
  const allowed = values.map((s) => `'${s}'`).join(', ');
  for (const op of ['insert', 'update'])
    await knex.raw(
      `CREATE TRIGGER competitions_status_${op} BEFORE ${op.toUpperCase()} ON competitions ` +
        `WHEN NEW.status NOT IN (${allowed}) BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: competitions_status_valid'); END`,
    );
}

export async function up(knex: Knex): Promise<void> {
  await statusValues(knex, STATUSES);
  await knex.schema.alterTable('competitions', (t) => {
    t.bigInteger('starts_at').nullable();
    t.bigInteger('opened_at').nullable();
    t.index(['starts_at'], 'competitions_starts_at_idx');
  });
  // Every competition already on sale or closed was announced when it opened.
  await knex('competitions')
    .whereIn('status', ['active', 'ended'])
    .update({ opened_at: knex.ref('created_at') });
}

export async function down(knex: Knex): Promise<void> {
  await knex('competitions').whereIn('status', ['draft', 'cancelled']).update({ status: 'archived' });
  await knex.schema.alterTable('competitions', (t) => {
    t.dropIndex(['starts_at'], 'competitions_starts_at_idx');
  });
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('starts_at');
    t.dropColumn('opened_at');
  });
  await statusValues(knex, OLD_STATUSES);
}
