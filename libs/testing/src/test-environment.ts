import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, loadConfig } from '@svc/platform';
import { RUN_VARIABLE } from './worker-run';

export { useWorkerRun, workerRun, workerRuns } from './worker-run';

export const WORKSPACE_ROOT = join(__dirname, '..', '..', '..');

/** The fresh world of one test run: its own database and queue prefix. */
export interface TestRun {
  dbUrl: string;
  amqpUrl: string;
  queuePrefix: string;
  artifactsDir: string;
  /** Standalone runs: the run's folder, the migrated template cluster and the run database's server. */
  standalone?: { root: string; template: string; pid: number };
  /**
   * How many Jest workers share the run (its `maxWorkers`; 1 in band). Each worker of a run with
   * more than one gets a world of its own (`workerRun`), so test files running at the same time never
   * share a database, a queue or an artifact folder.
   */
  workers?: number;
  /** Set on a worker's own world: the Jest worker it belongs to. */
  worker?: number;
}

export function newTestRun(): TestRun {
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const adminUrl = process.env['SVC_TEST_DB_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/svc_test_${id}`;
  return {
    dbUrl: dbUrl.toString(),
    amqpUrl: process.env['SVC_TEST_AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672',
    queuePrefix: `test.${id}.`,
    artifactsDir: join(WORKSPACE_ROOT, 'tmp', `artifacts-${id}`),
  };
}

export function saveTestRun(run: TestRun): void {
  mkdirSync(run.artifactsDir, { recursive: true });
  process.env[RUN_VARIABLE] = JSON.stringify(run);
}

export function currentTestRun(): TestRun {
  const value = process.env[RUN_VARIABLE];
  if (value === undefined)
    throw new Error(`${RUN_VARIABLE} is not set: run integration tests through jest (global setup)`);
  return JSON.parse(value) as TestRun;
}

/**
 * Where tests keep the files they load: the workspace, the shared data beside it, the run's
 * artifacts and the system's temporary folder (suites write small sources there).
 */
function testSourceRoots(run: TestRun): string[] {
  const shared = process.env['SVC_TEST_SHARED_DATA'];
  return [WORKSPACE_ROOT, join(WORKSPACE_ROOT, '..', 'shared'), run.artifactsDir, tmpdir()].concat(
    shared !== undefined ? [shared] : [],
  );
}

/** Environment variables that point a process at this run's database and queues. */
export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const run = currentTestRun();
  return {
    SVC_DB_URL: run.dbUrl,
    SVC_AMQP_URL: run.amqpUrl,
    SVC_QUEUE_PREFIX: run.queuePrefix,
    SVC_ARTIFACTS_DIR: run.artifactsDir,
    SVC_AUTHN_REQUIRED: 'false',
    SVC_HOST: '127.0.0.1',
    SVC_PORT: '0',
    SVC_LOG_LEVEL: 'warn',
    SVC_JOB_LEASE_SECONDS: '4',
    SVC_JOB_HEARTBEAT_SECONDS: '1',
    SVC_REAPER_INTERVAL_SECONDS: '1',
    SVC_PUBLISH_TIMEOUT_MS: '3000',
    SVC_CONFIG_FILE: join(WORKSPACE_ROOT, 'libs', 'testing', 'src', 'empty-config.yaml'),
    // Suites read sources from their own folders and serve them from local HTTP servers; the
    // security suite narrows both to prove the refusals.
    SVC_SOURCE_ALLOWED_ROOTS: testSourceRoots(run).join(','),
    SVC_SOURCE_ALLOWED_HOSTS: '127.0.0.1,localhost',
    // Suites sign many accounts up from 127.0.0.1; the suite that proves the limit sets a small one.
    SVC_SIGNUP_ADDRESS_LIMIT: '1000000',
    // One embedded database session serves every component: while a load holds a transaction for a
    // few seconds, no heartbeat can renew a lease, so standalone runs use a lease longer than that.
    ...(run.standalone === undefined ? {} : { SVC_MODE: 'standalone', SVC_JOB_LEASE_SECONDS: '30' }),
    ...overrides,
  };
}

/** The service configuration for an in-process component of this run. */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({ env: testEnv(overrides), rootDir: join(WORKSPACE_ROOT, 'libs', 'testing', 'src') });
}
