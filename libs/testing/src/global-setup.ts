import { createDataSource, ensureDatabase, runMigrations } from '@svc/persistence';
import { newTestRun, saveTestRun } from './test-environment';

/** Creates this run's fresh database (migrated) and records its queue prefix. */
export default async function globalSetup(): Promise<void> {
  const run = newTestRun();
  await ensureDatabase(run.dbUrl);
  const db = createDataSource({ url: run.dbUrl, poolSize: 1 });
  await db.initialize();
  await runMigrations(db);
  await db.destroy();
  saveTestRun(run);
}
