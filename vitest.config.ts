import { defineConfig } from 'vitest/config';

// Unit and component tests, and the API test files on each database engine. Every API file runs
// on MariaDB; on SQLite, `npm test` runs those where the engines differ (SQL semantics: tickets,
// orders, draws, the unit of work, locking, migrations, start-up, sessions), with
// API_SQLITE=engine-sensitive. `npm run test:fast` runs every API file on SQLite.
const ENGINE_SENSITIVE = [
  'tests/api/tickets/**/*.test.ts',
  'tests/api/orders/**/*.test.ts',
  'tests/api/draws/**/*.test.ts',
  'tests/api/services/**/*.test.ts',
  'tests/api/platform/{unitOfWork,startup,schema,seed,statementBatch,skillPoolsMigration,shutdown,fuzz}.test.ts',
  'tests/api/accounts/{promoCodes,duplicateRegistration,endedSessions,sessions,playerProtection,adminPromos}.test.ts',
  'tests/api/catalogue/{adminCompetitions,skillTest}.test.ts',
];
const sqliteFiles =
  process.env.API_SQLITE === 'engine-sensitive' ? ENGINE_SENSITIVE : ['tests/api/**/*.test.ts'];
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // A failure deadline, not a timing claim: the source-tree checks (layers, code size) read
          // every module and take several seconds while the API suites run beside them.
          testTimeout: 30_000,
        },
      },
      {
        // React components rendered in happy-dom (no browser needed).
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/components/inViewObserver.ts', 'tests/components/asyncTimeout.ts'],
        },
      },
      {
        test: {
          name: 'api-sqlite',
          include: sqliteFiles,
          env: { TEST_DB: 'sqlite' },
          // Migrates a template once per run; each file copies it (tests/support/databaseTemplate.ts).
          globalSetup: ['tests/support/sqliteGlobalSetup.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-mysql',
          include: ['tests/api/**/*.test.ts'],
          env: { TEST_DB: 'mysql' },
          globalSetup: ['tests/support/mysqlGlobalSetup.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file gets its own copy of the run's migrated template (tests/support/databaseTemplate.ts).
          maxWorkers: 2,
        },
      },
      {
        // The hold and realtime tests again with FAST_PATHS=off (fastpaths/README.md): the plain
        // libraries must pass them too.
        test: {
          name: 'fastpaths-off',
          include: [
            'tests/api/tickets/*.test.ts',
            'tests/api/platform/{fastPaths,socketMemory,socketOrigin,scaleout,cluster,statementBatch,rollingRestart}.test.ts',
          ],
          env: { TEST_DB: 'mysql', FAST_PATHS: 'off' },
          globalSetup: ['tests/support/mysqlGlobalSetup.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
    ],
  },
});
