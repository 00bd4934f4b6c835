import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
import { Infrastructure, openInfrastructure, WorkerDefinition } from '@svc/bootstrap';
import { AppConfig, loadConfig } from '@svc/platform';
import { createWorld } from '@svc/testing';

/** A throw-away database and queue prefix for one benchmark run, removed by `dispose`. */
export interface BenchWorld {
  config: AppConfig;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function createBenchWorld(overrides: Record<string, string> = {}): Promise<BenchWorld> {
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const base = loadConfig();
  const dbUrl = new URL(base.dbUrl);
  dbUrl.pathname = `/svc_bench_${id}`;
  const env: Record<string, string> = {
    SVC_DB_URL: dbUrl.toString(),
    SVC_AMQP_URL: base.amqpUrl,
    SVC_ARTIFACTS_DIR: base.artifactsDir,
    SVC_QUEUE_PREFIX: `bench.${id}.`,
    SVC_AUTHN_REQUIRED: 'false',
    SVC_PORT: '0',
    SVC_LOG_LEVEL: 'error',
    // Benchmarks load the shared data beside the repository and files they write to a scratch folder.
    SVC_SOURCE_ALLOWED_ROOTS: [resolve(__dirname, '../../../shared/data'), tmpdir()].join(','),
    ...overrides,
  };
  const world = await createWorld({
    dbUrl: env['SVC_DB_URL']!,
    amqpUrl: env['SVC_AMQP_URL']!,
    queuePrefix: env['SVC_QUEUE_PREFIX']!,
  });
  return { config: loadConfig({ env }), env, dispose: () => world.dispose() };
}

export interface BenchSession {
  world: BenchWorld;
  infra: Infrastructure;
  /** A scratch folder, removed afterwards. */
  dir: string;
}

/**
 * Runs one benchmark: a throw-away database and queue prefix, in-process runtimes of the given
 * workers, and a scratch folder, all removed afterwards; a failure is printed and exits with 1.
 */
export function runBench(
  name: string,
  definitions: WorkerDefinition[],
  work: (session: BenchSession) => Promise<void>,
): void {
  const main = async (): Promise<void> => {
    const world = await createBenchWorld();
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
    const infra = await openInfrastructure(name, world.config);
    await infra.broker.waitUntilReady(60_000);
    const runtimes = await startBenchRuntimes(infra, world, definitions);
    try {
      await work({ world, infra, dir });
    } finally {
      await runtimes.stop();
      await infra.close();
      rmSync(dir, { recursive: true, force: true });
      await world.dispose();
    }
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}

/** Starts in-process runtimes of the given workers on the bench world's database and queues. */
export async function startBenchRuntimes(
  infra: Infrastructure,
  world: BenchWorld,
  definitions: WorkerDefinition[],
): Promise<{ stop(): Promise<void> }> {
  const { WorkerRuntime } = await import('@svc/jobs');
  const runtimes = definitions.map(
    (definition) =>
      new WorkerRuntime({
        name: `bench-${definition.name}`,
        repos: infra.repos,
        config: world.config,
        broker: infra.broker,
        logger: infra.logger,
        metrics: infra.metrics,
        timing: world.config.jobs,
        jobQueues: definition.jobQueues,
        operations: definition.operations,
        steps: definition.steps ?? [],
      }),
  );
  for (const runtime of runtimes) await runtime.start();
  return {
    async stop() {
      for (const runtime of runtimes) await runtime.stop();
    },
  };
}

export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/**
 * Queues one job exactly as the gateway does (row, then publish) and polls until it ends; throws
 * with the job's error when it FAILED. Returns the finished job and the wall-clock seconds.
 */
export async function runBenchJob(
  infra: { repos: import('@svc/persistence').Repositories; broker: import('@svc/platform').MessageBroker },
  operation: string,
  queue: string,
  payload: Record<string, unknown>,
): Promise<{ job: import('@svc/persistence').JobRecord; wallSeconds: number }> {
  const jobs = infra.repos.jobs;
  const started = Date.now();
  const job = await jobs.createQueued({
    operation,
    queueName: queue,
    payload,
    meta: {},
    description: 'benchmark',
    tags: [],
    dedupKey: null,
    dispatchDeadlineSeconds: 3600,
  });
  await infra.broker.publishJob(queue, { job_id: job.id });
  for (;;) {
    const current = await jobs.findById(job.id);
    if (current !== null && ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(current.status)) {
      if (current.status !== 'SUCCEEDED')
        throw new Error(`${operation} ${current.status}: ${current.error_code} ${current.error_message}`);
      return { job: current, wallSeconds: (Date.now() - started) / 1000 };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts `apps/<name>/src/main.ts` with the world's settings and waits for its ready line. */
export function startApp(
  name: string,
  env: Record<string, string>,
  ready: string,
  flags: string[] = [],
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [...flags, '-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'apps', name, 'src', 'main.ts')],
    { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...env, SVC_LOG_LEVEL: 'info' }, stdio: 'pipe' },
  );
  return new Promise((done, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${name} did not start: ${seen.slice(-2000)}`)), 60_000);
    const watch = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (seen.includes(ready)) {
        clearTimeout(timer);
        child.stdout?.off('data', watch);
        child.stderr?.off('data', watch);
        child.stdout?.resume();
        child.stderr?.resume();
        done(child);
      }
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    child.on('exit', (code) => fail(new Error(`${name} exited with ${code}: ${seen.slice(-2000)}`)));
  });
}

export async function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** A process's resident memory now, in MB (Linux: /proc/<pid>/status), or 0 once it has gone. */
export function rssMbOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? 0 : Math.round(Number(kb) / 1024);
  } catch {
    return 0;
  }
}
