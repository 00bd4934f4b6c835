import { DataSource } from 'typeorm';
import { JobErrorCode } from '@svc/contracts';
import { Db } from '../sql';
import { JobRecord } from './job.record';
import { cancelJob, deleteJob, JobDeletion } from './job-cancellation';
import { markJobFailed, markJobSucceeded } from './job-completion';
import { claimJob, reapExpiredJobs, ReapedJob, renewJobLease, requeueJobForShutdown } from './job-leases';
import {
  markJobDeferred,
  mergeResultIn,
  planJobOnce,
  ProgressTick,
  ResultMerge,
  setJobProgress,
  StepCommit,
  tickJobProgress,
  tickJobProgressOnce,
} from './job-progress';
import {
  findActiveJobByDedupKey,
  findJobById,
  findLastSucceededAt,
  findQueuedJobs,
  findRunningJobsAmong,
  getJobById,
  getJobStatus,
  JobListFilter,
  listJobs,
} from './job-queries';
import { createQueuedJob, deleteUndispatchedJob, markJobDispatched, NewJob } from './job-submission';

export type { JobDeletion } from './job-cancellation';
export { failIn } from './job-completion';
export type { ReapedJob } from './job-leases';
export { mergeResultIn } from './job-progress';
export type { ProgressTick, ResultMerge, StepCommit } from './job-progress';
export type { JobListFilter } from './job-queries';
export { insertQueuedJob, SYSTEM_SUBMITTER } from './job-submission';
export type { JobSubmitter, NewJob } from './job-submission';

/**
 * Every state change of a job is one conditional statement, so concurrent workers cannot race.
 * The statements live by concern in `job-submission`, `job-queries`, `job-leases`, `job-progress`,
 * `job-completion` and `job-cancellation`; this class is their one injectable face.
 */
export class JobRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts the QUEUED row and its `job.created` event in one transaction. */
  createQueued(job: NewJob): Promise<JobRecord> {
    return createQueuedJob(this.db, job);
  }

  /** When a job of one of these operations last SUCCEEDED (epoch ms), or null: for cached reads. */
  lastSucceededAt(operations: readonly string[]): Promise<number | null> {
    return findLastSucceededAt(this.db, operations);
  }

  /**
   * Merges `fields` into a job's result while it runs: a coordinator that hands its work to steps names
   * what it made before its last step closes the job. `counts` are added to the stored numbers, so the
   * steps can total what they wrote inside their own transactions (`db`).
   */
  mergeResult(id: string, input: ResultMerge, db: Db = this.db): Promise<void> {
    return mergeResultIn(db, id, input);
  }

  /** The publish was confirmed by the broker: the row no longer needs a dispatch deadline. */
  markDispatched(id: string): Promise<void> {
    return markJobDispatched(this.db, id);
  }

  /** Compensation when a freshly created job could not be published: nothing is left behind. */
  deleteUndispatched(id: string): Promise<boolean> {
    return deleteUndispatchedJob(this.db, id);
  }

  findById(id: string, db: Db = this.db): Promise<JobRecord | null> {
    return findJobById(db, id);
  }

  getById(id: string): Promise<JobRecord> {
    return getJobById(this.db, id);
  }

  findActiveByDedupKey(dedupKey: string): Promise<JobRecord | null> {
    return findActiveJobByDedupKey(this.db, dedupKey);
  }

  list(filter: JobListFilter): Promise<JobRecord[]> {
    return listJobs(this.db, filter);
  }

  /** QUEUED -> RUNNING, once: a second delivery of the same job finds no QUEUED row and gets null. */
  claim(id: string, leaseSeconds: number): Promise<JobRecord | null> {
    return claimJob(this.db, id, leaseSeconds);
  }

  /** Extends the lease of a running job; false when the job is no longer RUNNING (cancelled, reaped). */
  renewLease(id: string, leaseSeconds: number): Promise<boolean> {
    return renewJobLease(this.db, id, leaseSeconds);
  }

  /** Every QUEUED job, oldest first (the standalone process publishes them again at start). */
  queuedJobs(): Promise<{ id: string; queue_name: string }[]> {
    return findQueuedJobs(this.db);
  }

  /** Which of these jobs are RUNNING now (one query for every step a worker is running). */
  runningAmong(ids: readonly string[]): Promise<Set<string>> {
    return findRunningJobsAmong(this.db, ids);
  }

  getStatus(id: string): Promise<string | null> {
    return getJobStatus(this.db, id);
  }

  /**
   * RUNNING -> SUCCEEDED with its `job.succeeded` event in one transaction, so no crash can leave a
   * finished job without its event; `onClose` runs in the same transaction (follow-up jobs).
   */
  markSucceeded(
    id: string,
    result: Record<string, unknown> | null,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<boolean> {
    return markJobSucceeded(this.db, id, result, onClose);
  }

  /** QUEUED or RUNNING -> FAILED with its `job.failed` event in one transaction. */
  markFailed(id: string, errorCode: JobErrorCode, errorMessage: string): Promise<boolean> {
    return markJobFailed(this.db, id, errorCode, errorMessage);
  }

  /**
   * A coordinator handed its work to batch steps: the job stays RUNNING without a lease until the
   * steps have ticked `progress_current` up to `progress_total`. Steps may outrun their coordinator
   * (or there may be none): when the total is already reached, the job closes here instead. The
   * `job.deferred` event (and `job.succeeded` when it closed) is written in the same transaction.
   * Null when the job is no longer RUNNING.
   */
  markDeferred(
    id: string,
    progressTotal: number | null,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<ProgressTick | null> {
    return markJobDeferred(this.db, id, progressTotal, onClose);
  }

  /** Sets a running job's progress; a job that has ended keeps the progress it ended with. */
  setProgress(id: string, current: number | null, total: number | null): Promise<void> {
    return setJobProgress(this.db, id, current, total);
  }

  /** Adds to the progress; the tick that reaches the total closes the job (its event and `onClose` in the same transaction). */
  tickProgress(
    id: string,
    amount: number,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<ProgressTick | null> {
    return tickJobProgress(this.db, id, amount, onClose);
  }

  /**
   * The plan stored by an earlier run of the job, or `make()`'s, stored now. A coordinator that runs
   * again (handed back, or requeued by the reaper) gets its first plan back and sends the same batches.
   */
  planOnce<T>(id: string, make: () => Promise<T>): Promise<{ plan: T; resumed: boolean }> {
    return planJobOnce(this.db, id, make);
  }

  /**
   * A write step's rows and its tick in one transaction, at most once per `stepKey` of the job: a
   * redelivered step (its acknowledgement lost to a crash or a broker reconnect) finds the key taken
   * and neither writes nor ticks again (`duplicate`). When the job is no longer RUNNING nothing is
   * committed and `tick` is null.
   */
  tickProgressOnce(
    id: string,
    stepKey: string,
    amount: number,
    write: (tx: Db) => Promise<void>,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<StepCommit> {
    return tickJobProgressOnce(this.db, id, stepKey, amount, write, onClose);
  }

  /** Cancels a QUEUED or RUNNING job and every non-terminal descendant; terminal jobs are returned as they are. */
  cancel(id: string): Promise<JobRecord> {
    return cancelJob(this.db, id);
  }

  /** Removes a job with its events, comments and child jobs; a RUNNING job cannot be deleted. */
  delete(id: string): Promise<JobDeletion> {
    return deleteJob(this.db, id);
  }

  /**
   * Graceful shutdown: RUNNING -> QUEUED with a dispatch deadline. If the republish that follows fails,
   * the reaper publishes the job again once the deadline has passed.
   */
  requeueForShutdown(id: string, deadlineSeconds: number): Promise<JobRecord | null> {
    return requeueJobForShutdown(this.db, id, deadlineSeconds);
  }

  /**
   * One reaper pass, serialised across every worker by a transaction-scoped advisory lock:
   * RUNNING jobs whose lease expired go back to QUEUED (at most `maxRequeues` times, then FAILED
   * `lease_expired`); QUEUED jobs whose publish was never confirmed are published again.
   * Returns the jobs the caller must publish (and the failed ones, for logging).
   */
  reapExpired(options: { maxRequeues: number; leaseSeconds: number; batch?: number }): Promise<ReapedJob[]> {
    return reapExpiredJobs(this.db, options);
  }
}
