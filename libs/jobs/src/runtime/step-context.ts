import { ArtifactStore, Logger } from '@svc/platform';
import { JobAbortedError } from './job-error';
import { JobLifecycle } from './job-lifecycle';
import { StepContext, StepOperation } from './operation';
import { WorkerRuntimeOptions } from './runtime-options';

/** The process-wide parts a step's context is built from. */
export interface StepRuntime {
  options: WorkerRuntimeOptions;
  lifecycle: JobLifecycle;
  artifacts: ArtifactStore;
}

/** One delivery of a step: what its context is about. */
export interface RunningStepCall {
  step: StepOperation;
  parentId: string;
  payload: object;
  controller: AbortController;
  traceparent: string | null;
  logger: Logger;
}

/**
 * What a step sees: its parent's emit(), a signal that fires on the parent's cancel or on shutdown,
 * dispatch to other step queues, and ticks that close the parent when they reach its total.
 */
export function stepContext(
  { options, lifecycle, artifacts }: StepRuntime,
  { step, parentId, payload, controller, traceparent, logger }: RunningStepCall,
): StepContext<object> {
  const jobs = lifecycle.jobs;
  return {
    parentJobId: parentId,
    payload,
    emit: lifecycle.emitter(parentId),
    signal: controller.signal,
    throwIfCancelled: async () => {
      if (!controller.signal.aborted && (await jobs.getStatus(parentId)) !== 'RUNNING')
        controller.abort(new JobAbortedError('cancelled'));
      if (controller.signal.aborted) throw controller.signal.reason as JobAbortedError;
    },
    dispatch: lifecycle.dispatcher(parentId, traceparent),
    tick: async (amount = 1) => {
      const followUps = lifecycle.followUps();
      await jobs.tickProgress(parentId, amount, followUps.onClose(parentId));
      await followUps.publish();
    },
    tickOnce: async (key, amount, write, onClose) => {
      const followUps = lifecycle.followUps();
      const stepKey = `${step.name}:${key}`;
      const queueFollowUps = followUps.onClose(parentId);
      const commit = await jobs.tickProgressOnce(parentId, stepKey, amount, write, async (tx) => {
        if (onClose !== undefined) await onClose(tx);
        await queueFollowUps(tx);
      });
      if (commit.duplicate) logger.info('step already committed; duplicate delivery ignored', { key });
      await followUps.publish();
      return !commit.duplicate;
    },
    logger,
    repos: lifecycle.repos,
    config: options.config,
    artifacts: artifacts,
  };
}
