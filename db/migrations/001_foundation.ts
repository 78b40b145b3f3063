import type { Knex } from 'knex';
import { engineOfKnex, tableDefaults } from '../dialect';

// Every table the product needs (docs/architecture.md#data-model) plus what the design needs: sessions,
// processed payment events, owners and expiry on holds, a per-competition version.
// Conventions: money is integer pence (*_pence), timestamps are UTC epoch milliseconds (BIGINT),
// JSON is stored as text and parsed by the models. Both engines run this same file.

type Table = Knex.CreateTableBuilder;
type TableDefaults = ReturnType<typeof tableDefaults>;

function timestamps(t: Table) {
  t.bigInteger('created_at').notNullable();
  t.bigInteger('updated_at').notNullable();
}

export async function up(knex: Knex): Promise<void> {
  const mysql = engineOfKnex(knex) === 'mysql';
  // InnoDB, utf8mb4 and a case-insensitive collation on MySQL/MariaDB (usernames and emails compare
  // case-insensitively there; SQLite gets NOCASE indexes, createUsers).
  const table = tableDefaults(knex);
  // One table at a time, in the order their foreign keys need.
  await createUsers(knex, table, mysql);
  await createCompetitions(knex, table);
  await createCompetitionVersions(knex, table);
  await createOrders(knex, table);
  await createCartItems(knex, table);
  await createTickets(knex, table);
  await createOrderItems(knex, table);
  await createUserEntries(knex, table);
  await createSiteSettings(knex, table);
  await createPromoConfigs(knex, table);
  await createCreditTransactions(knex, table);
  await createSessions(knex, table);
  await createPaymentEvents(knex, table);
}

async function createUsers(knex: Knex, table: TableDefaults, mysql: boolean): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    table(t);
    t.increments('id').primary();
    t.string('username', 64).notNullable();
    t.string('email', 254).notNullable();
    t.string('password_hash', 255).notNullable();
    t.string('first_name', 100).nullable();
    t.string('last_name', 100).nullable();
    t.string('phone_number', 20).notNullable();
    t.string('role', 16).notNullable().defaultTo('user').checkIn(['user', 'admin']);
    t.integer('site_credit_pence').notNullable().defaultTo(0);
    t.bigInteger('deleted_at').nullable();
    timestamps(t);
    t.check('?? >= 0', ['site_credit_pence'], 'users_site_credit_non_negative');
    if (mysql) {
      t.unique(['username'], { indexName: 'users_username_unique' });
      t.unique(['email'], { indexName: 'users_email_unique' });
    }
  });
  if (!mysql) {
    await knex.raw('CREATE UNIQUE INDEX users_username_unique ON users (username COLLATE NOCASE)');
    await knex.raw('CREATE UNIQUE INDEX users_email_unique ON users (email COLLATE NOCASE)');
  }
}

async function createCompetitions(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('competitions', (t) => {
    table(t);
    t.increments('id').primary();
    t.string('title', 200).notNullable();
    t.text('description').notNullable();
    t.string('image', 500).nullable();
    t.integer('ticket_price_pence').notNullable();
    t.integer('total_tickets').notNullable().defaultTo(1000);
    t.integer('tickets_sold').notNullable().defaultTo(0);
    t.bigInteger('end_date').notNullable();
    t.boolean('auto_win').notNullable().defaultTo(false);
    t.string('status', 16).notNullable().defaultTo('active').checkIn(['active', 'archived', 'ended']);
    t.text('features').notNullable(); // JSON array of strings
    t.text('details').notNullable(); // JSON object { category, productName? }
    t.integer('max_tickets_per_user').nullable();
    timestamps(t);
    t.check('?? >= 0', ['ticket_price_pence'], 'competitions_price_non_negative');
    t.check('?? >= 1', ['total_tickets'], 'competitions_total_positive');
    t.check(
      '?? >= 0 AND ?? <= ??',
      ['tickets_sold', 'tickets_sold', 'total_tickets'],
      'competitions_sold_in_range',
    );
    t.index(['status', 'auto_win', 'created_at'], 'competitions_listing_idx');
  });
}

// Each competition's ticket-change counter, bumped by one in the same transaction as every ticket
// change so clients can detect a missed event. It lives apart from `competitions` on purpose:
// inserting tickets takes shared foreign-key locks on the competition row, and updating a
// counter on that same row from many transactions would deadlock them.
async function createCompetitionVersions(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('competition_versions', (t) => {
    table(t);
    t.integer('competition_id')
      .unsigned()
      .primary()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.bigInteger('version').notNullable().defaultTo(0);
  });
}

async function createOrders(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('orders', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().nullable().references('id').inTable('users');
    t.string('session_id', 64).nullable();
    t.string('payment_provider', 16).nullable();
    t.string('stripe_payment_intent_id', 255).nullable();
    t.integer('subtotal_pence').notNullable().defaultTo(0);
    t.integer('credit_applied_pence').notNullable().defaultTo(0);
    t.integer('total_pence').notNullable();
    t.string('currency', 3).notNullable().defaultTo('gbp');
    t.string('status', 16)
      .notNullable()
      .defaultTo('pending')
      .checkIn(['pending', 'completed', 'failed', 'cancelled']);
    t.bigInteger('paid_at').nullable();
    t.bigInteger('cancelled_at').nullable();
    timestamps(t);
    t.check('?? >= 0', ['total_pence'], 'orders_total_non_negative');
    t.unique(['stripe_payment_intent_id'], { indexName: 'orders_payment_intent_unique' });
    t.index(['user_id', 'created_at'], 'orders_user_idx');
    t.index(['status', 'created_at'], 'orders_status_idx');
  });
}

async function createCartItems(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('cart_items', (t) => {
    table(t);
    t.bigIncrements('id').primary();
    t.string('session_id', 64).notNullable(); // the guest session id that owns the cart
    t.integer('user_id').unsigned().nullable().references('id').inTable('users');
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.integer('quantity').notNullable().defaultTo(1);
    t.text('selected_numbers').notNullable(); // JSON array; empty for a Lucky Dip
    t.bigInteger('reserved_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    timestamps(t);
    t.check('?? BETWEEN 1 AND 10', ['quantity'], 'cart_items_quantity_range');
    t.index(['session_id'], 'cart_items_session_idx');
    t.index(['user_id'], 'cart_items_user_idx');
    t.index(['expires_at'], 'cart_items_expiry_idx');
  });
}

// One row per number that is not available: held (reserved) or sold. Absent row = available.
// The unique key is what makes "never held or sold twice" a database guarantee.
async function createTickets(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('tickets', (t) => {
    table(t);
    t.bigIncrements('id').primary();
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.integer('number').notNullable();
    t.string('status', 16).notNullable().checkIn(['reserved', 'sold']);
    t.bigInteger('cart_item_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('cart_items')
      .onDelete('CASCADE');
    t.string('session_id', 64).nullable();
    t.integer('user_id').unsigned().nullable().references('id').inTable('users');
    t.integer('order_id').unsigned().nullable().references('id').inTable('orders');
    t.boolean('is_claimed').notNullable().defaultTo(false);
    t.bigInteger('expires_at').nullable();
    timestamps(t);
    t.unique(['competition_id', 'number'], { indexName: 'tickets_competition_number_unique' });
    t.check('?? >= 1', ['number'], 'tickets_number_positive');
    // A hold always has an owner cart item and an expiry; a sale always has an order.
    t.check(
      "(?? = 'reserved' AND ?? IS NOT NULL AND ?? IS NOT NULL) OR (?? = 'sold' AND ?? IS NOT NULL)",
      ['status', 'cart_item_id', 'expires_at', 'status', 'order_id'],
      'tickets_state_consistent',
    );
    t.index(['status', 'expires_at'], 'tickets_expiry_idx');
    t.index(['cart_item_id'], 'tickets_cart_item_idx');
    t.index(['order_id'], 'tickets_order_idx');
    t.index(['user_id'], 'tickets_user_idx');
  });
}

async function createOrderItems(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('order_items', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.string('title', 200).notNullable();
    t.integer('ticket_price_pence').notNullable();
    t.integer('quantity').notNullable();
    t.text('selected_numbers').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['order_id'], 'order_items_order_idx');
  });
}

async function createUserEntries(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('user_entries', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users');
    t.integer('competition_id').unsigned().notNullable().references('id').inTable('competitions');
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders');
    t.text('ticket_numbers').notNullable();
    t.bigInteger('purchased_at').notNullable();
    // One entry per order and competition: fulfilment can be retried without duplicating entries.
    t.unique(['order_id', 'competition_id'], { indexName: 'user_entries_order_competition_unique' });
    t.index(['user_id', 'purchased_at'], 'user_entries_user_idx');
    t.index(['competition_id'], 'user_entries_competition_idx');
  });
}

async function createSiteSettings(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('site_settings', (t) => {
    table(t);
    t.increments('id').primary();
    t.string('key', 100).notNullable();
    t.text('value').notNullable();
    timestamps(t);
    t.unique(['key'], { indexName: 'site_settings_key_unique' });
  });
}

async function createPromoConfigs(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('promo_configs', (t) => {
    table(t);
    t.increments('id').primary();
    t.string('name', 200).notNullable();
    t.text('description').nullable();
    t.integer('credit_amount_pence').notNullable();
    t.string('target_user_type', 16).notNullable().defaultTo('new_user').checkIn(['new_user', 'all']);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.bigInteger('valid_from').notNullable();
    t.bigInteger('valid_until').nullable();
    t.integer('max_uses_per_user').notNullable().defaultTo(1);
    t.integer('total_max_uses').nullable();
    t.integer('current_uses').notNullable().defaultTo(0);
    t.boolean('auto_apply').notNullable().defaultTo(true);
    timestamps(t);
    t.check('?? >= 0', ['credit_amount_pence'], 'promo_configs_amount_non_negative');
    // The database refuses to grant past the cap, however many registrations race.
    t.check(
      '?? IS NULL OR ?? <= ??',
      ['total_max_uses', 'current_uses', 'total_max_uses'],
      'promo_configs_uses_cap',
    );
  });
}

async function createCreditTransactions(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('credit_transactions', (t) => {
    table(t);
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users');
    t.integer('promo_config_id').unsigned().nullable().references('id').inTable('promo_configs');
    t.integer('amount_pence').notNullable();
    t.string('type', 8).notNullable().checkIn(['credit', 'debit']);
    t.string('description', 255).notNullable();
    t.integer('order_id').unsigned().nullable().references('id').inTable('orders');
    t.bigInteger('created_at').notNullable();
    t.check('?? > 0', ['amount_pence'], 'credit_transactions_amount_positive');
    t.index(['user_id', 'created_at'], 'credit_transactions_user_idx');
  });
}

async function createSessions(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    table(t);
    t.string('id', 128).primary(); // koa-session's external key (random, from the signed cookie)
    t.text('data').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.index(['expires_at'], 'sessions_expiry_idx');
  });
}

// Payment-provider events processed once each (webhook replays change nothing).
async function createPaymentEvents(knex: Knex, table: TableDefaults): Promise<void> {
  await knex.schema.createTable('payment_events', (t) => {
    table(t);
    t.increments('id').primary();
    t.string('provider', 16).notNullable();
    t.string('event_id', 255).notNullable();
    t.string('type', 64).notNullable();
    t.bigInteger('received_at').notNullable();
    t.unique(['provider', 'event_id'], { indexName: 'payment_events_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const name of [
    'payment_events',
    'sessions',
    'credit_transactions',
    'promo_configs',
    'site_settings',
    'user_entries',
    'order_items',
    'tickets',
    'cart_items',
    'orders',
    'competition_versions',
    'competitions',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(name);
  }
}
