import { parseJobMessage } from '@svc/contracts';
import { JobRecord } from '@svc/persistence';
import {
  ArtifactStore,
  Delivery,
  DeliveryOutcome,
  isInfrastructureUnavailable,
  messageTracing,
} from '@svc/platform';
import { assertFollowUpAllowed } from './follow-up';
import { errorMessageOf, JobAbortedError, jobFailureOf } from './job-error';
import { JobExecution } from './job-execution';
import { JobLifecycle } from './job-lifecycle';
import { abortedOutcome, Finish, recordOutcome } from './job-outcome';
import { JobOperation } from './operation';
import { assertPayloadAllowed } from './payload-check';
import { WorkerRuntimeOptions } from './runtime-options';
import { validatePayload } from './validate-payload';

/**
 * Consumes job messages: claims the job, runs its operation with a heartbeat, and records the
 * outcome (SUCCEEDED, DEFERRED to its steps, FAILED with a stable code, or handed back).
 */
export class JobConsumer {
  private readonly operations = new Map<string, JobOperation>();
  private readonly running = new Map<string, { execution: JobExecution; done: Promise<unknown> }>();

  constructor(
    private readonly options: WorkerRuntimeOptions,
    private readonly lifecycle: JobLifecycle,
    private readonly artifacts: ArtifactStore,
  ) {
    for (const op of options.operations) this.operations.set(op.spec.name, op);
  }

  get operationNames(): string[] {
    return [...this.operations.keys()];
  }

  get runningJobIds(): string[] {
    return [...this.running.keys()];
  }

  /** Signals every running job to stop; a job goes back to its queue once its handler returned. */
  stopAll(): { pending: number; done: Promise<unknown>[] } {
    const pending = [...this.running.values()];
    for (const { execution } of pending) execution.abort('shutdown');
    return { pending: pending.length, done: pending.map((p) => p.done) };
  }

  /** After the grace period: hands back every job whose handler is still running. */
  async handBackRemaining(): Promise<void> {
    for (const jobId of this.running.keys()) await this.lifecycle.handBack(jobId);
  }

  async onDelivery(queue: string, delivery: Delivery): Promise<DeliveryOutcome> {
    try {
      return await this.handle(queue, delivery);
    } catch (error) {
      return this.lifecycle.retryLater('job delivery', error);
    }
  }

  private async handle(queue: string, delivery: Delivery): Promise<DeliveryOutcome> {
    const { logger, timing } = this.options;
    const jobs = this.lifecycle.jobs;
    const message = delivery.malformed ? null : parseJobMessage(delivery.body);
    if (message === null) {
      logger.warn('malformed job message dead-lettered', { queue });
      return 'reject';
    }
    if (this.lifecycle.stopping) return 'requeue';
    if (delivery.redelivered) logger.info('redelivered job message', { job_id: message.job_id, queue });
    // Claiming is the one read on the common path; only a message that cannot claim asks why.
    const job = await jobs.claim(message.job_id, timing.leaseSeconds);
    if (job === null) {
      const status = await jobs.getStatus(message.job_id);
      if (status === null) {
        logger.warn('message for an unknown job dropped', { job_id: message.job_id, queue });
        return 'ack';
      }
      if (status === 'CANCELLED') return 'reject';
      logger.info('duplicate delivery ignored', { job_id: message.job_id, status });
      return 'ack';
    }
    const execution = new JobExecution(job.id, queue, jobs, logger, timing);
    const done = messageTracing().span(
      `job ${job.operation}`,
      { 'job.id': job.id, 'job.operation': job.operation, 'job.queue': queue },
      () => this.run(job, execution, delivery.traceparent),
      (outcome) => outcome === 'reject',
    );
    this.running.set(job.id, { execution, done });
    try {
      return await done;
    } finally {
      this.running.delete(job.id);
    }
  }

  private async run(
    job: JobRecord,
    execution: JobExecution,
    traceparent: string | null,
  ): Promise<DeliveryOutcome> {
    const { name, metrics, config } = this.options;
    const jobs = this.lifecycle.jobs;
    const started = process.hrtime.bigint();
    const logger = this.options.logger.child('job', {
      job_id: job.id,
      operation: job.operation,
      traceparent,
    });
    const finish: Finish = (status) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.jobsTotal.inc({ operation: job.operation, status });
      metrics.jobDurationSeconds.observe({ operation: job.operation, status }, seconds);
      logger.info('job finished', { status, duration_s: Number(seconds.toFixed(3)) });
    };
    const operation = this.operations.get(job.operation);
    if (operation === undefined) {
      const where = `${name} (queue ${job.queue_name})`;
      await this.lifecycle.fail(
        job.id,
        'operation_not_hosted',
        `operation '${job.operation}' is not hosted by ${where}`,
      );
      finish('FAILED');
      return 'reject';
    }
    await this.lifecycle.events.append(job.id, 'job.started', null, { worker: name, pid: process.pid });
    execution.startHeartbeat();
    try {
      const payload = await validatePayload(operation.spec.payload, job.payload);
      assertPayloadAllowed(operation.spec, payload, job, config);
      await assertFollowUpAllowed(job, config);
      const result = await operation.execute({
        job,
        payload,
        emit: this.lifecycle.emitter(job.id),
        signal: execution.signal,
        throwIfCancelled: () => execution.throwIfCancelled(),
        dispatch: this.lifecycle.dispatcher(job.id, traceparent),
        setProgress: (current, total) => jobs.setProgress(job.id, current, total),
        plan: (make) => jobs.planOnce(job.id, make),
        logger,
        repos: this.lifecycle.repos,
        config,
        artifacts: this.artifacts,
      });
      if (execution.abortReason !== null) return await abortedOutcome(this.lifecycle, execution, finish);
      return await recordOutcome(this.lifecycle, job.id, result, finish);
    } catch (error) {
      if (error instanceof JobAbortedError || execution.abortReason !== null)
        return abortedOutcome(this.lifecycle, execution, finish);
      if (isInfrastructureUnavailable(error)) {
        // Not the job's fault: it goes back to its queue (or, if even that fails, the reaper
        // requeues it when its lease runs out).
        await this.lifecycle.handBack(job.id, 'database or broker unavailable; job handed back to its queue');
        finish('HANDED_BACK');
        return 'ack';
      }
      const failure = jobFailureOf(error);
      await this.lifecycle.fail(job.id, failure.code, failure.message);
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
}
