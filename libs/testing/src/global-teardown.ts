import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase } from '@svc/persistence';
import { removeQueues } from './remove-queues';
import { stopDatabaseServer } from './standalone-database';
import { currentTestRun } from './test-environment';

/** Drops the run's database, deletes its queues and exchange, removes its artifacts folder. */
export default async function globalTeardown(): Promise<void> {
  const run = currentTestRun();
  if (process.env['SVC_TEST_KEEP'] === '1') return;
  if (run.standalone !== undefined) {
    await stopDatabaseServer({ url: run.dbUrl, pid: run.standalone.pid }, join(run.standalone.root, 'run'));
    rmSync(run.standalone.root, { recursive: true, force: true });
  } else {
    await dropDatabase(run.dbUrl);
    await removeQueues(run.amqpUrl, run.queuePrefix);
  }
  rmSync(run.artifactsDir, { recursive: true, force: true });
}
