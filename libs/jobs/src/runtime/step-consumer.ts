import { parseOperationMessage } from '@svc/contracts';
import { ArtifactStore, Delivery, DeliveryOutcome, isInfrastructureUnavailable } from '@svc/platform';
import { errorMessageOf, JobAbortedError, jobFailureOf } from './job-error';
import { JobLifecycle } from './job-lifecycle';
import { StepOperation } from './operation';
import { stepContext } from './step-context';
import { WorkerRuntimeOptions } from './runtime-options';
import { validatePayload } from './validate-payload';

/** A step message being handled by this process. */
interface RunningStep {
  parentId: string;
  controller: AbortController;
  /** Settles when its handler has returned. */
  done: Promise<void>;
}

/**
 * Consumes step messages of deferred jobs. A running step's signal fires when its parent stops
 * RUNNING (looked up every heartbeat) and on shutdown; a step stopped by shutdown goes back to its
 * queue, one stopped by a cancel is skipped.
 */
export class StepConsumer {
  private readonly steps = new Map<string, StepOperation>();
  private readonly running = new Set<RunningStep>();
  private watchTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: WorkerRuntimeOptions,
    private readonly lifecycle: JobLifecycle,
    private readonly artifacts: ArtifactStore,
  ) {
    for (const step of options.steps ?? []) this.steps.set(step.name, step);
  }

  get stepNames(): string[] {
    return [...this.steps.keys()];
  }

  /** Messages of `queue` this process takes at once: the largest concurrency of its steps. */
  prefetchOf(queue: string): number {
    return Math.max(
      1,
      ...[...this.steps.values()].filter((s) => s.queue === queue).map((s) => s.concurrency ?? 1),
    );
  }

  startWatch(): void {
    this.watchTimer = setInterval(() => {
      void this.abortStepsOfStoppedParents();
    }, this.options.timing.heartbeatSeconds * 1000);
    this.watchTimer.unref();
  }

  /** Signals every running step to stop; the promises settle when their handlers have returned. */
  stopAll(): { pending: number; done: Promise<void>[] } {
    if (this.watchTimer !== undefined) clearInterval(this.watchTimer);
    const steps = [...this.running];
    for (const step of steps) step.controller.abort(new JobAbortedError('shutdown'));
    return { pending: steps.length, done: steps.map((step) => step.done) };
  }

  async onDelivery(delivery: Delivery): Promise<DeliveryOutcome> {
    try {
      return await this.handle(delivery);
    } catch (error) {
      return this.lifecycle.retryLater('step delivery', error);
    }
  }

  /** Fires the signal of every running step whose parent job is no longer RUNNING (cancelled, failed, deleted). */
  private async abortStepsOfStoppedParents(): Promise<void> {
    if (this.running.size === 0) return;
    try {
      const parents = [...new Set([...this.running].map((step) => step.parentId))];
      const running = await this.lifecycle.jobs.runningAmong(parents);
      for (const step of this.running)
        if (!running.has(step.parentId)) step.controller.abort(new JobAbortedError('cancelled'));
    } catch (error) {
      // Like a missed heartbeat: the next pass looks again.
      this.options.logger.warn('step watch failed', { error: (error as Error).message });
    }
  }

  private async handle(delivery: Delivery): Promise<DeliveryOutcome> {
    const logger = this.options.logger;
    const message = delivery.malformed ? null : parseOperationMessage(delivery.body);
    if (message === null) {
      logger.warn('malformed operation message dead-lettered');
      return 'reject';
    }
    if (this.lifecycle.stopping) return 'requeue';
    const parentId = message.job_id;
    if (delivery.redelivered)
      logger.info('redelivered step message', { job_id: parentId, operation: message.operation });
    const status = await this.lifecycle.jobs.getStatus(parentId);
    if (status !== 'RUNNING') {
      // Soft cancel: steps of a cancelled (or already finished or deleted) parent are skipped.
      logger.info('step skipped; parent not running', {
        job_id: parentId,
        operation: message.operation,
        status,
      });
      return 'ack';
    }
    const step = this.steps.get(message.operation);
    if (step === undefined) {
      const text = `step '${message.operation}' is not hosted by ${this.options.name}`;
      await this.lifecycle.fail(parentId, 'operation_not_hosted', text);
      return 'reject';
    }
    let settle = (): void => undefined;
    const running: RunningStep = {
      parentId,
      controller: new AbortController(),
      done: new Promise<void>((resolve) => (settle = resolve)),
    };
    this.running.add(running);
    try {
      return await this.run(step, message.payload, running, delivery.traceparent);
    } finally {
      this.running.delete(running);
      settle();
    }
  }

  private async run(
    step: StepOperation,
    rawPayload: unknown,
    { parentId, controller }: RunningStep,
    traceparent: string | null,
  ): Promise<DeliveryOutcome> {
    const logger = this.options.logger.child('step', { job_id: parentId, operation: step.name });
    try {
      const payload = await validatePayload(step.payload, rawPayload);
      await step.execute(
        stepContext(
          { options: this.options, lifecycle: this.lifecycle, artifacts: this.artifacts },
          { step, parentId, payload, controller, traceparent, logger },
        ),
      );
      return 'ack';
    } catch (error) {
      // Stopped by the parent's cancel: skipped. Stopped by shutdown: back to the queue for another
      // worker (a step's writes commit once per key, so running it again is safe).
      const abort =
        error instanceof JobAbortedError
          ? error
          : controller.signal.aborted
            ? (controller.signal.reason as JobAbortedError)
            : null;
      if (abort !== null) return abort.reason === 'shutdown' ? 'requeue' : 'ack';
      // Steps are safe to run again (their writes commit once per key): retried after the outage.
      if (isInfrastructureUnavailable(error)) throw error;
      const failure = jobFailureOf(error);
      await this.lifecycle.fail(parentId, failure.code, `${step.name}: ${failure.message}`);
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
