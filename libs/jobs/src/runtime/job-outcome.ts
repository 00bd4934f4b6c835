import { DeliveryOutcome } from '@svc/platform';
import { JobExecution } from './job-execution';
import { JobLifecycle } from './job-lifecycle';
import { isDeferred, JobResult } from './operation';

/** Records a finished job's status in the metrics and the log. */
export type Finish = (status: string) => void;

/** The operation returned: the job succeeds, or waits for its steps (closing now if they are all done). */
export async function recordOutcome(
  lifecycle: JobLifecycle,
  jobId: string,
  result: JobResult,
  finish: Finish,
): Promise<DeliveryOutcome> {
  const jobs = lifecycle.jobs;
  const followUps = lifecycle.followUps();
  if (isDeferred(result)) {
    const deferred = await jobs.markDeferred(jobId, result.progressTotal, followUps.onClose(jobId));
    if (deferred === null) {
      // Cancelled, or failed by one of its steps, while the coordinator was still running.
      finish((await jobs.getStatus(jobId)) ?? 'CANCELLED');
      return 'ack';
    }
    // When the steps had already ticked up to the total, the job closed with its deferral.
    if (deferred.closed) await followUps.publish();
    finish(deferred.closed ? 'SUCCEEDED' : 'DEFERRED');
    return 'ack';
  }
  const succeeded = await jobs.markSucceeded(jobId, result ?? null, followUps.onClose(jobId));
  if (succeeded) await followUps.publish();
  finish(succeeded ? 'SUCCEEDED' : 'CANCELLED');
  return 'ack';
}

/** The job was stopped (cancelled, lease lost, shutdown) and its handler has returned. */
export async function abortedOutcome(
  lifecycle: JobLifecycle,
  execution: JobExecution,
  finish: Finish,
): Promise<DeliveryOutcome> {
  const reason = execution.abortReason ?? 'cancelled';
  if (reason === 'cancelled')
    await lifecycle.events.append(execution.jobId, 'job.cancel_observed', 'the worker stopped the job', {});
  // Its handler has stopped: only now does the job go back to its queue for another worker.
  if (reason === 'shutdown') await lifecycle.handBack(execution.jobId);
  finish(reason === 'cancelled' ? 'CANCELLED' : 'HANDED_BACK');
  // A cancelled job's message is rejected (no requeue); a handed-back job was republished.
  return reason === 'cancelled' ? 'reject' : 'ack';
}
