import type { Knex } from 'knex';
// knex builds its own transactions this way (lib/execution/transaction.js, makeTxClient): a client
// whose every query takes the same connection. There is no public entry point for it.
import makeKnex from 'knex/lib/knex-builder/make-knex.js';
import { engineOfKnex } from '../db/dialect';

// One request, one pool connection. Under load a request waits for the pool each time it asks for
// a connection, and that wait, not the statements, is most of its time: after its session a hold
// read the tickets, then ran its transaction, then read the cart back, three waits where a health
// check has one (fastpaths/README.md). A pinned request takes one connection and runs everything
// on it, transactions included, then gives it back.

type ClientInternals = Knex.Client & {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  version?: unknown;
  driver?: unknown;
  connectionSettings?: unknown;
  valueForUndefined?: unknown;
  logger?: unknown;
};

const FORWARDED = ['start', 'query', 'query-error', 'query-response'] as const;

// One pinned knex per pool connection, made the first time it is pinned: building a knex is not
// free (a profile of the hot-number bench put 2% of the server's CPU in it, once per request), and
// the pool lends a connection to one request at a time.
const pinnedOf = new WeakMap<object, Knex>();
// And back: the pool connection a pinned knex runs on (driverConnectionOf).
const connectionOfPinned = new WeakMap<Knex, object>();

/** A knex whose queries and transactions all run on `connection`, and never release it. */
function pinnedKnex(db: Knex, connection: object): Knex {
  const known = pinnedOf.get(connection);
  if (known) return known;
  const client = db.client as ClientInternals;
  const pinned = Object.create(Object.getPrototypeOf(client)) as ClientInternals;
  Object.assign(pinned, {
    config: client.config,
    version: client.version,
    driver: client.driver,
    connectionSettings: client.connectionSettings,
    valueForUndefined: client.valueForUndefined,
    logger: client.logger,
    acquireConnection: () => Promise.resolve(connection),
    releaseConnection: () => Promise.resolve(),
  });
  // Listeners of the app's knex (the query log, tests counting statements) still hear every query.
  for (const event of FORWARDED) pinned.on(event, (...args: unknown[]) => client.emit(event, ...args));
  const made = makeKnex(pinned) as Knex;
  pinnedOf.set(connection, made);
  connectionOfPinned.set(made, connection);
  return made;
}

/**
 * The driver's connection (mysql2's) that a pinned knex runs on, for statements knex does not
 * send (the Lucky Dip hot path's prepared CALLs, api/tickets/hotPath/); undefined for any other
 * knex, so with FAST_PATHS off or on SQLite there is none.
 */
export const driverConnectionOf = (db: Knex): object | undefined => connectionOfPinned.get(db);

/** Runs a request's database work: `work` gets the knex it should use for all of it. */
export type RequestConnection = <T>(work: (db: Knex) => Promise<T>) => Promise<T>;

/**
 * How each request runs on `db`: with FAST_PATHS on and MySQL/MariaDB, on one connection of the
 * pool for everything it does, returned to the pool after; otherwise on `db` itself (on SQLite the
 * pool is one connection already).
 */
export function connectionPerRequest(db: Knex, fastPaths: boolean): RequestConnection {
  if (!fastPaths || engineOfKnex(db) !== 'mysql') return (work) => work(db);
  const client = db.client as ClientInternals;
  return async (work) => {
    const connection = (await client.acquireConnection()) as object;
    try {
      return await work(pinnedKnex(db, connection));
    } finally {
      await client.releaseConnection(connection);
    }
  };
}
