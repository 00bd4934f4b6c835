import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDataSource, ensureDatabase, runMigrations } from '@svc/persistence';
import { prepareTemplateDatabase, standaloneTestMode, startDatabaseServer } from './standalone-database';
import { newTestRun, saveTestRun, WORKSPACE_ROOT } from './test-environment';

/**
 * Creates this run's fresh database (migrated) and records its queue prefix. In standalone mode the
 * database is an embedded one in a temporary folder, and the queues live in the test process.
 */
export default async function globalSetup(): Promise<void> {
  const run = newTestRun();
  if (standaloneTestMode()) {
    const root = join(WORKSPACE_ROOT, 'tmp', `standalone-${run.queuePrefix.split('.')[1] ?? 'run'}`);
    mkdirSync(root, { recursive: true });
    const template = join(root, 'template');
    prepareTemplateDatabase(template);
    const server = await startDatabaseServer(join(root, 'run'), template);
    saveTestRun({ ...run, dbUrl: server.url, standalone: { root, template, pid: server.pid } });
    return;
  }
  await ensureDatabase(run.dbUrl);
  const db = createDataSource({ url: run.dbUrl, poolSize: 1 });
  await db.initialize();
  await runMigrations(db);
  await db.destroy();
  saveTestRun(run);
}
