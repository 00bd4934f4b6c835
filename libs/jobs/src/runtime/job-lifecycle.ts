import type { JobErrorCode } from '@svc/contracts';
import { Db, JobEventRepository, JobRecord, JobRepository, Repositories } from '@svc/persistence';
import { DeliveryOutcome, isInfrastructureUnavailable, UnknownQueueError } from '@svc/platform';
import { insertFollowUp, publishFollowUp } from './follow-up';
import { DispatchFn, EmitFn } from './operation';
import { WorkerRuntimeOptions } from './runtime-options';

/** How long a delivery that met a database or broker outage waits before going back to its queue. */
const OUTAGE_RETRY_MS = 1000;

/**
 * What the job consumer, the step consumer and the reaper share: publishing a job (and confirming
 * it on its row), handing one back, failing one, the emit() callback, follow-up jobs, and the
 * put-back of a delivery that met an outage. `stopping` is set once the worker begins to stop.
 */
export class JobLifecycle {
  /** The process's repositories, which operations and steps receive as `repos`. */
  readonly repos: Repositories;
  readonly jobs: JobRepository;
  readonly events: JobEventRepository;
  stopping = false;

  constructor(private readonly options: WorkerRuntimeOptions) {
    this.repos = options.repos;
    this.jobs = this.repos.jobs;
    this.events = this.repos.jobEvents;
  }

  async publishAndConfirm(jobId: string, queue: string): Promise<void> {
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

  /** A RUNNING job goes back to QUEUED and to its queue (a no-op once it is no longer RUNNING). */
  async handBack(
    jobId: string,
    reason = 'worker shutting down; job handed back to its queue',
  ): Promise<void> {
    try {
      const requeued = await this.jobs.requeueForShutdown(jobId, this.options.timing.leaseSeconds);
      if (requeued === null) return;
      await this.events.append(jobId, 'job.requeued', reason, { worker: this.options.name });
      await this.publishAndConfirm(jobId, requeued.queue_name);
    } catch (error) {
      this.options.logger.warn('could not hand back job', { job_id: jobId, error: (error as Error).message });
    }
  }

  async fail(jobId: string, code: JobErrorCode, message: string): Promise<void> {
    await this.jobs.markFailed(jobId, code, message);
  }

  /** Publishes steps of `jobId` to their queues, carrying the trace of the job or step that sends them. */
  dispatcher(jobId: string, traceparent: string | null): DispatchFn {
    return (step, payload) =>
      this.options.broker.publishOperation(
        step.queue,
        { operation: step.name, job_id: jobId, payload: payload as Record<string, unknown> },
        traceparent,
      );
  }

  emitter(jobId: string): EmitFn {
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

  /** Follow-up jobs (`meta.then`) are inserted in the closing transaction and published after it. */
  followUps(): { onClose: (jobId: string) => (tx: Db) => Promise<void>; publish: () => Promise<void> } {
    const pending: JobRecord[] = [];
    return {
      onClose: (jobId) => async (tx) => {
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

  /**
   * A delivery that met a database or broker outage before its job was claimed (or while a step ran)
   * goes back to its queue after a pause; anything else escapes to the broker, which dead-letters it.
   */
  async retryLater(what: string, error: unknown): Promise<DeliveryOutcome> {
    if (!isInfrastructureUnavailable(error)) throw error;
    this.options.logger.warn(`${what} put back: database or broker unavailable`, {
      error: (error as Error).message,
    });
    if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, OUTAGE_RETRY_MS));
    return 'requeue';
  }
}
