import { JobLifecycle } from './job-lifecycle';
import { WorkerRuntimeOptions } from './runtime-options';

/**
 * Re-queues jobs whose lease expired (their worker died) and publishes again those whose publish
 * was never confirmed; every worker runs one, and an advisory lock keeps the passes exclusive.
 */
export class LeaseReaper {
  private timer: NodeJS.Timeout | undefined;
  private reaping: Promise<void> | null = null;

  constructor(
    private readonly options: WorkerRuntimeOptions,
    private readonly lifecycle: JobLifecycle,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.reaping ??= this.reapOnce().finally(() => (this.reaping = null));
    }, this.options.timing.reaperIntervalSeconds * 1000);
    this.timer.unref();
  }

  /** Stops the timer and waits for a pass in progress. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.reaping;
  }

  async reapOnce(): Promise<void> {
    try {
      const reaped = await this.lifecycle.jobs.reapExpired({
        maxRequeues: this.options.timing.reaperMaxRequeues,
        leaseSeconds: this.options.timing.leaseSeconds,
      });
      for (const job of reaped) {
        this.options.logger.warn('reaper', { job_id: job.id, outcome: job.outcome });
        if (job.outcome === 'failed') {
          this.options.metrics.jobsTotal.inc({ operation: 'unknown', status: 'FAILED' });
          continue;
        }
        await this.lifecycle.publishAndConfirm(job.id, job.queue_name);
      }
    } catch (error) {
      this.options.logger.warn('reaper pass failed', { error: (error as Error).message });
    }
  }
}
