import { defineConfig } from 'vitest/config';

// Unit and component tests, and the same API test files run once per database engine.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        // React components rendered in happy-dom (no browser needed).
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/components/inViewObserver.ts'],
        },
      },
      {
        test: {
          name: 'api-sqlite',
          include: ['tests/api/**/*.test.ts'],
          env: { TEST_DB: 'sqlite' },
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file gets its own database; two at a time keeps a 2-core machine responsive.
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
    ],
  },
});
