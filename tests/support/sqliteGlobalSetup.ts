import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { makeSqliteTemplate } from './databaseTemplate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DATA_DIR of the run's migrated SQLite template (tests/support/databaseTemplate.ts). */
    sqliteTemplateDir: string;
  }
}

/** Migrates the SQLite template once per run; every test file copies its file. */
export default async function setup(project: TestProject) {
  const dir = await makeSqliteTemplate();
  project.provide('sqliteTemplateDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
