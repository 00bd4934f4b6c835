import { DataSource } from 'typeorm';
import { DomainError, JobEntryPoint } from '@svc/contracts';
import { expiresAtSql } from '../owned-rows';
import { Db, isUniqueViolation, queryOne, queryRows } from '../sql';
import { JobEventRepository } from './job-event.repository';
import { JobRecord } from './job.record';
import { findActiveJobByDedupKey } from './job-queries';
import { JOB_COLUMNS } from './job-sql';

export interface NewJob {
  operation: string;
  queueName: string;
  payload: Record<string, unknown>;
  meta: Record<string, unknown>;
  description: string | null;
  tags: string[];
  dedupKey: string | null;
  parentJobId?: string | null;
  /** Who the job works for; checked again for everything it queues on their behalf. Default: the system. */
  submitter?: JobSubmitter;
  /** Until the publish is confirmed the row carries a deadline; past it the reaper publishes again. */
  dispatchDeadlineSeconds: number;
}

/**
 * The caller a job works for: its account (null for guests and the system), the role and entry point
 * it was submitted with (`annotate` lowers the floor of the one-click chain), the key its daily quota
 * is charged to, and the visibility of what it produces.
 */
export interface JobSubmitter {
  ownerUserId: string | null;
  role: string | null;
  via: JobEntryPoint;
  quotaKey: string | null;
  visibility: 'owner' | 'unlisted' | 'public';
  /** Unlisted results expire after the guest retention period; null keeps them. */
  expiresInDays: number | null;
}

/** A job made by the service itself (maintenance, retention): staff-only, no quota. */
export const SYSTEM_SUBMITTER: JobSubmitter = {
  ownerUserId: null,
  role: null,
  via: 'system',
  quotaKey: null,
  visibility: 'owner',
  expiresInDays: null,
};

const DEDUP_INDEX = 'job_dedup_active_uidx';

/** An active job with the same dedup key turns the unique violation into `duplicate_job`, naming it. */
export async function createQueuedJob(db: DataSource, job: NewJob): Promise<JobRecord> {
  try {
    return await db.transaction((tx) => insertQueuedJob(tx, job));
  } catch (error) {
    if (isUniqueViolation(error, DEDUP_INDEX) && job.dedupKey !== null) {
      const existing = await findActiveJobByDedupKey(db, job.dedupKey);
      throw new DomainError(
        'duplicate_job',
        `an identical ${job.operation} job is already ${existing?.status.toLowerCase() ?? 'active'}`,
        { existing_job_id: existing?.id ?? null },
      );
    }
    throw error;
  }
}

/** The QUEUED row and its `job.created` event, inside the caller's transaction. */
export async function insertQueuedJob(tx: Db, job: NewJob): Promise<JobRecord> {
  const who = job.submitter ?? SYSTEM_SUBMITTER;
  const row = await queryOne<JobRecord>(
    tx,
    `INSERT INTO job (operation, queue_name, status, payload, meta, description, tags, dedup_key, parent_job_id,
                      leased_until, owner_user_id, visibility, expires_at, submitted_role, submitted_via, quota_key)
     VALUES ($1, $2, 'QUEUED', $3, $4, $5, $6, $7, $8, clock_timestamp() + make_interval(secs => $9),
             $10, $11, ${expiresAtSql(12)},
             $13, $14, $15)
     RETURNING ${JOB_COLUMNS}`,
    [
      job.operation,
      job.queueName,
      JSON.stringify(job.payload),
      JSON.stringify(job.meta),
      job.description,
      job.tags,
      job.dedupKey,
      job.parentJobId ?? null,
      job.dispatchDeadlineSeconds,
      who.ownerUserId,
      who.visibility,
      who.expiresInDays,
      who.role,
      who.via,
      who.quotaKey,
    ],
  );
  if (row === null) throw new Error('insert returned no row');
  await new JobEventRepository(tx).append(row.id, 'job.created', null, {
    operation: job.operation,
    queue_name: job.queueName,
  });
  return row;
}

export async function markJobDispatched(db: Db, id: string): Promise<void> {
  await queryRows(db, `UPDATE job SET leased_until = NULL WHERE id = $1 AND status = 'QUEUED'`, [id]);
}

export async function deleteUndispatchedJob(db: Db, id: string): Promise<boolean> {
  const rows = await queryRows(db, `DELETE FROM job WHERE id = $1 AND status = 'QUEUED' RETURNING id`, [id]);
  return rows.length === 1;
}
