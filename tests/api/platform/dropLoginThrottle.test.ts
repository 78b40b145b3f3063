import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../../db/migrations';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// 009 drops the table-based login throttle (now rate-limiter-flexible counters); down restores it.
describe.skipIf(engineUnavailable())(`migration 009_drop_login_throttle on ${testEngine()}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('leaves no login_throttle table, and rolls back to the table 002 made', async () => {
    const { db } = database;
    expect(await db.schema.hasTable('login_throttle')).toBe(false);

    // Undo 009 itself, whatever migrations came after it.
    await db.migrate.down({ migrationSource, name: '009_drop_login_throttle' });
    expect(await db.schema.hasTable('login_throttle')).toBe(true);
    for (const column of ['key', 'failures', 'window_started_at', 'blocked_until'])
      expect(await db.schema.hasColumn('login_throttle', column)).toBe(true);
    await db('loginThrottle').insert({ key: 'ip:1.2.3.4', failures: 1, windowStartedAt: 1 });

    await db.migrate.latest({ migrationSource });
    expect(await db.schema.hasTable('login_throttle')).toBe(false);
  });
});
