import {
  Db,
  insertQueuedJob,
  JobEventRepository,
  JobRecord,
  JobRepository,
  queryOne,
  queryRows,
} from '@svc/persistence';
import { MessageBroker, Logger } from '@svc/platform';
import { errorMessageOf } from './job-error';

/**
 * A job's `meta.then`: the job to queue once this one has SUCCEEDED (one-click annotation chains the
 * prediction after the embeddings). `result_key` names the field of this job's result that records
 * the new job's id.
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
 * Runs inside the transaction that marks a job SUCCEEDED: inserts its follow-up (QUEUED, with a
 * dispatch deadline, and its `job.created` event) and records the new id in the finished job's
 * result, so no reader ever sees the job SUCCEEDED without it. Follow-ups carry no dedup key: an
 * identical active job must not make the closing transaction fail.
 */
export async function insertFollowUp(
  tx: Db,
  jobId: string,
  dispatchDeadlineSeconds: number,
): Promise<JobRecord | null> {
  const row = await queryOne<{ meta: unknown }>(tx, `SELECT meta FROM job WHERE id = $1`, [jobId]);
  const followUp = readFollowUp(row?.meta ?? null);
  if (followUp === null) return null;
  const next = await insertQueuedJob(tx, {
    operation: followUp.operation,
    queueName: followUp.queue_name,
    payload: followUp.payload,
    meta: { follows_job_id: jobId },
    description: null,
    tags: [],
    dedupKey: null,
    dispatchDeadlineSeconds,
  });
  const key = followUp.result_key ?? 'follow_up_job_id';
  await queryRows(
    tx,
    `UPDATE job SET result = COALESCE(result, '{}'::jsonb) || jsonb_build_object($2::text, $3::text) WHERE id = $1`,
    [jobId, key, next.id],
  );
  await new JobEventRepository(tx).append(jobId, 'job.follow_up_queued', null, {
    operation: followUp.operation,
    [key]: next.id,
  });
  return next;
}

/**
 * Publishes a committed follow-up. A failed publish is logged: the row keeps its dispatch deadline,
 * so the reaper publishes it later.
 */
export async function publishFollowUp(input: {
  jobs: JobRepository;
  broker: MessageBroker;
  job: JobRecord;
  logger: Logger;
}): Promise<void> {
  try {
    await input.broker.publishJob(input.job.queue_name, { job_id: input.job.id });
    await input.jobs.markDispatched(input.job.id);
  } catch (error) {
    input.logger.warn('follow-up publish failed; the reaper will send it', {
      job_id: input.job.id,
      error: errorMessageOf(error),
    });
  }
}
