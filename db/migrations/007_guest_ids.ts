import type { Knex } from 'knex';
import { engineOfKnex } from '../dialect';

// The columns named session_id never held a session's key: they hold the guest id that owns a
// cart before sign-in (SessionData.guestId). They are named guest_id, as the code calls them.
// The `sessions` table and its id are untouched.

const TABLES = ['orders', 'cart_items', 'tickets'] as const;

async function renameGuestColumns(
  knex: Knex,
  from: string,
  to: string,
  index: { from: string; to: string },
): Promise<void> {
  if (engineOfKnex(knex) === 'mysql') {
    // Plain RENAME COLUMN / RENAME INDEX only change metadata; knex's renameColumn on MySQL would
    // drop and re-create every foreign key that points at each table.
    for (const table of TABLES) await knex.raw('ALTER TABLE ?? RENAME COLUMN ?? TO ??', [table, from, to]);
    await knex.raw('ALTER TABLE ?? RENAME INDEX ?? TO ??', ['cart_items', index.from, index.to]);
    return;
  }
  // SQLite renames the column inside its indexes; an index itself can only be re-created.
  for (const table of TABLES) await knex.schema.alterTable(table, (t) => t.renameColumn(from, to));
  await knex.schema.alterTable('cart_items', (t) => {
    t.dropIndex([], index.from);
    t.index([to], index.to);
  });
}

export async function up(knex: Knex): Promise<void> {
  await renameGuestColumns(knex, 'session_id', 'guest_id', {
    from: 'cart_items_session_idx',
    to: 'cart_items_guest_idx',
  });
}

export async function down(knex: Knex): Promise<void> {
  await renameGuestColumns(knex, 'guest_id', 'session_id', {
    from: 'cart_items_guest_idx',
    to: 'cart_items_session_idx',
  });
}
