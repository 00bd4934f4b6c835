import { join } from 'node:path';
import type { TestRun } from './test-environment';

// Kept free of the service's libraries: the integration projects load it before every test file.

/** Set by the global setup; Jest's test processes inherit it, so concurrent runs never share a world. */
export const RUN_VARIABLE = 'SVC_TEST_RUN';

/**
 * The world of Jest worker `worker` (1-based) of a run: the run itself in band or in standalone mode;
 * otherwise a database, a queue prefix and an artifact folder of its own, named after the run's.
 */
export function workerRun(run: TestRun, worker: number): TestRun {
  if ((run.workers ?? 1) <= 1 || run.standalone !== undefined || run.worker !== undefined) return run;
  const dbUrl = new URL(run.dbUrl);
  dbUrl.pathname = `${dbUrl.pathname}_w${worker}`;
  return {
    ...run,
    dbUrl: dbUrl.toString(),
    queuePrefix: `${run.queuePrefix}w${worker}.`,
    artifactsDir: join(run.artifactsDir, `w${worker}`),
    worker,
  };
}

/** Every worker's world of a run (the run itself when it has one worker). */
export function workerRuns(run: TestRun): TestRun[] {
  const workers = run.standalone === undefined ? Math.max(1, run.workers ?? 1) : 1;
  return Array.from({ length: workers }, (_, i) => workerRun(run, i + 1));
}

/**
 * Points this Jest worker's test file at the worker's own world (a setup file of the integration
 * projects calls it before each file); a no-op in band.
 */
export function useWorkerRun(): void {
  const value = process.env[RUN_VARIABLE];
  const worker = Number(process.env['JEST_WORKER_ID'] ?? '1');
  if (value === undefined) return;
  process.env[RUN_VARIABLE] = JSON.stringify(workerRun(JSON.parse(value) as TestRun, worker));
}
