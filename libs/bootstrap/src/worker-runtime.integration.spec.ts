import { randomUUID } from 'node:crypto';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { OperationSpec } from '@svc/contracts';
import { computeDedupKey } from '@svc/domain';
import { JobEventRepository, JobRecord, JobRepository } from '@svc/persistence';
import { openRawQueueAccess, testConfig, waitFor } from '@svc/testing';
import {
  abortableSleep,
  defineOperation,
  defineStep,
  deferTo,
  JobAbortedError,
  JobError,
  StepHandle,
  StepOperation,
  WorkerRuntime,
} from '@svc/jobs';
import { Infrastructure, openInfrastructure } from './process/infrastructure';

// The job runtime (libs/jobs) as a worker process starts it (this library's infrastructure), against
// the real PostgreSQL and RabbitMQ of this test run: test-only operations
// are hosted by in-process WorkerRuntime instances and jobs go through the gateway's dispatch path.

jest.setTimeout(60_000);

const JOB_QUEUE = 'svc.jobs';
const BATCH_QUEUE = 'svc.embeddings.batch' as const;
const WRITE_QUEUE = 'svc.embeddings.write' as const;

// ---------------------------------------------------------------------------------------------
// Test operations. Every payload carries a `run` string unique to its test, which keys the
// counters below (and keeps the dedup index out of the way).
// ---------------------------------------------------------------------------------------------

class CoordinatorPayload {
  @IsString()
  @MaxLength(200)
  run!: string;

  @IsInt()
  @Min(0)
  @Max(1000)
  steps!: number;

  /** How long each write step works before it ticks. */
  @IsOptional()
  @IsInt()
  @Min(0)
  write_ms?: number;

  /** The write step with this index throws JobError('too_many_malformed_lines'), as a load step would. */
  @IsOptional()
  @IsInt()
  @Min(0)
  fail_index?: number;

  /** The first execution of each write step waits this long on its signal (abortable) before it ticks. */
  @IsOptional()
  @IsInt()
  @Min(0)
  abortable_ms?: number;

  /** Return deferTo() only once the steps have ticked this far (the steps outrun the coordinator). */
  @IsOptional()
  @IsInt()
  @Min(0)
  return_after_ticks?: number;
}

class StepPayload {
  @IsString()
  @MaxLength(200)
  run!: string;

  @IsInt()
  @Min(0)
  index!: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  write_ms?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  fail_index?: number;

  /** The first execution of each write step waits this long on its signal (abortable) before it ticks. */
  @IsOptional()
  @IsInt()
  @Min(0)
  abortable_ms?: number;
}

class SimplePayload {
  @IsString()
  @MaxLength(200)
  run!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60_000)
  sleep_ms?: number;

  /** Sleep this long on the first execution only (a later execution finishes at once). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60_000)
  first_sleep_ms?: number;
}

/** The test steps as their dispatchers name them (each runtime hosts its own copies). */
const TEST_BATCH: StepHandle<StepPayload> = { name: 'test_batch', queue: BATCH_QUEUE, payload: StepPayload };
const TEST_WRITE: StepHandle<StepPayload> = { name: 'test_write', queue: WRITE_QUEUE, payload: StepPayload };

const counters = new Map<string, number>();
const count = (key: string): number => counters.get(key) ?? 0;
const bump = (key: string): number => {
  const next = count(key) + 1;
  counters.set(key, next);
  return next;
};

/** Gates an operation until the test opens it. */
const gates = new Map<string, () => void>();
function gate(run: string): Promise<void> {
  return new Promise((resolve) => gates.set(run, resolve));
}
function openGate(run: string): void {
  gates.get(run)?.();
}

const COORDINATOR: OperationSpec<CoordinatorPayload> = {
  name: 'test_coordinator',
  queue: JOB_QUEUE,
  roleFloor: 'researcher',
  kind: 'job',
  payload: CoordinatorPayload,
};

const SIMPLE: OperationSpec<SimplePayload> = {
  name: 'test_simple',
  queue: JOB_QUEUE,
  roleFloor: 'researcher',
  kind: 'job',
  payload: SimplePayload,
};

const EMITTER: OperationSpec<SimplePayload> = {
  name: 'test_emitter',
  queue: JOB_QUEUE,
  roleFloor: 'researcher',
  kind: 'job',
  payload: SimplePayload,
};

const operations = [
  defineOperation<CoordinatorPayload>({
    spec: COORDINATOR,
    async execute({ job, payload, dispatch }) {
      bump(`coordinator:${payload.run}`);
      for (let index = 0; index < payload.steps; index++) {
        const step: StepPayload = { run: payload.run, index };
        if (payload.write_ms !== undefined) step.write_ms = payload.write_ms;
        if (payload.fail_index !== undefined) step.fail_index = payload.fail_index;
        if (payload.abortable_ms !== undefined) step.abortable_ms = payload.abortable_ms;
        await dispatch(TEST_BATCH, step);
      }
      const wanted = payload.return_after_ticks;
      if (wanted !== undefined) {
        const ticked = async (): Promise<true | undefined> =>
          ((await jobs.findById(job.id))?.progress_current ?? 0) >= wanted || undefined;
        await waitFor(ticked, { what: `${wanted} ticks on ${job.id}` });
      }
      return deferTo(payload.steps);
    },
  }),
  defineOperation<SimplePayload>({
    spec: SIMPLE,
    async execute({ payload, signal }) {
      const executions = bump(`simple:${payload.run}`);
      if (payload.sleep_ms !== undefined) await abortableSleep(payload.sleep_ms, signal);
      if (payload.first_sleep_ms !== undefined && executions === 1)
        await abortableSleep(payload.first_sleep_ms, signal);
      return { run: payload.run, executions };
    },
  }),
  defineOperation<SimplePayload>({
    spec: EMITTER,
    async execute({ payload, emit }) {
      await emit('test.stage_one', 'loading', { progress_current: 1, progress_total: 4 });
      await emit('test.stage_two', 'scoring', { progress_current: 3 }, 'warning');
      await emit('test.note', null, { progress_current: 'not a number', rows: 12 });
      await gate(payload.run);
      return { stages: 2 };
    },
  }),
];

/** The steps as hosted by one runtime (ticks are also counted per runtime). */
const stepsFor = (runtimeName: string): StepOperation[] => [
  defineStep<StepPayload>({
    ...TEST_BATCH,
    async execute({ payload, dispatch }) {
      bump(`batch:${payload.run}`);
      await dispatch(TEST_WRITE, { ...payload });
    },
  }),
  defineStep<StepPayload>({
    ...TEST_WRITE,
    async execute({ payload, tick, signal }) {
      const executions = bump(`write:${payload.run}`);
      if (payload.abortable_ms !== undefined && executions === 1) {
        try {
          await abortableSleep(payload.abortable_ms, signal);
        } catch (error) {
          bump(`write-aborted:${payload.run}:${(error as JobAbortedError).reason}`);
          // Winding down takes a moment: stop() must wait for it.
          await new Promise((resolve) => setTimeout(resolve, 300));
          bump(`write-ended:${payload.run}`);
          throw error;
        }
      }
      if (payload.write_ms !== undefined)
        await new Promise((resolve) => setTimeout(resolve, payload.write_ms));
      if (payload.fail_index === payload.index)
        throw new JobError('too_many_malformed_lines', `write ${payload.index} broke`);
      bump(`tick:${payload.run}`);
      bump(`tick@${runtimeName}:${payload.run}`);
      await tick();
    },
  }),
];

// ---------------------------------------------------------------------------------------------
// Infrastructure and helpers
// ---------------------------------------------------------------------------------------------

let infra: Infrastructure;
let jobs: JobRepository;
let events: JobEventRepository;
let runtime: WorkerRuntime;
const runtimes: WorkerRuntime[] = [];
const extraInfras: Infrastructure[] = [];

function config(): ReturnType<typeof testConfig> {
  return testConfig({ SVC_REAPER_MAX_REQUEUES: '3', SVC_LOG_LEVEL: 'error' });
}

async function startRuntime(on: Infrastructure, name: string): Promise<WorkerRuntime> {
  const created = new WorkerRuntime({
    name,
    repos: on.repos,
    config: on.config,
    broker: on.broker,
    logger: on.logger.child(`${name}.runtime`),
    metrics: on.metrics,
    timing: on.config.jobs,
    jobQueues: [JOB_QUEUE],
    operations,
    steps: stepsFor(name),
  });
  runtimes.push(created);
  await created.start();
  return created;
}

function uniqueRun(label: string): string {
  return `${label}-${randomUUID()}`;
}

/** Creates a QUEUED job the way the gateway does; publishes it (and confirms the publish) unless told not to. */
async function createJob(
  operation: string,
  payload: Record<string, unknown>,
  options: { publish?: boolean; dispatchDeadlineSeconds?: number } = {},
): Promise<string> {
  const job = await jobs.createQueued({
    operation,
    queueName: JOB_QUEUE,
    payload,
    meta: { test: 'worker-runtime' },
    description: null,
    tags: [],
    dedupKey: computeDedupKey({ operation, payload }),
    dispatchDeadlineSeconds: options.dispatchDeadlineSeconds ?? 30,
  });
  if (options.publish !== false) await publish(job.id);
  return job.id;
}

async function publish(jobId: string): Promise<void> {
  await infra.broker.publishJob(JOB_QUEUE, { job_id: jobId });
  await jobs.markDispatched(jobId);
}

async function waitForJob(
  id: string,
  done: (job: JobRecord) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<JobRecord> {
  let last: JobRecord | null = null;
  try {
    return await waitFor(
      async () => {
        last = await jobs.findById(id);
        return last !== null && done(last) ? last : undefined;
      },
      { timeoutMs, what: `job ${id}: ${what}` },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen ${JSON.stringify(last)}`);
  }
}

const isTerminal = (job: JobRecord): boolean => ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(job.status);

/** The job's event names, oldest first, once every `required` event is there (events follow their status change). */
async function eventNames(jobId: string, ...required: string[]): Promise<string[]> {
  return waitFor(
    async () => {
      const names = (await events.list(jobId, 1000)).map((e) => e.event).reverse();
      return required.every((name) => names.includes(name)) ? names : undefined;
    },
    { timeoutMs: 5000, what: `events ${required.join(', ')} of job ${jobId}` },
  );
}

/** Resolves once a job published after everything else on the job queue has succeeded. */
async function drainJobQueue(): Promise<void> {
  const sentinel = await createJob(SIMPLE.name, { run: uniqueRun('sentinel') });
  await waitForJob(sentinel, (job) => job.status === 'SUCCEEDED', 'sentinel succeeded');
}

async function readyMessages(queue: string): Promise<number> {
  const [stats] = await infra.broker.queueStats([queue]);
  return stats?.messages_ready ?? -1;
}

beforeAll(async () => {
  infra = await openInfrastructure('runtime-test', config());
  await infra.broker.waitUntilReady(10_000);
  jobs = new JobRepository(infra.db);
  events = new JobEventRepository(infra.db);
  runtime = await startRuntime(infra, 'runtime-test');
});

afterAll(async () => {
  for (const r of runtimes) await r.stop(2000);
  for (const extra of extraInfras) await extra.close();
  await infra?.close();
});

// ---------------------------------------------------------------------------------------------

describe('WorkerRuntime against PostgreSQL and RabbitMQ', () => {
  it('closes a deferred coordinator exactly when its write steps have ticked progress up to the total', async () => {
    const run = uniqueRun('defer');
    const id = await createJob(COORDINATOR.name, { run, steps: 6 });

    const job = await waitForJob(id, isTerminal, 'terminal');

    expect(job.status).toBe('SUCCEEDED');
    expect(job.progress_current).toBe(6);
    expect(job.progress_total).toBe(6);
    expect(job.finished_at).not.toBeNull();
    expect(job.leased_until).toBeNull();
    expect(count(`coordinator:${run}`)).toBe(1);
    expect(count(`batch:${run}`)).toBe(6);
    expect(count(`tick:${run}`)).toBe(6);
    const names = await eventNames(id, 'job.deferred', 'job.succeeded');
    expect(names).toContain('job.deferred');
    expect(names.filter((n) => n === 'job.succeeded')).toHaveLength(1);
    expect(names.indexOf('job.deferred')).toBeLessThan(names.indexOf('job.succeeded'));
    const deferred = (await events.list(id, 100)).find((e) => e.event === 'job.deferred');
    expect(deferred?.fields).toEqual({ progress_total: 6 });
  });

  it('counts racing ticks from two runtimes atomically and succeeds exactly once', async () => {
    const second = await openInfrastructure('runtime-test-b', config());
    extraInfras.push(second);
    await second.broker.waitUntilReady(10_000);
    const other = await startRuntime(second, 'runtime-test-b');
    try {
      const run = uniqueRun('race');
      const id = await createJob(COORDINATOR.name, { run, steps: 50 });

      const job = await waitForJob(id, isTerminal, 'terminal', 40_000);

      expect(job.status).toBe('SUCCEEDED');
      expect(job.progress_current).toBe(50);
      expect(job.progress_total).toBe(50);
      expect(count(`tick:${run}`)).toBe(50);
      // Both runtimes ticked the same parent.
      expect(count(`tick@runtime-test:${run}`)).toBeGreaterThan(0);
      expect(count(`tick@runtime-test-b:${run}`)).toBeGreaterThan(0);
      const names = await eventNames(id, 'job.succeeded');
      expect(names.filter((n) => n === 'job.succeeded')).toHaveLength(1);
      expect(names.filter((n) => n === 'job.started')).toHaveLength(1);
      // Still exactly 50 once every step message has been consumed.
      await waitFor(
        async () =>
          ((await readyMessages(WRITE_QUEUE)) === 0 && (await readyMessages(BATCH_QUEUE)) === 0) || undefined,
      );
      expect((await jobs.getById(id)).progress_current).toBe(50);
    } finally {
      await other.stop(2000);
    }
  });

  it('soft-cancels a deferred job: its remaining steps are skipped and progress stops short of the total', async () => {
    const run = uniqueRun('cancel');
    const id = await createJob(COORDINATOR.name, { run, steps: 20, write_ms: 200 });
    await waitForJob(
      id,
      (job) => job.status === 'RUNNING' && job.progress_total === 20 && (job.progress_current ?? 0) >= 3,
      'three ticks',
    );

    const cancelled = await jobs.cancel(id);
    const startedAtCancel = count(`write:${run}`);
    expect(cancelled.status).toBe('CANCELLED');

    // Every queued write step is delivered and skipped; at most the one in flight at the cancel finishes its body.
    await waitFor(
      async () =>
        ((await readyMessages(WRITE_QUEUE)) === 0 && (await readyMessages(BATCH_QUEUE)) === 0) || undefined,
      {
        what: 'step queues drained',
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));

    const job = await jobs.getById(id);
    expect(job.status).toBe('CANCELLED');
    expect(job.progress_current).toBe(cancelled.progress_current);
    expect(job.progress_current).toBeLessThan(20);
    expect(count(`write:${run}`) - startedAtCancel).toBeLessThanOrEqual(1);
    expect(count(`write:${run}`)).toBeLessThan(20);
    const names = await eventNames(id);
    expect(names).toContain('job.cancelled');
    expect(names).not.toContain('job.succeeded');
    expect(names).not.toContain('job.failed');
    expect(runtime.runningJobIds).toEqual([]);
  });

  it('fails the parent when a step throws a JobError', async () => {
    const run = uniqueRun('step-fails');
    const id = await createJob(COORDINATOR.name, { run, steps: 3, fail_index: 1 });

    const job = await waitForJob(id, isTerminal, 'terminal');

    expect(job.status).toBe('FAILED');
    expect(job.error_code).toBe('too_many_malformed_lines');
    expect(job.error_message).toContain('test_write');
    expect(job.error_message).toContain('write 1 broke');
    expect(job.finished_at).not.toBeNull();
    await eventNames(id, 'job.failed');
    const failed = (await events.list(id, 100)).filter((e) => e.event === 'job.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.level).toBe('error');
    expect(failed[0]?.fields).toEqual({ error_code: 'too_many_malformed_lines' });
  });

  it('fails a job with an invalid payload (unknown key or wrong type) with invalid_payload', async () => {
    const unknownKey = await createJob(SIMPLE.name, { run: uniqueRun('bad-key'), surprise: true });
    const wrongType = await createJob(SIMPLE.name, { run: 42, sleep_ms: uniqueRun('soon') });

    for (const id of [unknownKey, wrongType]) {
      const job = await waitForJob(id, isTerminal, 'terminal');
      expect(job.status).toBe('FAILED');
      expect(job.error_code).toBe('invalid_payload');
      expect(job.finished_at).not.toBeNull();
    }
    expect((await jobs.getById(unknownKey)).error_message).toContain('surprise');
    const wrong = await jobs.getById(wrongType);
    expect(wrong.error_message).toContain('run');
    expect(wrong.error_message).toContain('sleep_ms');
  });

  it('fails a job whose operation this runtime does not host with operation_not_hosted', async () => {
    const id = await createJob('test_nobody_hosts_this', { run: uniqueRun('not-hosted') });

    const job = await waitForJob(id, isTerminal, 'terminal');

    expect(job.status).toBe('FAILED');
    expect(job.error_code).toBe('operation_not_hosted');
    expect(job.error_message).toContain('test_nobody_hosts_this');
    expect(await eventNames(id, 'job.failed')).not.toContain('job.started');
  });

  it('runs a job once when its message is delivered three times', async () => {
    const run = uniqueRun('duplicates');
    const id = await createJob(SIMPLE.name, { run, sleep_ms: 300 });
    await infra.broker.publishJob(JOB_QUEUE, { job_id: id });
    await infra.broker.publishJob(JOB_QUEUE, { job_id: id });

    const job = await waitForJob(id, isTerminal, 'terminal');
    await drainJobQueue();

    expect(job.status).toBe('SUCCEEDED');
    expect(job.result).toEqual({ run, executions: 1 });
    expect(count(`simple:${run}`)).toBe(1);
    const names = await eventNames(id, 'job.succeeded');
    expect(names.filter((n) => n === 'job.started')).toHaveLength(1);
    expect(names.filter((n) => n === 'job.succeeded')).toHaveLength(1);
  });

  it('does not run a delivery for a job cancelled before it was consumed', async () => {
    const run = uniqueRun('cancelled-first');
    const id = await createJob(SIMPLE.name, { run }, { publish: false });
    await jobs.cancel(id);
    await publish(id);

    await drainJobQueue();

    expect(count(`simple:${run}`)).toBe(0);
    const job = await jobs.getById(id);
    expect(job.status).toBe('CANCELLED');
    expect(job.started_at).toBeNull();
    expect(await eventNames(id)).toEqual(['job.created', 'job.cancelled']);
  });

  it('reaper requeues a RUNNING job whose lease expired, and fails it once the requeue budget is spent', async () => {
    const requeueRun = uniqueRun('reap-requeue');
    const exhaustedRun = uniqueRun('reap-exhausted');
    const requeued = await createJob(SIMPLE.name, { run: requeueRun }, { publish: false });
    const exhausted = await createJob(SIMPLE.name, { run: exhaustedRun }, { publish: false });
    // As left behind by a worker that died mid-job.
    await infra.db.query(
      `UPDATE job SET status = 'RUNNING', started_at = clock_timestamp() - interval '1 minute',
              leased_until = clock_timestamp() - interval '5 seconds', requeue_count = $2 WHERE id = $1`,
      [requeued, 0],
    );
    await infra.db.query(
      `UPDATE job SET status = 'RUNNING', started_at = clock_timestamp() - interval '1 minute',
              leased_until = clock_timestamp() - interval '5 seconds', requeue_count = $2 WHERE id = $1`,
      [exhausted, 3],
    );

    const done = await waitForJob(requeued, isTerminal, 'terminal', 15_000);
    const failed = await waitForJob(exhausted, isTerminal, 'terminal', 15_000);

    expect(done.status).toBe('SUCCEEDED');
    expect(done.requeue_count).toBe(1);
    expect(count(`simple:${requeueRun}`)).toBe(1);
    const requeueEvents = (await events.list(requeued, 100)).filter((e) => e.event === 'job.requeued');
    expect(requeueEvents).toHaveLength(1);
    expect(requeueEvents[0]?.fields).toEqual({ requeue_count: 1 });

    expect(failed.status).toBe('FAILED');
    expect(failed.error_code).toBe('lease_expired');
    expect(failed.requeue_count).toBe(3);
    expect(failed.leased_until).toBeNull();
    expect(count(`simple:${exhaustedRun}`)).toBe(0);
    expect(await eventNames(exhausted, 'job.lease_expired')).toContain('job.lease_expired');
  });

  it('reaper publishes a QUEUED job whose dispatch was never confirmed', async () => {
    const run = uniqueRun('undispatched');
    const id = await createJob(SIMPLE.name, { run }, { publish: false, dispatchDeadlineSeconds: 0.5 });

    const job = await waitForJob(id, isTerminal, 'terminal', 15_000);

    expect(job.status).toBe('SUCCEEDED');
    expect(job.requeue_count).toBe(0);
    expect(count(`simple:${run}`)).toBe(1);
    const names = await eventNames(id, 'job.redispatched', 'job.succeeded');
    expect(names.indexOf('job.redispatched')).toBeLessThan(names.indexOf('job.started'));
  });

  it('hands a running job back to its queue on graceful stop, and a new runtime finishes it', async () => {
    const run = uniqueRun('graceful');
    const id = await createJob(SIMPLE.name, { run, first_sleep_ms: 30_000 });
    await waitForJob(id, (job) => job.status === 'RUNNING', 'running');
    await waitFor(async () => count(`simple:${run}`) === 1 || undefined, { what: 'operation started' });

    const stopping = Date.now();
    await runtime.stop();
    expect(Date.now() - stopping).toBeLessThan(5000);

    const handedBack = await jobs.getById(id);
    expect(handedBack.status).toBe('QUEUED');
    expect(handedBack.started_at).toBeNull();
    expect(handedBack.requeue_count).toBe(0);
    const names = await eventNames(id);
    expect(names).toContain('job.requeued');
    expect(names).not.toContain('job.failed');

    runtime = await startRuntime(infra, 'runtime-test-2');
    const job = await waitForJob(id, isTerminal, 'terminal');

    expect(job.status).toBe('SUCCEEDED');
    expect(job.result).toEqual({ run, executions: 2 });
    expect(count(`simple:${run}`)).toBe(2);
    expect((await eventNames(id)).filter((n) => n === 'job.started')).toHaveLength(2);
  });

  it('emit() records events (newest first) and numeric progress fields update the job', async () => {
    const run = uniqueRun('emit');
    const id = await createJob(EMITTER.name, { run });

    const running = await waitForJob(
      id,
      (job) => job.status === 'RUNNING' && job.progress_current === 3,
      'progress 3',
    );
    expect(running.progress_total).toBe(4);
    await waitFor(async () => (gates.has(run) ? true : undefined), { what: 'emitter at its gate' });
    expect((await jobs.getById(id)).progress_current).toBe(3); // the non-numeric field changed nothing
    openGate(run);
    const job = await waitForJob(id, isTerminal, 'terminal');

    expect(job.status).toBe('SUCCEEDED');
    expect(job.result).toEqual({ stages: 2 });
    expect(job.progress_current).toBe(3);
    expect(job.progress_total).toBe(4);
    await eventNames(id, 'job.succeeded');
    const listed = await events.list(id, 100);
    expect(listed.map((e) => e.event)).toEqual([
      'job.succeeded',
      'test.note',
      'test.stage_two',
      'test.stage_one',
      'job.started',
      'job.created',
    ]);
    expect(listed[1]).toMatchObject({
      message: null,
      level: 'info',
      fields: { progress_current: 'not a number', rows: 12 },
    });
    expect(listed[2]).toMatchObject({
      message: 'scoring',
      level: 'warning',
      fields: { progress_current: 3 },
    });
    expect(listed[3]).toMatchObject({
      message: 'loading',
      level: 'info',
      fields: { progress_current: 1, progress_total: 4 },
    });
    const page = await events.list(id, 2, listed[1]?.ts);
    expect(page.map((e) => e.event)).toEqual(['test.stage_two', 'test.stage_one']);
  });

  it('dead-letters a malformed job message and keeps working', async () => {
    const queues = await openRawQueueAccess();
    try {
      const marker = uniqueRun('malformed');
      const notJson = `{ this is not json ${marker}`;
      const wrongShape = JSON.stringify({ job_id: 'not-a-uuid', marker });
      await queues.send(JOB_QUEUE, notJson);
      await queues.send(JOB_QUEUE, wrongShape);

      const seen = new Set<string>();
      await waitFor(
        async () => {
          for (;;) {
            const message = await queues.get('svc.dead-letter');
            if (message === null) break;
            seen.add(message);
          }
          return seen.has(notJson) && seen.has(wrongShape) ? true : undefined;
        },
        { what: 'both malformed messages in the dead-letter queue' },
      );
    } finally {
      await queues.close();
    }

    const run = uniqueRun('after-malformed');
    const job = await waitForJob(await createJob(SIMPLE.name, { run }), isTerminal, 'terminal');
    expect(job.status).toBe('SUCCEEDED');
  });

  it('closes a deferred coordinator whose steps all ticked before it returned, or that deferred nothing', async () => {
    const outrun = await createJob(COORDINATOR.name, {
      run: uniqueRun('steps-first'),
      steps: 3,
      return_after_ticks: 3,
    });
    const empty = await createJob(COORDINATOR.name, { run: uniqueRun('no-steps'), steps: 0 });

    for (const [id, total] of [
      [outrun, 3],
      [empty, 0],
    ] as const) {
      const job = await waitForJob(id, isTerminal, 'terminal', 10_000);
      expect(job.status).toBe('SUCCEEDED');
      expect(job.progress_current).toBe(total);
      expect(job.progress_total).toBe(total);
      expect(job.finished_at).not.toBeNull();
      const names = await eventNames(id, 'job.deferred', 'job.succeeded');
      expect(names.filter((n) => n === 'job.succeeded')).toHaveLength(1);
      expect(names.indexOf('job.deferred')).toBeLessThan(names.indexOf('job.succeeded'));
    }
  });
  it("fires a running step's signal when its parent is cancelled, and the step ticks nothing", async () => {
    const run = uniqueRun('step-cancel');
    const id = await createJob(COORDINATOR.name, { run, steps: 1, abortable_ms: 30_000 });
    await waitFor(async () => count(`write:${run}`) === 1 || undefined, { what: 'write step running' });

    await jobs.cancel(id);
    // The runtime looks at the parents of its running steps every heartbeat (1 s in tests).
    await waitFor(async () => count(`write-ended:${run}`) === 1 || undefined, {
      timeoutMs: 5000,
      what: 'write step stopped',
    });

    expect(count(`write-aborted:${run}:cancelled`)).toBe(1);
    expect(count(`tick:${run}`)).toBe(0);
    const job = await jobs.getById(id);
    expect(job.status).toBe('CANCELLED');
    expect(job.progress_current ?? 0).toBe(0);
  });

  it('waits on stop for its running steps, whose messages go back to the queue for the next worker', async () => {
    const run = uniqueRun('step-stop');
    const id = await createJob(COORDINATOR.name, { run, steps: 1, abortable_ms: 30_000 });
    await waitFor(async () => count(`write:${run}`) === 1 || undefined, { what: 'write step running' });

    const stopping = Date.now();
    await runtime.stop();
    // stop() returned only after the step had wound down, and well before its 30 s sleep.
    expect(count(`write-ended:${run}`)).toBe(1);
    expect(count(`write-aborted:${run}:shutdown`)).toBe(1);
    expect(Date.now() - stopping).toBeLessThan(5000);
    expect((await jobs.getById(id)).status).toBe('RUNNING');

    runtime = await startRuntime(infra, 'runtime-test-steps');
    const job = await waitForJob(id, isTerminal, 'terminal');
    expect(job.status).toBe('SUCCEEDED');
    expect(count(`write:${run}`)).toBe(2);
    expect(count(`tick:${run}`)).toBe(1);
  });

  it('commits a terminal status and its event together: a failed closing transaction leaves neither', async () => {
    const succeeded = await createJob(SIMPLE.name, { run: uniqueRun('atomic-success') }, { publish: false });
    const failed = await createJob(SIMPLE.name, { run: uniqueRun('atomic-failure') }, { publish: false });
    await jobs.claim(succeeded, 30);
    await jobs.claim(failed, 30);

    await expect(
      jobs.markSucceeded(succeeded, { done: true }, () => Promise.reject(new Error('closing step broke'))),
    ).rejects.toThrow('closing step broke');
    expect((await jobs.getById(succeeded)).status).toBe('RUNNING');
    expect(await eventNames(succeeded)).not.toContain('job.succeeded');

    // The repository's one call writes the event: there is no later statement a crash could skip.
    expect(await jobs.markSucceeded(succeeded, { done: true })).toBe(true);
    expect(await jobs.markFailed(failed, 'empty_source', 'the test broke it')).toBe(true);
    expect((await eventNames(succeeded)).filter((n) => n === 'job.succeeded')).toHaveLength(1);
    const failure = (await events.list(failed, 10)).find((e) => e.event === 'job.failed');
    expect(failure).toMatchObject({
      level: 'error',
      message: 'the test broke it',
      fields: { error_code: 'empty_source' },
    });
    // A second close of either changes nothing and writes no second event.
    expect(await jobs.markSucceeded(succeeded, null)).toBe(false);
    expect(await jobs.markFailed(failed, 'internal_error', 'again')).toBe(false);
    expect((await eventNames(succeeded)).filter((n) => n === 'job.succeeded')).toHaveLength(1);
    expect((await eventNames(failed)).filter((n) => n === 'job.failed')).toHaveLength(1);
  });
});
