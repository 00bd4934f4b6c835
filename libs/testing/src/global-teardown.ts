import { rmSync } from 'node:fs';
import { dropDatabase } from '@svc/persistence';
import { removeQueues } from './remove-queues';
import { currentTestRun } from './test-environment';

/** Drops the run's database, deletes its queues and exchange, removes its artifacts folder. */
export default async function globalTeardown(): Promise<void> {
  const run = currentTestRun();
  if (process.env['SVC_TEST_KEEP'] === '1') return;
  await dropDatabase(run.dbUrl);
  await removeQueues(run.amqpUrl, run.queuePrefix);
  rmSync(run.artifactsDir, { recursive: true, force: true });
}
