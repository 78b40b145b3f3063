import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../../db/migrations';
import { insertCompetition } from '../../support/fixtures';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// 050 adds the launch queue (docs/draws.md#launch-queue): its competition columns, off by default,
// and its entries table; down removes both, and up runs again.
describe.skipIf(engineUnavailable())(`migration 050_launch_queue on ${testEngine()}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('leaves existing competitions without a queue, and rolls back', async () => {
    const { db } = database;
    const id = await insertCompetition(db);
    const row = await db('competitions').where({ id }).first('launchQueue', 'queueSeed', 'queueDrainedAt');
    expect(Boolean(row.launchQueue)).toBe(false);
    expect(row.queueSeed).toBeNull();
    await db.migrate.down({ migrationSource, name: '050_launch_queue' });
    expect(await db.schema.hasTable('launch_queue_entries')).toBe(false);
    expect(await db.schema.hasColumn('competitions', 'launch_queue')).toBe(false);
    await db.migrate.latest({ migrationSource });
    expect(await db.schema.hasTable('launch_queue_entries')).toBe(true);
    expect(await db.schema.hasColumn('competitions', 'queue_commitment')).toBe(true);
  });
});
