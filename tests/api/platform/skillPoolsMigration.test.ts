import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../../db/migrations';
import { insertCompetition } from '../../support/fixtures';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// 018 turns each competition's single skill question (003) into a pool: a custom question becomes
// a pool of one, the default question an empty pool; down goes back to one question each.
describe.skipIf(engineUnavailable())(`migration 018_skill_pools on ${testEngine()}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('moves a custom question into the pool, keeps the default as none, and rolls back', async () => {
    const { db } = database;
    const custom = await insertCompetition(db);
    const plain = await insertCompetition(db);
    await db('competitions')
      .where({ id: custom })
      .update({
        skillQuestions: JSON.stringify([
          { question: 'Sky?', options: ['Blue', 'Red', 'Green'], answer: 'Blue' },
        ]),
      });

    await db.migrate.down({ migrationSource, name: '018_skill_pools' });
    expect(await db.schema.hasTable('skill_attempts')).toBe(false);
    expect(await db.schema.hasColumn('competitions', 'skill_questions')).toBe(false);
    const back = await db('competitions').where({ id: custom }).first('skillQuestion', 'skillAnswer');
    expect(JSON.parse(back.skillQuestion)).toEqual({ question: 'Sky?', options: ['Blue', 'Red', 'Green'] });
    expect(back.skillAnswer).toBe('Blue');
    const plainBack = await db('competitions').where({ id: plain }).first('skillQuestion', 'skillAnswer');
    expect(JSON.parse(plainBack.skillQuestion).question).toBe('How many days in a typical year?');
    expect(plainBack.skillAnswer).toBe('365');

    await db.migrate.latest({ migrationSource });
    expect(await db.schema.hasColumn('competitions', 'skill_question')).toBe(false);
    expect(await db.schema.hasColumn('competitions', 'skill_answer')).toBe(false);
    expect(await db.schema.hasColumn('draws', 'winner_town')).toBe(true);
    expect(await db.schema.hasTable('skill_attempts')).toBe(true);
    const pool = await db('competitions').where({ id: custom }).first('skillQuestions');
    expect(JSON.parse(pool.skillQuestions)).toEqual([
      { question: 'Sky?', options: ['Blue', 'Red', 'Green'], answer: 'Blue' },
    ]);
    expect((await db('competitions').where({ id: plain }).first('skillQuestions')).skillQuestions).toBeNull();
  });
});
