import type { Knex } from 'knex';
import { afterAll, beforeAll } from 'vitest';
import { EventBus } from '../../api/platform/events';
import { createTestDatabase, type TestDatabase } from './testDatabase';

// Business rules tested below HTTP: each test calls the services directly inside one transaction
// that is rolled back at its end (pretix's default), so tests share a database without seeing each
// other's rows and need no server. A service's own transactions become savepoints of that one.

/** What a service test gets: the transaction to pass as `db`, and the events its work published. */
export interface Rollback {
  db: Knex.Transaction;
  events: EventBus;
  published: { type: string; payload: unknown }[];
}

class RolledBack extends Error {}

/** One migrated database for the file (the run's template copy); `inRollback` runs each test in it. */
export function useServiceDatabase(): { inRollback: <T>(work: (r: Rollback) => Promise<T>) => Promise<T> } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  return {
    async inRollback<T>(work: (r: Rollback) => Promise<T>): Promise<T> {
      if (!database) throw new Error('useServiceDatabase: the database is not ready');
      let result: T | undefined;
      try {
        await database.db.transaction(async (trx) => {
          const events = new EventBus();
          const published: Rollback['published'] = [];
          const publish = events.publish.bind(events);
          events.publish = (type, payload) => {
            published.push({ type, payload });
            publish(type, payload);
          };
          result = await work({ db: trx, events, published });
          throw new RolledBack();
        });
      } catch (err) {
        if (!(err instanceof RolledBack)) throw err;
      }
      return result as T;
    },
  };
}
