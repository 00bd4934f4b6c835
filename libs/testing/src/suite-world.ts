import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createDataSource, dropDatabase, ensureDatabase, runMigrations } from '@svc/persistence';
import { removeQueues } from './remove-queues';
import { startDatabaseServer, stopDatabaseServer } from './standalone-database';
import { currentTestRun } from './test-environment';

/** A suite's own database, queue prefix and artifact folder inside the run, for suites that need a fresh world. */
export interface SuiteWorld {
  /** Environment overrides for `testConfig` and `spawnApp`. */
  env: Record<string, string>;
  dispose(): Promise<void>;
}

/**
 * Creates (and migrates) a database and a queue prefix for one suite. Suites that count rows of the
 * whole database (all embedded proteins, every prediction set) use it so that other suites of the
 * same run cannot change their numbers.
 */
export async function createSuiteWorld(name: string): Promise<SuiteWorld> {
  const run = currentTestRun();
  const id = `${name}_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(run.dbUrl);
  dbUrl.pathname = `${dbUrl.pathname}_${id}`;
  const queuePrefix = `${run.queuePrefix}${id}.`;
  const artifactsDir = join(run.artifactsDir, id);
  mkdirSync(artifactsDir, { recursive: true });
  if (run.standalone !== undefined) {
    // Standalone: a database of its own, copied from the run's migrated template.
    const pgdata = join(run.standalone.root, id);
    const server = await startDatabaseServer(pgdata, run.standalone.template);
    return {
      env: { SVC_DB_URL: server.url, SVC_QUEUE_PREFIX: queuePrefix, SVC_ARTIFACTS_DIR: artifactsDir },
      async dispose() {
        await stopDatabaseServer(server, pgdata);
        rmSync(artifactsDir, { recursive: true, force: true });
      },
    };
  }
  const world = await createWorld({ dbUrl: dbUrl.toString(), amqpUrl: run.amqpUrl, queuePrefix });
  return {
    env: { SVC_DB_URL: dbUrl.toString(), SVC_QUEUE_PREFIX: queuePrefix, SVC_ARTIFACTS_DIR: artifactsDir },
    async dispose() {
      await world.dispose();
      rmSync(artifactsDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database at `dbUrl` (created and migrated) and a queue prefix, both removed by `dispose`:
 * the world of a suite (`createSuiteWorld`) or of a benchmark run.
 */
export async function createWorld(input: {
  dbUrl: string;
  amqpUrl: string;
  queuePrefix: string;
}): Promise<{ dispose(): Promise<void> }> {
  await createMigratedDatabase(input.dbUrl);
  return {
    async dispose() {
      await dropDatabase(input.dbUrl);
      await removeQueues(input.amqpUrl, input.queuePrefix);
    },
  };
}

/** Creates the database at `dbUrl` when it is missing and applies every migration. */
export async function createMigratedDatabase(dbUrl: string): Promise<void> {
  await ensureDatabase(dbUrl);
  const db = createDataSource({ url: dbUrl, poolSize: 1 });
  await db.initialize();
  await runMigrations(db);
  await db.destroy();
}
