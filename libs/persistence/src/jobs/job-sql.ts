import { isoColumn } from '../sql';

/** The columns of a `JobRecord`, as every statement of the job modules selects or returns them. */
export const JOB_COLUMNS = [
  'id',
  'operation',
  'queue_name',
  'status',
  'payload',
  'meta',
  'result',
  'parent_job_id',
  isoColumn('created_at'),
  isoColumn('started_at'),
  isoColumn('finished_at'),
  'progress_current',
  'progress_total',
  'error_code',
  'error_message',
  'dedup_key',
  isoColumn('leased_until'),
  'requeue_count',
  'description',
  'findings',
  'tags',
  'owner_user_id',
  'visibility',
  isoColumn('expires_at'),
  'submitted_role',
  'submitted_via',
].join(', ');

/**
 * The completion rule of a deferred job, written once: the update that brings its progress to the
 * total marks it SUCCEEDED and stamps `finished_at`. Both arguments are SQL expressions.
 */
export function closeWhenComplete(progress: string, total: string): string {
  const complete = `${total} IS NOT NULL AND ${progress} >= ${total}`;
  return `status = CASE WHEN ${complete} THEN 'SUCCEEDED' ELSE status END,
              finished_at = CASE WHEN ${complete} THEN clock_timestamp() ELSE finished_at END`;
}
