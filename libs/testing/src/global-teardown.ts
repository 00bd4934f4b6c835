import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase } from '@svc/persistence';
import { removeQueues } from './remove-queues';
import { stopDatabaseServer } from './standalone-database';
import { currentTestRun, workerRuns } from './test-environment';

/** Drops the run's databases (one per Jest worker), deletes their queues and exchange, removes its artifacts folder. */
export default async function globalTeardown(): Promise<void> {
  const run = currentTestRun();
  if (process.env['SVC_TEST_KEEP'] === '1') return;
  if (run.standalone !== undefined) {
    await stopDatabaseServer({ url: run.dbUrl, pid: run.standalone.pid }, join(run.standalone.root, 'run'));
    rmSync(run.standalone.root, { recursive: true, force: true });
  } else {
    for (const world of workerRuns(run)) {
      await dropDatabase(world.dbUrl);
      await removeQueues(world.amqpUrl, world.queuePrefix);
    }
  }
  rmSync(run.artifactsDir, { recursive: true, force: true });
}
