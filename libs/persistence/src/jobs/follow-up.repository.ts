import { JobEntryPoint } from '@svc/contracts';
import { Db, isUniqueViolation, queryOne, queryRows } from '../sql';
import { JobEventRepository } from './job-event.repository';
import { JobRecord } from './job.record';
import { failIn, insertQueuedJob, mergeResultIn, NewJob } from './job.repository';

/** The columns of a job that say who it works for and what it asks to queue next. */
export interface FollowUpSource {
  meta: unknown;
  owner_user_id: string | null;
  visibility: 'owner' | 'unlisted' | 'public';
  expires_in_days: number | null;
  submitted_role: string | null;
  submitted_via: JobEntryPoint;
  quota_key: string | null;
}

/**
 * The rows a job's follow-up (`meta.then`) touches, inside the transaction that closes the job: the
 * job's submitter, an identical active job, the new job, and the id recorded in the job's result.
 */
export class FollowUpRepository {
  constructor(private readonly tx: Db) {}

  source(jobId: string): Promise<FollowUpSource | null> {
    return queryOne<FollowUpSource>(
      this.tx,
      `SELECT meta, owner_user_id, visibility, submitted_role, submitted_via, quota_key,
              (EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) / 86400.0)::float8 AS expires_in_days
         FROM job WHERE id = $1`,
      [jobId],
    );
  }

  /** A QUEUED or RUNNING job with this dedup key, with its owner and visibility. */
  activeByDedupKey(
    dedupKey: string,
  ): Promise<{ id: string; owner_user_id: string | null; visibility: string } | null> {
    return queryOne(
      this.tx,
      `SELECT id, owner_user_id, visibility FROM job WHERE dedup_key = $1 AND status IN ('QUEUED','RUNNING') LIMIT 1`,
      [dedupKey],
    );
  }

  /**
   * Inserts the follow-up; when an identical job became active meanwhile (a concurrent submission
   * took the dedup key), inserts it without the key instead. A savepoint keeps the unique violation
   * from aborting the job's closing transaction.
   */
  async insertWithoutConflict(job: NewJob): Promise<JobRecord> {
    if (job.dedupKey === null) return insertQueuedJob(this.tx, job);
    await queryRows(this.tx, 'SAVEPOINT follow_up_insert');
    try {
      const row = await insertQueuedJob(this.tx, job);
      await queryRows(this.tx, 'RELEASE SAVEPOINT follow_up_insert');
      return row;
    } catch (error) {
      if (!isUniqueViolation(error, 'job_dedup_active_uidx')) throw error;
      await queryRows(this.tx, 'ROLLBACK TO SAVEPOINT follow_up_insert');
      return insertQueuedJob(this.tx, { ...job, dedupKey: null });
    }
  }

  /** Records the follow-up's id under `key` in the job's result, with an event. */
  async record(
    jobId: string,
    key: string,
    followUpId: string,
    operation: string,
    event: string,
  ): Promise<void> {
    await mergeResultIn(this.tx, jobId, { fields: { [key]: followUpId } });
    await new JobEventRepository(this.tx).append(jobId, event, null, { operation, [key]: followUpId });
  }

  /** A follow-up over its submitter's quota is kept as a FAILED job, so the chain shows why it stopped. */
  async failOverQuota(jobId: string, message: string): Promise<void> {
    await failIn(this.tx, jobId, 'quota_exceeded', message);
  }
}
