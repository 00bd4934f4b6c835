import { ArtifactStore, createArtifactStore } from '@svc/platform';
import { JobConsumer } from './job-consumer';
import { JobLifecycle } from './job-lifecycle';
import { LeaseReaper } from './lease-reaper';
import { stepQueuesOf } from './operation';
import { WorkerRuntimeOptions } from './runtime-options';
import { StepConsumer } from './step-consumer';

export type { WorkerRuntimeOptions, WorkerTiming } from './runtime-options';

/**
 * The job runtime every worker shares: consumes its queues (jobs and steps), reaps expired leases,
 * and shuts down gracefully: running jobs and steps are signalled, their handlers awaited, and the
 * jobs handed back to their queues.
 */
export class WorkerRuntime {
  private readonly lifecycle: JobLifecycle;
  private readonly jobConsumer: JobConsumer;
  private readonly stepConsumer: StepConsumer;
  private readonly reaper: LeaseReaper;
  private readonly stopConsumers: (() => Promise<void>)[] = [];

  constructor(private readonly options: WorkerRuntimeOptions) {
    const artifacts: ArtifactStore =
      options.artifacts ?? createArtifactStore(options.config, (m) => options.logger.warn(m));
    this.lifecycle = new JobLifecycle(options);
    this.jobConsumer = new JobConsumer(options, this.lifecycle, artifacts);
    this.stepConsumer = new StepConsumer(options, this.lifecycle, artifacts);
    this.reaper = new LeaseReaper(options, this.lifecycle);
  }

  get runningJobIds(): string[] {
    return this.jobConsumer.runningJobIds;
  }

  async start(): Promise<void> {
    const { broker } = this.options;
    const stepQueues = stepQueuesOf(this.options.steps ?? []);
    for (const queue of this.options.jobQueues)
      this.stopConsumers.push(await broker.consume(queue, (d) => this.jobConsumer.onDelivery(queue, d)));
    for (const queue of stepQueues)
      this.stopConsumers.push(
        await broker.consume(
          queue,
          (d) => this.stepConsumer.onDelivery(d),
          this.stepConsumer.prefetchOf(queue),
        ),
      );
    this.stepConsumer.startWatch();
    if (this.options.runReaper !== false) this.reaper.start();
    this.options.logger.info('worker started', {
      worker: this.options.name,
      job_queues: this.options.jobQueues,
      step_queues: stepQueues,
      operations: this.jobConsumer.operationNames,
      steps: this.stepConsumer.stepNames,
    });
  }

  /**
   * Stops taking messages, signals every running job and step to stop, and waits for their handlers
   * (up to `graceMs`): a job is handed back to its queue once its handler has stopped, a step's
   * message goes back to its queue. A job whose handler outlives the grace period is handed back
   * then, since the process is about to end.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.lifecycle.stopping) return;
    this.lifecycle.stopping = true;
    const reaperStopped = this.reaper.stop();
    await Promise.all(this.stopConsumers.map((stop) => stop()));
    const jobs = this.jobConsumer.stopAll();
    const steps = this.stepConsumer.stopAll();
    await Promise.race([
      Promise.allSettled([...jobs.done, ...steps.done]),
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
    await this.jobConsumer.handBackRemaining();
    await reaperStopped;
    this.options.logger.info('worker stopped', {
      worker: this.options.name,
      handed_back: jobs.pending,
      steps_stopped: steps.pending,
    });
  }

  /** Logs a failure that escaped every handler, without ending the process. */
  logFailure(what: string, reason: unknown): void {
    this.options.logger.error(what, {
      error: reason instanceof Error ? reason.message : String(reason),
      stack: (reason as Error)?.stack,
    });
  }

  /** One reaper pass; exposed for operators' tools and tests. */
  reapOnce(): Promise<void> {
    return this.reaper.reapOnce();
  }
}
