import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMigratedDatabase } from './suite-world';
import { prepareTemplateDatabase, standaloneTestMode, startDatabaseServer } from './standalone-database';
import { newTestRun, saveTestRun, workerRuns, WORKSPACE_ROOT } from './test-environment';

/**
 * Creates this run's fresh databases (migrated; one per Jest worker) and records its queue prefix.
 * In standalone mode the database is an embedded one in a temporary folder, and the queues live in
 * the test process.
 */
export default async function globalSetup(globalConfig?: { maxWorkers?: number }): Promise<void> {
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
  // One migrated database per Jest worker (one in band).
  const shared = { ...run, workers: Math.max(1, globalConfig?.maxWorkers ?? 1) };
  await Promise.all(
    workerRuns(shared).map(async (world) => {
      await createMigratedDatabase(world.dbUrl);
      mkdirSync(world.artifactsDir, { recursive: true });
    }),
  );
  saveTestRun(shared);
}
