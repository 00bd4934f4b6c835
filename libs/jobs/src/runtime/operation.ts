import type { OperationQueueName, OperationSpec } from '@svc/contracts';
import type { JobEventLevel } from '@svc/domain';
import type { AppConfig, ArtifactStore, Logger } from '@svc/platform';
import type { Db, JobRecord, Repositories } from '@svc/persistence';

export type EmitFn = (
  event: string,
  message?: string | null,
  fields?: Record<string, unknown>,
  level?: JobEventLevel,
) => Promise<void>;

/**
 * A step as the code that dispatches it names it: its operation queue and name, and the payload
 * class that both types what a dispatcher sends and validates what the step receives.
 */
export interface StepHandle<P extends object> {
  readonly name: string;
  readonly queue: OperationQueueName;
  readonly payload: new () => P;
}

/** Publishes a step of this job; the queue and the payload's type come from the step's handle. */
export type DispatchFn = <P extends object>(step: StepHandle<P>, payload: NoInfer<P>) => Promise<void>;

interface CommonContext {
  /** Appends a JobEvent; numeric `progress_current` / `progress_total` fields also update the job's progress. */
  emit: EmitFn;
  /** Fires when the job is cancelled, its lease is lost, or the worker shuts down. */
  signal: AbortSignal;
  /** Reads the job's status now (a database round trip) and throws JobAbortedError if it was cancelled. */
  throwIfCancelled: () => Promise<void>;
  /** Publishes a step of this job to an operation queue. */
  dispatch: DispatchFn;
  logger: Logger;
  /** The process's repositories (all SQL is theirs) and settings. */
  repos: Repositories;
  config: AppConfig;
  /** The process's artifact store (checked at start-up). */
  artifacts: ArtifactStore;
}

export interface JobContext<P> extends CommonContext {
  job: JobRecord;
  payload: P;
  setProgress: (current: number | null, total: number | null) => Promise<void>;
  /**
   * The job's plan (what its steps will cover, JSON): `make()` runs on the first run and its result is
   * stored; a later run of the same job (after a hand-back or a lease expiry) gets that plan back
   * (`resumed`) instead, so it sends the same batches and their write steps commit once per key.
   */
  plan: <T>(make: () => Promise<T>) => Promise<{ plan: T; resumed: boolean }>;
}

export interface StepContext<P> extends CommonContext {
  parentJobId: string;
  payload: P;
  /** Adds to the parent's `progress_current`; the tick that reaches `progress_total` closes the parent. */
  tick: (amount?: number) => Promise<void>;
  /**
   * Runs `write` and the tick in one transaction, once per `key` of the parent job: a redelivered
   * step (its acknowledgement lost to a crash or a broker reconnect) neither writes nor ticks again.
   * False for such a duplicate. Keys must tell the job's batches apart.
   */
  tickOnce: (
    key: string,
    amount: number,
    write: (tx: Db) => Promise<void>,
    /** In the same transaction, when this tick closes the job (its result's last words). */
    onClose?: (tx: Db) => Promise<void>,
  ) => Promise<boolean>;
}

/** A coordinator's "the job goes on in its steps" answer. */
export interface Deferred {
  readonly deferred: true;
  readonly progressTotal: number;
}

export function deferTo(progressTotal: number): Deferred {
  return { deferred: true, progressTotal };
}

export function isDeferred(value: unknown): value is Deferred {
  return typeof value === 'object' && value !== null && (value as Deferred).deferred === true;
}

export type JobResult = Record<string, unknown> | Deferred | void;

export interface JobOperation<P extends object = object> {
  readonly kind: 'job';
  readonly spec: OperationSpec<P>;
  execute(context: JobContext<P>): Promise<JobResult>;
}

export interface StepOperation<P extends object = object> extends StepHandle<P> {
  readonly kind: 'step';
  /**
   * Messages of this step a worker process runs at once (its queue's prefetch; default 1). More than
   * one only for a step whose commits are safe side by side and that mostly waits on the database.
   */
  readonly concurrency?: number;
  execute(context: StepContext<P>): Promise<void>;
}

export function defineOperation<P extends object>(definition: {
  spec: OperationSpec<P>;
  execute(context: JobContext<P>): Promise<JobResult>;
}): JobOperation<P> {
  return { kind: 'job', ...definition };
}

export function defineStep<P extends object>(definition: {
  name: string;
  queue: OperationQueueName;
  payload: new () => P;
  concurrency?: number;
  execute(context: StepContext<P>): Promise<void>;
}): StepOperation<P> {
  return { kind: 'step', ...definition };
}

/** The operation queues a worker consumes for its steps, in the order the steps are listed. */
export function stepQueuesOf(steps: readonly StepHandle<object>[]): OperationQueueName[] {
  return [...new Set(steps.map((step) => step.queue))];
}

/** Sleeps, waking early with JobAbortedError when the signal fires. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
