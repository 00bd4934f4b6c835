import type { JobRepository } from '@svc/persistence';
import type { Logger } from '@svc/platform';
import { AbortReason, JobAbortedError } from './job-error';

/**
 * One running job in this worker: renews its lease every heartbeat and fires the abort signal when
 * the job stops being RUNNING (cancelled, or reaped after a stall) or the worker shuts down.
 */
export class JobExecution {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private reasonValue: AbortReason | null = null;

  constructor(
    readonly jobId: string,
    readonly queue: string,
    private readonly jobs: JobRepository,
    private readonly logger: Logger,
    private readonly timing: { leaseSeconds: number; heartbeatSeconds: number },
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get abortReason(): AbortReason | null {
    return this.reasonValue;
  }

  startHeartbeat(): void {
    this.timer = setInterval(() => void this.beat(), this.timing.heartbeatSeconds * 1000);
    this.timer.unref();
  }

  stopHeartbeat(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  abort(reason: AbortReason): void {
    if (this.reasonValue !== null) return;
    this.reasonValue = reason;
    this.controller.abort(new JobAbortedError(reason));
  }

  /** Reads the status now; aborts and throws when the job was cancelled meanwhile. */
  async throwIfCancelled(): Promise<void> {
    if (this.reasonValue === null) {
      const status = await this.jobs.getStatus(this.jobId);
      if (status === 'CANCELLED' || status === null) this.abort('cancelled');
    }
    if (this.reasonValue !== null) throw new JobAbortedError(this.reasonValue);
  }

  private async beat(): Promise<void> {
    if (this.reasonValue !== null) return;
    try {
      const renewed = await this.jobs.renewLease(this.jobId, this.timing.leaseSeconds);
      if (renewed) return;
      const status = await this.jobs.getStatus(this.jobId);
      this.logger.info('job no longer running; stopping it', { job_id: this.jobId, status });
      this.abort(status === 'CANCELLED' || status === null ? 'cancelled' : 'lease_lost');
    } catch (error) {
      // A missed heartbeat is tolerated: the lease is four heartbeats long.
      this.logger.warn('heartbeat failed', { job_id: this.jobId, error: (error as Error).message });
    }
  }
}
