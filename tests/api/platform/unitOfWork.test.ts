import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../../api/platform/events';
import { inUnitOfWork, RetryTransaction } from '../../../api/platform/unitOfWork';
import { insertCompetition } from '../../support/fixtures';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// Events leave a unit of work only after COMMIT, once, and never from a rolled-back attempt.
describe.skipIf(engineUnavailable())(`unit of work on ${testEngine()}`, () => {
  let database: TestDatabase;
  let db: Knex;
  let competitionId: number;
  const events = new EventBus();
  const seen: Array<{ numbers: number[]; committed: boolean }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    competitionId = await insertCompetition(db, { totalTickets: 10 });
    // Each delivery records whether the row written in that unit is visible outside it.
    events.subscribe('tickets.released', (e) => {
      seen.push({ numbers: e.numbers, committed: false });
      const last = seen.at(-1)!;
      void db('audit_log')
        .where({ action: `uow-${e.numbers[0]}` })
        .first()
        .then((row) => {
          last.committed = Boolean(row);
        });
    });
  });
  afterAll(async () => {
    events.close();
    await database?.drop();
  });

  const writeAndEmit = (uow: Parameters<Parameters<typeof inUnitOfWork>[1]>[0], n: number) =>
    uow
      .trx('audit_log')
      .insert({ actorUsername: 'test', action: `uow-${n}`, entityType: 'test', createdAt: Date.now() })
      .then(() => uow.emit('tickets.released', { competitionId, version: n, numbers: [n] }));

  it('publishes after COMMIT, in order, what the unit recorded', async () => {
    seen.length = 0;
    const result = await inUnitOfWork({ db, events }, async (uow) => {
      await writeAndEmit(uow, 1);
      expect(seen).toEqual([]); // nothing leaves before the commit
      await writeAndEmit(uow, 2);
      return 'done';
    });
    expect(result).toBe('done');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([
      { numbers: [1], committed: true },
      { numbers: [2], committed: true },
    ]);
  });

  it('publishes nothing when the unit fails, and nothing from an attempt that was retried', async () => {
    seen.length = 0;
    await expect(
      inUnitOfWork({ db, events }, async (uow) => {
        await writeAndEmit(uow, 3);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([]);
    expect(await db('audit_log').where({ action: 'uow-3' }).first()).toBeUndefined();

    let attempts = 0;
    await inUnitOfWork({ db, events }, async (uow) => {
      attempts++;
      await writeAndEmit(uow, 3 + attempts);
      if (attempts < 3) throw new RetryTransaction();
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(attempts).toBe(3);
    expect(seen).toEqual([{ numbers: [6], committed: true }]);
    expect(await db('audit_log').whereIn('action', ['uow-4', 'uow-5']).count({ n: '*' }).first()).toEqual({
      n: 0,
    });
  });
});
