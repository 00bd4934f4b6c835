import { DomainError, PURGE_EXPIRED_RESULTS } from '@svc/contracts';
import { computeDedupKey } from '@svc/domain';
import { BackgroundTask, Infrastructure } from '@svc/bootstrap';
import { SYSTEM_SUBMITTER } from '@svc/persistence';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Queues `purge_expired_results` as a system job once at start and then every hour. Every replica
 * does so; the dedup key lets only one such job be queued or running at a time, so the others'
 * attempts are refused as duplicates and nothing piles up.
 */
export function startRetentionSchedule(infra: Infrastructure, intervalMs = HOUR_MS): BackgroundTask {
  const log = infra.logger.child('ingestion-worker.retention');
  const jobs = infra.repos.jobs;
  let running: Promise<void> = Promise.resolve();
  const queuePurge = async (): Promise<void> => {
    const payload = {};
    try {
      const job = await jobs.createQueued({
        operation: PURGE_EXPIRED_RESULTS.name,
        queueName: PURGE_EXPIRED_RESULTS.queue,
        payload,
        meta: {},
        description: 'scheduled retention purge',
        tags: ['retention'],
        dedupKey: computeDedupKey({ operation: PURGE_EXPIRED_RESULTS.name, payload }),
        submitter: SYSTEM_SUBMITTER,
        dispatchDeadlineSeconds: infra.config.jobs.leaseSeconds,
      });
      // An unconfirmed publish leaves the row with its dispatch deadline: the reaper publishes it again.
      await infra.broker.publishJob(job.queue_name, { job_id: job.id });
      await jobs.markDispatched(job.id);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'duplicate_job') return;
      log.warn('could not queue the retention purge', { error: (error as Error).message });
    }
  };
  const tick = (): void => {
    running = running.then(queuePurge);
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
