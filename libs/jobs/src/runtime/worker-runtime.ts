import { DataSource } from 'typeorm';
import { parseJobMessage, parseOperationMessage } from '@svc/contracts';
import { Db, JobEventRepository, JobRecord, JobRepository } from '@svc/persistence';
import {
  AppConfig,
  ArtifactStore,
  createArtifactStore,
  Delivery,
  DeliveryOutcome,
  isInfrastructureUnavailable,
  Logger,
  MessageBroker,
  messageTracing,
  Metrics,
  UnknownQueueError,
} from '@svc/platform';
import { JobAbortedError, errorMessageOf, jobFailureOf } from './job-error';
import { JobExecution } from './job-execution';
import { EmitFn, isDeferred, JobOperation, StepOperation } from './operation';
import { validatePayload } from './validate-payload';
import { assertFollowUpAllowed, insertFollowUp, publishFollowUp } from './follow-up';

/** A step message being handled by this process. */
interface RunningStep {
  parentId: string;
  controller: AbortController;
  /** Settles when its handler has returned. */
  done: Promise<void>;
}

/** How long a delivery that met a database or broker outage waits before going back to its queue. */
const OUTAGE_RETRY_MS = 1000;

export interface WorkerTiming {
  leaseSeconds: number;
  heartbeatSeconds: number;
  reaperIntervalSeconds: number;
  reaperMaxRequeues: number;
}

export interface WorkerRuntimeOptions {
  name: string;
  db: DataSource;
  config: AppConfig;
  broker: MessageBroker;
  logger: Logger;
  metrics: Metrics;
  timing: WorkerTiming;
  /** Job queues this worker consumes and the operations it hosts on them. */
  jobQueues: readonly string[];
  operations: readonly JobOperation[];
  /** Operation (step) queues this worker consumes and the steps it hosts. */
  stepQueues?: readonly string[];
  steps?: readonly StepOperation[];
  /** Run the lease reaper in this process (every worker does; an advisory lock keeps passes exclusive). */
  runReaper?: boolean;
  /** The checked store of the process; built from the config (unchecked) when absent. */
  artifacts?: ArtifactStore;
}

/**
 * The job runtime every worker shares: consumes its queues, claims jobs, runs operations with a
 * heartbeat and an emit() callback, records the outcome, reaps expired leases and shuts down
 * gracefully (running jobs go back to QUEUED and are published again).
 */
export class WorkerRuntime {
  private readonly jobs: JobRepository;
  private readonly events: JobEventRepository;
  private readonly operations = new Map<string, JobOperation>();
  private readonly steps = new Map<string, StepOperation>();
  private readonly running = new Map<string, { execution: JobExecution; done: Promise<unknown> }>();
  /** Steps running in this process: their signal fires on the parent's cancel and on shutdown. */
  private readonly runningSteps = new Set<RunningStep>();
  private stepWatchTimer: NodeJS.Timeout | undefined;
  private readonly stopConsumers: (() => Promise<void>)[] = [];
  private reaperTimer: NodeJS.Timeout | undefined;
  private reaping: Promise<void> | null = null;
  private stopping = false;
  private readonly artifacts: ArtifactStore;

  constructor(private readonly options: WorkerRuntimeOptions) {
    this.artifacts = options.artifacts ?? createArtifactStore(options.config, (m) => options.logger.warn(m));
    this.jobs = new JobRepository(options.db);
    this.events = new JobEventRepository(options.db);
    for (const op of options.operations) this.operations.set(op.spec.name, op);
    for (const step of options.steps ?? []) this.steps.set(step.name, step);
  }

  get runningJobIds(): string[] {
    return [...this.running.keys()];
  }

  async start(): Promise<void> {
    for (const queue of this.options.jobQueues) {
      this.stopConsumers.push(await this.options.broker.consume(queue, (d) => this.onJobDelivery(queue, d)));
    }
    for (const queue of this.options.stepQueues ?? []) {
      const prefetch = Math.max(
        1,
        ...(this.options.steps ?? []).filter((s) => s.queue === queue).map((s) => s.concurrency ?? 1),
      );
      this.stopConsumers.push(
        await this.options.broker.consume(queue, (d) => this.onStepDelivery(d), prefetch),
      );
    }
    this.stepWatchTimer = setInterval(() => {
      void this.abortStepsOfStoppedParents();
    }, this.options.timing.heartbeatSeconds * 1000);
    this.stepWatchTimer.unref();
    if (this.options.runReaper !== false) {
      this.reaperTimer = setInterval(() => {
        this.reaping ??= this.reapOnce().finally(() => (this.reaping = null));
      }, this.options.timing.reaperIntervalSeconds * 1000);
      this.reaperTimer.unref();
    }
    this.options.logger.info('worker started', {
      worker: this.options.name,
      job_queues: this.options.jobQueues,
      step_queues: this.options.stepQueues ?? [],
      operations: [...this.operations.keys()],
      steps: [...this.steps.keys()],
    });
  }

  /**
   * Stops taking messages, signals every running job and step to stop, and waits for their handlers
   * (up to `graceMs`): a job is handed back to its queue once its handler has stopped, a step's
   * message goes back to its queue. A job whose handler outlives the grace period is handed back
   * then, since the process is about to end.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.reaperTimer !== undefined) clearInterval(this.reaperTimer);
    if (this.stepWatchTimer !== undefined) clearInterval(this.stepWatchTimer);
    await Promise.all(this.stopConsumers.map((stop) => stop()));
    const pending = [...this.running.values()];
    const steps = [...this.runningSteps];
    for (const { execution } of pending) execution.abort('shutdown');
    for (const step of steps) step.controller.abort(new JobAbortedError('shutdown'));
    await Promise.race([
      Promise.allSettled([...pending.map((p) => p.done), ...steps.map((step) => step.done)]),
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
    for (const { execution } of this.running.values()) await this.handBack(execution);
    await this.reaping;
    this.options.logger.info('worker stopped', {
      worker: this.options.name,
      handed_back: pending.length,
      steps_stopped: steps.length,
    });
  }

  /** Fires the signal of every running step whose parent job is no longer RUNNING (cancelled, failed, deleted). */
  private async abortStepsOfStoppedParents(): Promise<void> {
    if (this.runningSteps.size === 0) return;
    try {
      const parents = [...new Set([...this.runningSteps].map((step) => step.parentId))];
      const running = await this.jobs.runningAmong(parents);
      for (const step of this.runningSteps)
        if (!running.has(step.parentId)) step.controller.abort(new JobAbortedError('cancelled'));
    } catch (error) {
      // Like a missed heartbeat: the next pass looks again.
      this.options.logger.warn('step watch failed', { error: (error as Error).message });
    }
  }

  /** Logs a failure that escaped every handler, without ending the process. */
  logFailure(what: string, reason: unknown): void {
    this.options.logger.error(what, {
      error: reason instanceof Error ? reason.message : String(reason),
      stack: (reason as Error)?.stack,
    });
  }

  /** One reaper pass; exposed for operators' tools and tests. */
  async reapOnce(): Promise<void> {
    try {
      const reaped = await this.jobs.reapExpired({
        maxRequeues: this.options.timing.reaperMaxRequeues,
        leaseSeconds: this.options.timing.leaseSeconds,
      });
      for (const job of reaped) {
        this.options.logger.warn('reaper', { job_id: job.id, outcome: job.outcome });
        if (job.outcome === 'failed') {
          this.options.metrics.jobsTotal.inc({ operation: 'unknown', status: 'FAILED' });
          continue;
        }
        await this.publishAndConfirm(job.id, job.queue_name);
      }
    } catch (error) {
      this.options.logger.warn('reaper pass failed', { error: (error as Error).message });
    }
  }

  private async handBack(
    execution: JobExecution,
    reason = 'worker shutting down; job handed back to its queue',
  ): Promise<void> {
    try {
      const requeued = await this.jobs.requeueForShutdown(execution.jobId, this.options.timing.leaseSeconds);
      if (requeued === null) return;
      await this.events.append(execution.jobId, 'job.requeued', reason, { worker: this.options.name });
      await this.publishAndConfirm(execution.jobId, requeued.queue_name);
    } catch (error) {
      this.options.logger.warn('could not hand back job', {
        job_id: execution.jobId,
        error: (error as Error).message,
      });
    }
  }

  private async publishAndConfirm(jobId: string, queue: string): Promise<void> {
    try {
      await this.options.broker.publishJob(queue, { job_id: jobId });
      await this.jobs.markDispatched(jobId);
    } catch (error) {
      if (error instanceof UnknownQueueError) {
        // A row naming a queue that is not ours (stored before queue names were checked) never runs.
        await this.fail(jobId, 'invalid_queue', error.message);
        return;
      }
      // The dispatch deadline stays on the row, so a later reaper pass publishes it again.
      this.options.logger.warn('republish failed; the reaper will retry', {
        job_id: jobId,
        error: (error as Error).message,
      });
    }
  }

  private async onJobDelivery(queue: string, delivery: Delivery): Promise<DeliveryOutcome> {
    try {
      return await this.handleJobDelivery(queue, delivery);
    } catch (error) {
      return this.retryLater('job delivery', error);
    }
  }

  /**
   * A delivery that met a database or broker outage before its job was claimed (or while a step ran)
   * goes back to its queue after a pause; anything else escapes to the broker, which dead-letters it.
   */
  private async retryLater(what: string, error: unknown): Promise<DeliveryOutcome> {
    if (!isInfrastructureUnavailable(error)) throw error;
    this.options.logger.warn(`${what} put back: database or broker unavailable`, {
      error: (error as Error).message,
    });
    if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, OUTAGE_RETRY_MS));
    return 'requeue';
  }

  private async handleJobDelivery(queue: string, delivery: Delivery): Promise<DeliveryOutcome> {
    const message = delivery.malformed ? null : parseJobMessage(delivery.body);
    if (message === null) {
      this.options.logger.warn('malformed job message dead-lettered', { queue });
      return 'reject';
    }
    if (this.stopping) return 'requeue';
    if (delivery.redelivered)
      this.options.logger.info('redelivered job message', { job_id: message.job_id, queue });
    const current = await this.jobs.findById(message.job_id);
    if (current === null) {
      this.options.logger.warn('message for an unknown job dropped', { job_id: message.job_id, queue });
      return 'ack';
    }
    if (current.status === 'CANCELLED') return 'reject';
    const job = await this.jobs.claim(message.job_id, this.options.timing.leaseSeconds);
    if (job === null) {
      this.options.logger.info('duplicate delivery ignored', {
        job_id: message.job_id,
        status: current.status,
      });
      return 'ack';
    }
    const execution = new JobExecution(job.id, queue, this.jobs, this.options.logger, this.options.timing);
    const done = messageTracing().span(
      `job ${job.operation}`,
      { 'job.id': job.id, 'job.operation': job.operation, 'job.queue': queue },
      () => this.runJob(job, execution, delivery.traceparent),
      (outcome) => outcome === 'reject',
    );
    this.running.set(job.id, { execution, done });
    try {
      return await done;
    } finally {
      this.running.delete(job.id);
    }
  }

  private async runJob(
    job: JobRecord,
    execution: JobExecution,
    traceparent: string | null,
  ): Promise<DeliveryOutcome> {
    const started = process.hrtime.bigint();
    const logger = this.options.logger.child('job', {
      job_id: job.id,
      operation: job.operation,
      traceparent,
    });
    const finish = (status: string): void => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.options.metrics.jobsTotal.inc({ operation: job.operation, status });
      this.options.metrics.jobDurationSeconds.observe({ operation: job.operation, status }, seconds);
      logger.info('job finished', { status, duration_s: Number(seconds.toFixed(3)) });
    };
    const operation = this.operations.get(job.operation);
    if (operation === undefined) {
      await this.fail(
        job.id,
        'operation_not_hosted',
        `operation '${job.operation}' is not hosted by ${this.options.name} (queue ${job.queue_name})`,
      );
      finish('FAILED');
      return 'reject';
    }
    await this.events.append(job.id, 'job.started', null, { worker: this.options.name, pid: process.pid });
    execution.startHeartbeat();
    try {
      const payload = await validatePayload(operation.spec.payload, job.payload);
      await assertFollowUpAllowed(job, this.options.config);
      const emit = this.emitter(job.id);
      const result = await operation.execute({
        job,
        payload,
        emit,
        signal: execution.signal,
        throwIfCancelled: () => execution.throwIfCancelled(),
        dispatch: (queue, name, stepPayload) =>
          this.options.broker.publishOperation(
            queue,
            { operation: name, job_id: job.id, payload: stepPayload },
            traceparent,
          ),
        setProgress: (current, total) => this.jobs.setProgress(job.id, current, total),
        plan: (make) => this.jobs.planOnce(job.id, make),
        logger,
        db: this.options.db,
        config: this.options.config,
        artifacts: this.artifacts,
      });
      if (execution.abortReason !== null) return this.aborted(job.id, execution, finish);
      if (isDeferred(result)) {
        const followUps = this.followUps();
        const deferred = await this.jobs.markDeferred(
          job.id,
          result.progressTotal,
          followUps.onClose(job.id),
        );
        if (deferred === null) {
          // Cancelled, or failed by one of its steps, while the coordinator was still running.
          finish((await this.jobs.getStatus(job.id)) ?? 'CANCELLED');
          return 'ack';
        }
        if (deferred.closed) {
          // The steps had already ticked up to the total: the job closed with its deferral.
          await followUps.publish();
          finish('SUCCEEDED');
        } else {
          finish('DEFERRED');
        }
        return 'ack';
      }
      const followUps = this.followUps();
      const succeeded = await this.jobs.markSucceeded(job.id, result ?? null, followUps.onClose(job.id));
      if (succeeded) await followUps.publish();
      finish(succeeded ? 'SUCCEEDED' : 'CANCELLED');
      return 'ack';
    } catch (error) {
      if (error instanceof JobAbortedError || execution.abortReason !== null)
        return this.aborted(job.id, execution, finish);
      if (isInfrastructureUnavailable(error)) {
        // Not the job's fault: it goes back to its queue (or, if even that fails, the reaper
        // requeues it when its lease runs out).
        await this.handBack(execution, 'database or broker unavailable; job handed back to its queue');
        finish('HANDED_BACK');
        return 'ack';
      }
      const failure = jobFailureOf(error);
      await this.fail(job.id, failure.code, failure.message);
      if (failure.reference !== null)
        logger.error('operation crashed', {
          reference: failure.reference,
          error: errorMessageOf(error),
          stack: (error as Error).stack,
        });
      finish('FAILED');
      return 'reject';
    } finally {
      execution.stopHeartbeat();
    }
  }

  private async aborted(
    jobId: string,
    execution: JobExecution,
    finish: (status: string) => void,
  ): Promise<DeliveryOutcome> {
    const reason = execution.abortReason ?? 'cancelled';
    if (reason === 'cancelled')
      await this.events.append(jobId, 'job.cancel_observed', 'the worker stopped the job', {});
    // Its handler has stopped: only now does the job go back to its queue for another worker.
    if (reason === 'shutdown') await this.handBack(execution);
    finish(reason === 'cancelled' ? 'CANCELLED' : 'HANDED_BACK');
    // A cancelled job's message is rejected (no requeue); a handed-back job was republished.
    return reason === 'cancelled' ? 'reject' : 'ack';
  }

  /** Follow-up jobs (`meta.then`) are inserted in the closing transaction and published after it. */
  private followUps() {
    const pending: JobRecord[] = [];
    return {
      onClose: (jobId: string) => async (tx: Db) => {
        const next = await insertFollowUp(tx, jobId, this.options.config);
        if (next !== null) pending.push(next);
      },
      publish: async () => {
        for (const job of pending.splice(0))
          await publishFollowUp({
            jobs: this.jobs,
            broker: this.options.broker,
            job,
            logger: this.options.logger,
          });
      },
    };
  }

  private async fail(jobId: string, code: string, message: string): Promise<void> {
    await this.jobs.markFailed(jobId, code, message);
  }

  private emitter(jobId: string): EmitFn {
    return async (event, message = null, fields = {}, level = 'info') => {
      await this.events.append(jobId, event, message, fields, level);
      const current = fields['progress_current'];
      const total = fields['progress_total'];
      if (typeof current === 'number' || typeof total === 'number') {
        await this.jobs.setProgress(
          jobId,
          typeof current === 'number' ? current : null,
          typeof total === 'number' ? total : null,
        );
      }
    };
  }

  private async onStepDelivery(delivery: Delivery): Promise<DeliveryOutcome> {
    try {
      return await this.handleStepDelivery(delivery);
    } catch (error) {
      return this.retryLater('step delivery', error);
    }
  }

  private async handleStepDelivery(delivery: Delivery): Promise<DeliveryOutcome> {
    const message = delivery.malformed ? null : parseOperationMessage(delivery.body);
    if (message === null) {
      this.options.logger.warn('malformed operation message dead-lettered');
      return 'reject';
    }
    if (this.stopping) return 'requeue';
    const parentId = message.job_id;
    if (delivery.redelivered)
      this.options.logger.info('redelivered step message', {
        job_id: parentId,
        operation: message.operation,
      });
    const status = await this.jobs.getStatus(parentId);
    if (status !== 'RUNNING') {
      // Soft cancel: steps of a cancelled (or already finished or deleted) parent are skipped.
      this.options.logger.info('step skipped; parent not running', {
        job_id: parentId,
        operation: message.operation,
        status,
      });
      return 'ack';
    }
    const step = this.steps.get(message.operation);
    if (step === undefined) {
      await this.fail(
        parentId,
        'operation_not_hosted',
        `step '${message.operation}' is not hosted by ${this.options.name}`,
      );
      return 'reject';
    }
    let settle = (): void => undefined;
    const running: RunningStep = {
      parentId,
      controller: new AbortController(),
      done: new Promise<void>((resolve) => (settle = resolve)),
    };
    this.runningSteps.add(running);
    try {
      return await this.runStep(step, message.payload, running, delivery.traceparent);
    } finally {
      this.runningSteps.delete(running);
      settle();
    }
  }

  private async runStep(
    step: StepOperation,
    rawPayload: unknown,
    { parentId, controller }: RunningStep,
    traceparent: string | null,
  ): Promise<DeliveryOutcome> {
    const logger = this.options.logger.child('step', { job_id: parentId, operation: step.name });
    try {
      const payload = await validatePayload(step.payload, rawPayload);
      await step.execute({
        parentJobId: parentId,
        payload,
        emit: this.emitter(parentId),
        signal: controller.signal,
        throwIfCancelled: async () => {
          if (!controller.signal.aborted && (await this.jobs.getStatus(parentId)) !== 'RUNNING')
            controller.abort(new JobAbortedError('cancelled'));
          if (controller.signal.aborted) throw controller.signal.reason as JobAbortedError;
        },
        dispatch: (queue, name, stepPayload) =>
          this.options.broker.publishOperation(
            queue,
            { operation: name, job_id: parentId, payload: stepPayload },
            traceparent,
          ),
        tick: async (amount = 1) => {
          const followUps = this.followUps();
          await this.jobs.tickProgress(parentId, amount, followUps.onClose(parentId));
          await followUps.publish();
        },
        tickOnce: async (key, amount, write) => {
          const followUps = this.followUps();
          const commit = await this.jobs.tickProgressOnce(
            parentId,
            `${step.name}:${key}`,
            amount,
            write,
            followUps.onClose(parentId),
          );
          if (commit.duplicate) logger.info('step already committed; duplicate delivery ignored', { key });
          await followUps.publish();
          return !commit.duplicate;
        },
        logger,
        db: this.options.db,
        config: this.options.config,
        artifacts: this.artifacts,
      });
      return 'ack';
    } catch (error) {
      // Stopped by the parent's cancel: skipped. Stopped by shutdown: back to the queue for another
      // worker (a step's writes commit once per key, so running it again is safe).
      if (error instanceof JobAbortedError) return error.reason === 'shutdown' ? 'requeue' : 'ack';
      if (controller.signal.aborted) {
        const reason = controller.signal.reason as JobAbortedError;
        return reason.reason === 'shutdown' ? 'requeue' : 'ack';
      }
      // Steps are safe to run again (their writes commit once per key): retried after the outage.
      if (isInfrastructureUnavailable(error)) throw error;
      const failure = jobFailureOf(error);
      await this.fail(parentId, failure.code, `${step.name}: ${failure.message}`);
      if (failure.reference !== null)
        logger.error('step crashed', {
          reference: failure.reference,
          error: errorMessageOf(error),
          stack: (error as Error).stack,
        });
      return 'reject';
    }
  }
}
