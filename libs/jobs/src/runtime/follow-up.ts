import { computeDedupKey } from '@svc/domain';
import { JobEventRepository, JobRepository, queryOne, queryRows } from '@svc/persistence';
import { AmqpBroker, Logger } from '@svc/platform';
import { errorMessageOf } from './job-error';
import { DataSource } from 'typeorm';

/**
 * A job's `meta.then`: the job to queue once this one has SUCCEEDED (used by one-click annotation,
 * which chains the prediction after the embeddings). `result_key` names the field of this job's
 * result that records the new job's id.
 */
export interface FollowUp {
  operation: string;
  queue_name: string;
  payload: Record<string, unknown>;
  result_key?: string;
}

function readFollowUp(meta: unknown): FollowUp | null {
  const then = (meta as { then?: unknown } | null)?.then;
  if (typeof then !== 'object' || then === null) return null;
  const f = then as Partial<FollowUp>;
  if (typeof f.operation !== 'string' || typeof f.queue_name !== 'string' || typeof f.payload !== 'object')
    return null;
  return f as FollowUp;
}

/**
 * Queues the follow-up of a job that just SUCCEEDED, exactly as the gateway queues a job (row and
 * `job.created` event committed, then published), and records its id on the finished job. A failure
 * is recorded as a `job.follow_up_failed` event: the finished job stays SUCCEEDED.
 */
export async function startFollowUpJob(input: {
  db: DataSource;
  broker: AmqpBroker;
  jobId: string;
  dispatchDeadlineSeconds: number;
  logger: Logger;
}): Promise<string | null> {
  const row = await queryOne<{ meta: unknown; status: string }>(
    input.db,
    `SELECT meta, status FROM job WHERE id = $1`,
    [input.jobId],
  );
  const followUp = row?.status === 'SUCCEEDED' ? readFollowUp(row.meta) : null;
  if (followUp === null) return null;
  const events = new JobEventRepository(input.db);
  const jobs = new JobRepository(input.db);
  try {
    const next = await jobs.createQueued({
      operation: followUp.operation,
      queueName: followUp.queue_name,
      payload: followUp.payload,
      meta: { follows_job_id: input.jobId },
      description: null,
      tags: [],
      dedupKey: computeDedupKey({ operation: followUp.operation, payload: followUp.payload }),
      dispatchDeadlineSeconds: input.dispatchDeadlineSeconds,
    });
    await input.broker.publishJob(next.queue_name, { job_id: next.id });
    await jobs.markDispatched(next.id);
    const key = followUp.result_key ?? 'follow_up_job_id';
    await queryRows(
      input.db,
      `UPDATE job SET result = COALESCE(result, '{}'::jsonb) || jsonb_build_object($2::text, $3::text) WHERE id = $1`,
      [input.jobId, key, next.id],
    );
    await events.append(input.jobId, 'job.follow_up_queued', null, {
      operation: followUp.operation,
      [key]: next.id,
    });
    return next.id;
  } catch (error) {
    // A row left QUEUED without a confirmed publish keeps its dispatch deadline: the reaper sends it.
    input.logger.warn('follow-up job not queued', { job_id: input.jobId, error: errorMessageOf(error) });
    await events.append(
      input.jobId,
      'job.follow_up_failed',
      errorMessageOf(error),
      { operation: followUp.operation },
      'warning',
    );
    return null;
  }
}
