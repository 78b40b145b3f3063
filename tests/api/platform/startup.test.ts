import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../api/platform/config';
import { migrateLatest, openDatabase } from '../../../db/connection';
import { migrationSource } from '../../../db/migrations';
import { mysqlConnection } from '../../../knexfile';
import { startServer } from '../../../server/startServer';
import { freePort, startAppProcess } from '../../support/appProcess';
import { waitFor } from '../../support/sockets';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// Start-up with several processes on one database (docs/operations.md#start-up). Migrations run
// under a MariaDB named lock (db/migrationLock.ts): one process migrates, the others wait for it.
// Each knex pool here stands for a process (its own connections); scaleout.test.ts starts two real
// processes at once on an empty database. MariaDB only: SQLite is one process per data file.

const lockRows = async (db: Knex) =>
  (await db('knex_migrations_lock').select('is_locked as locked')).map((r) => Number(r.locked));

const appliedCount = async (db: Knex) => Number((await db('knex_migrations').count({ n: '*' }).first())!.n);

describe.skipIf(testEngine() !== 'mysql' || engineUnavailable())('start-up on a shared database', () => {
  const databases: TestDatabase[] = [];
  const fresh = async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    return database;
  };
  afterAll(async () => {
    await Promise.all(databases.map((d) => d.drop()));
  });

  it('four processes migrating an empty database at the same instant all succeed (one applies, the others wait)', async () => {
    const { db, databaseUrl, dataDir } = await fresh();
    // Each its own pool, as each process has: started together, without the start-up jitter of
    // real processes, this is the race that left two of three processes dead before the lock.
    const pools = Array.from({ length: 4 }, () => openDatabase({ databaseUrl, dataDir }));
    try {
      const results = await Promise.allSettled(
        pools.map((pool) => migrateLatest(pool, { timeoutMs: 30_000 })),
      );
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      expect(failures).toEqual([]);
      const applied = results.map((r) => (r.status === 'fulfilled' ? r.value.length : -1));
      const migrations = await migrationSource.getMigrations([]);
      expect(applied.sort((a, b) => a - b)).toEqual([0, 0, 0, migrations.length]);
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
    expect(await appliedCount(db)).toBe((await migrationSource.getMigrations([])).length);
    expect(await lockRows(db)).toEqual([0]);
  }, 40_000);

  it('a knex lock left set by a process killed mid-migration is reset by the next start, not waited on', async () => {
    const { db } = await fresh();
    await migrateLatest(db);
    // What a process killed between knex taking its lock and freeing it leaves behind.
    await db('knex_migrations_lock').update({ is_locked: 1 });
    let resets = 0;
    const started = Date.now();
    expect(await migrateLatest(db, { timeoutMs: 5000, onStaleLock: () => resets++ })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(resets).toBe(1);
    expect(await lockRows(db)).toEqual([0]);
  });

  it('two lock rows (left by the old start-up race) are put back to one', async () => {
    const { db } = await fresh();
    await migrateLatest(db);
    await db('knex_migrations_lock').insert({ is_locked: 0 });
    let resets = 0;
    expect(await migrateLatest(db, { timeoutMs: 5000, onStaleLock: () => resets++ })).toEqual([]);
    expect(resets).toBe(1);
    expect(await lockRows(db)).toEqual([0]);
  });

  it('waits while another process holds the migration lock, and goes on as soon as that process dies', async () => {
    const { db, databaseUrl } = await fresh();
    const name = mysqlConnection(databaseUrl!).database;
    // Another process mid-migration: its connection holds the named lock.
    const other = knexFactory({ client: 'mysql2', connection: databaseUrl, pool: { min: 1, max: 1 } });
    try {
      await other
        .transaction(async (trx) => {
          await trx.raw('SELECT GET_LOCK(?, 0)', [`migrate:${name}`]);
          let applied: string[] | undefined;
          const migrating = migrateLatest(db, { timeoutMs: 20_000 }).then((a) => {
            applied = a;
          });
          // Until the migrator's connection is seen waiting for the named lock.
          await waitFor(
            async () => {
              const [rows] = await trx.raw(
                "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT GET_LOCK(%' AND DB = ? AND STATE = 'User lock'",
                [name],
              );
              return Number(rows[0].n) > 0;
            },
            10_000,
            'the migrator to wait for the lock',
            50,
          );
          expect(applied, 'migrated while another process held the lock').toBeUndefined();
          expect(await trx.schema.hasTable('knex_migrations'), 'migrated while the lock was held').toBe(
            false,
          );
          // The other process dies: MariaDB frees its connection's lock.
          const [[{ id }]] = await trx.raw('SELECT CONNECTION_ID() AS id');
          await db.raw('KILL ?', [Number(id)]);
          await migrating;
          expect(applied!.length).toBe((await migrationSource.getMigrations([])).length);
        })
        .catch((err: Error) => {
          // The killed connection's transaction cannot end cleanly; only that is expected here.
          if (!/closed|lost|killed|PROTOCOL_CONNECTION_LOST|ECONNRESET/i.test(err.message)) throw err;
        });
    } finally {
      await other.destroy();
    }
    expect(await lockRows(db)).toEqual([0]);
  }, 30_000);
  it('three processes started at once on an empty database with demo data all come up (one seeds)', async () => {
    const { db, databaseUrl, dataDir } = await fresh();
    const apps = await Promise.all(
      [0, 1, 2].map(async (i) =>
        startAppProcess({
          port: await freePort(),
          databaseUrl,
          dataDir: `${dataDir}/p${i}`,
          env: { SEED_DEMO_DATA: '1' },
        }),
      ),
    );
    try {
      const ready = await Promise.all(apps.map((app) => app.ready(60_000)));
      expect(ready, apps.map((a) => a.log.join('')).join('\n---\n')).toEqual([true, true, true]);
      const admins = await db('users').where({ role: 'admin' }).count({ n: '*' }).first();
      expect(Number(admins!.n)).toBe(1);
      const seeded = await db('siteSettings').where({ key: 'demo_data_seeded_at' }).count({ n: '*' }).first();
      expect(Number(seeded!.n)).toBe(1);
    } finally {
      await Promise.all(apps.map((app) => app.kill('SIGTERM')));
    }
  }, 90_000);
  it('three servers starting together on one empty database seed it once, and none dies on a duplicate', async () => {
    const { db, databaseUrl, dataDir } = await fresh();
    // In one process, without the start-up jitter of real ones: each its own pool, as each process has.
    const pools = [0, 1, 2].map(() => openDatabase({ databaseUrl, dataDir }));
    const config = (i: number) =>
      loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: `${dataDir}/s${i}`,
        DATABASE_URL: databaseUrl!,
        SEED_DEMO_DATA: '1',
        SWEEP_INTERVAL_MS: '0',
        RECONCILE_INTERVAL_MS: '0',
      });
    const started = await Promise.allSettled(
      pools.map((pool, i) => startServer(config(i), { db: pool, logger: pino({ level: 'silent' }) })),
    );
    try {
      expect(started.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []))).toEqual([]);
      expect(Number((await db('users').where({ role: 'admin' }).count({ n: '*' }).first())!.n)).toBe(1);
    } finally {
      await Promise.all(started.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
      await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
    }
  }, 60_000);
});
