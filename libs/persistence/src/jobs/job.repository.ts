import { DataSource } from 'typeorm';
import { DomainError, JobEntryPoint, JobErrorCode, notFound } from '@svc/contracts';
import { ListScope } from '@svc/domain';
import { expiresAtSql } from '../owned-rows';
import { ownershipCondition } from '../ownership';
import { Db, isoColumn, isUniqueViolation, queryOne, queryRows } from '../sql';
import { JobEventRepository } from './job-event.repository';
import { JobRecord } from './job.record';

const JOB_COLUMNS = [
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

export interface JobListFilter {
  /** The rows the caller may see (ownership rules). */
  scope: ListScope;
  status?: string;
  operation?: string;
  includeChildren: boolean;
  parentJobId?: string;
  limit: number;
  after?: string;
}

export interface JobDeletion {
  id: string;
  deleted: boolean;
  events_deleted: number;
  comments_deleted: number;
  children_deleted: number;
}

interface TickRow {
  progress_current: number;
  progress_total: number | null;
  status: string;
}

/**
 * The completion rule of a deferred job, written once: the update that brings its progress to the
 * total marks it SUCCEEDED and stamps `finished_at`. Both arguments are SQL expressions.
 */
function closeWhenComplete(progress: string, total: string): string {
  const complete = `${total} IS NOT NULL AND ${progress} >= ${total}`;
  return `status = CASE WHEN ${complete} THEN 'SUCCEEDED' ELSE status END,
              finished_at = CASE WHEN ${complete} THEN clock_timestamp() ELSE finished_at END`;
}

export interface ProgressTick {
  progress_current: number;
  progress_total: number | null;
  status: string;
  closed: boolean;
}

export interface StepCommit {
  /** The step's key was already committed: nothing was written or ticked this time. */
  duplicate: boolean;
  tick: ProgressTick | null;
}

export interface ReapedJob {
  id: string;
  queue_name: string;
  outcome: 'requeued' | 'redispatched' | 'failed';
}

/** Rolls a step's transaction back when its job was no longer RUNNING. */
class StepNotCommitted extends Error {}

const DEDUP_INDEX = 'job_dedup_active_uidx';
const REAPER_LOCK_KEY = 'svc.job-reaper';

/** Every state change of a job is one conditional statement, so concurrent workers cannot race. */
export class JobRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts the QUEUED row and its `job.created` event in one transaction. */
  async createQueued(job: NewJob): Promise<JobRecord> {
    try {
      return await this.db.transaction((tx) => insertQueuedJob(tx, job));
    } catch (error) {
      if (isUniqueViolation(error, DEDUP_INDEX) && job.dedupKey !== null) {
        const existing = await this.findActiveByDedupKey(job.dedupKey);
        throw new DomainError(
          'duplicate_job',
          `an identical ${job.operation} job is already ${existing?.status.toLowerCase() ?? 'active'}`,
          { existing_job_id: existing?.id ?? null },
        );
      }
      throw error;
    }
  }

  /** When a job of one of these operations last SUCCEEDED (epoch ms), or null: for cached reads. */
  async lastSucceededAt(operations: readonly string[]): Promise<number | null> {
    const row = await queryOne<{ at: string | null }>(
      this.db,
      `SELECT (EXTRACT(EPOCH FROM max(finished_at)) * 1000)::float8::text AS at FROM job
        WHERE status = 'SUCCEEDED' AND operation = ANY($1::text[])`,
      [[...operations]],
    );
    return row?.at == null ? null : Number(row.at);
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
  async markDispatched(id: string): Promise<void> {
    await queryRows(this.db, `UPDATE job SET leased_until = NULL WHERE id = $1 AND status = 'QUEUED'`, [id]);
  }

  /** Compensation when a freshly created job could not be published: nothing is left behind. */
  async deleteUndispatched(id: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      `DELETE FROM job WHERE id = $1 AND status = 'QUEUED' RETURNING id`,
      [id],
    );
    return rows.length === 1;
  }

  async findById(id: string, db: Db = this.db): Promise<JobRecord | null> {
    return queryOne<JobRecord>(db, `SELECT ${JOB_COLUMNS} FROM job WHERE id = $1`, [id]);
  }

  async getById(id: string): Promise<JobRecord> {
    const job = await this.findById(id);
    if (job === null) throw notFound('Job');
    return job;
  }

  async findActiveByDedupKey(dedupKey: string): Promise<JobRecord | null> {
    return queryOne<JobRecord>(
      this.db,
      `SELECT ${JOB_COLUMNS} FROM job WHERE dedup_key = $1 AND status IN ('QUEUED','RUNNING') LIMIT 1`,
      [dedupKey],
    );
  }

  async list(filter: JobListFilter): Promise<JobRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown): void => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.operation !== undefined) add('operation = ?', filter.operation);
    if (filter.parentJobId !== undefined) add('parent_job_id = ?', filter.parentJobId);
    else if (!filter.includeChildren) where.push('parent_job_id IS NULL');
    if (filter.after !== undefined) add('created_at < ?::timestamptz', filter.after);
    const visible = ownershipCondition(filter.scope, params.length + 1);
    params.push(...visible.params);
    where.push(visible.sql);
    params.push(filter.limit);
    return queryRows<JobRecord>(
      this.db,
      `SELECT ${JOB_COLUMNS} FROM job ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
  }

  /** QUEUED -> RUNNING, once: a second delivery of the same job finds no QUEUED row and gets null. */
  async claim(id: string, leaseSeconds: number): Promise<JobRecord | null> {
    return queryOne<JobRecord>(
      this.db,
      `UPDATE job SET status = 'RUNNING', started_at = clock_timestamp(),
              leased_until = clock_timestamp() + make_interval(secs => $2)
        WHERE id = $1 AND status = 'QUEUED' RETURNING ${JOB_COLUMNS}`,
      [id, leaseSeconds],
    );
  }

  /** Extends the lease of a running job; false when the job is no longer RUNNING (cancelled, reaped). */
  async renewLease(id: string, leaseSeconds: number): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      `UPDATE job SET leased_until = clock_timestamp() + make_interval(secs => $2)
        WHERE id = $1 AND status = 'RUNNING' AND leased_until IS NOT NULL RETURNING id`,
      [id, leaseSeconds],
    );
    return rows.length === 1;
  }

  /** Every QUEUED job, oldest first (the standalone process publishes them again at start). */
  queuedJobs(): Promise<{ id: string; queue_name: string }[]> {
    return queryRows(this.db, `SELECT id, queue_name FROM job WHERE status = 'QUEUED' ORDER BY created_at`);
  }

  /** Which of these jobs are RUNNING now (one query for every step a worker is running). */
  async runningAmong(ids: readonly string[]): Promise<Set<string>> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `SELECT id FROM job WHERE id = ANY($1::uuid[]) AND status = 'RUNNING'`,
      [ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  async getStatus(id: string): Promise<string | null> {
    const row = await queryOne<{ status: string }>(this.db, `SELECT status FROM job WHERE id = $1`, [id]);
    return row?.status ?? null;
  }

  /**
   * RUNNING -> SUCCEEDED with its `job.succeeded` event in one transaction, so no crash can leave a
   * finished job without its event; `onClose` runs in the same transaction (follow-up jobs).
   */
  async markSucceeded(
    id: string,
    result: Record<string, unknown> | null,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await queryRows(
        tx,
        `UPDATE job SET status = 'SUCCEEDED', finished_at = clock_timestamp(), leased_until = NULL, result = $2
          WHERE id = $1 AND status = 'RUNNING' RETURNING id`,
        [id, result === null ? null : JSON.stringify(result)],
      );
      if (rows.length !== 1) return false;
      await new JobEventRepository(tx).append(id, 'job.succeeded', null, {});
      if (onClose !== undefined) await onClose(tx);
      return true;
    });
  }

  /** QUEUED or RUNNING -> FAILED with its `job.failed` event in one transaction. */
  async markFailed(id: string, errorCode: JobErrorCode, errorMessage: string): Promise<boolean> {
    return this.db.transaction((tx) => failIn(tx, id, errorCode, errorMessage));
  }

  /**
   * A coordinator handed its work to batch steps: the job stays RUNNING without a lease until the
   * steps have ticked `progress_current` up to `progress_total`. Steps may outrun their coordinator
   * (or there may be none): when the total is already reached, the job closes here instead. The
   * `job.deferred` event (and `job.succeeded` when it closed) is written in the same transaction.
   * Null when the job is no longer RUNNING.
   */
  async markDeferred(
    id: string,
    progressTotal: number | null,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<ProgressTick | null> {
    return this.db.transaction(async (tx) => {
      const row = await queryOne<TickRow>(
        tx,
        `UPDATE job SET leased_until = NULL, progress_total = COALESCE($2, progress_total),
                progress_current = COALESCE(progress_current, 0),
                ${closeWhenComplete('COALESCE(progress_current, 0)', 'COALESCE($2, progress_total)')}
          WHERE id = $1 AND status = 'RUNNING'
          RETURNING progress_current, progress_total, status`,
        [id, progressTotal],
      );
      if (row === null) return null;
      await new JobEventRepository(tx).append(id, 'job.deferred', null, {
        progress_total: row.progress_total,
      });
      return this.closedIn(tx, id, row, onClose);
    });
  }

  /** Sets a running job's progress; a job that has ended keeps the progress it ended with. */
  async setProgress(id: string, current: number | null, total: number | null): Promise<void> {
    await queryRows(
      this.db,
      `UPDATE job SET progress_current = COALESCE($2, progress_current), progress_total = COALESCE($3, progress_total)
        WHERE id = $1 AND status = 'RUNNING'`,
      [id, current, total],
    );
  }

  /** Adds to the progress; the tick that reaches the total closes the job (its event and `onClose` in the same transaction). */
  async tickProgress(
    id: string,
    amount: number,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<ProgressTick | null> {
    return this.db.transaction(async (tx) => {
      const ticked = await this.tickIn(tx, id, amount);
      return ticked === null ? null : this.closedIn(tx, id, ticked, onClose);
    });
  }

  /**
   * The plan stored by an earlier run of the job, or `make()`'s, stored now. A coordinator that runs
   * again (handed back, or requeued by the reaper) gets its first plan back and sends the same batches.
   */
  async planOnce<T>(id: string, make: () => Promise<T>): Promise<{ plan: T; resumed: boolean }> {
    const stored = await queryOne<{ plan: T }>(this.db, `SELECT plan FROM job_plan WHERE job_id = $1`, [id]);
    if (stored !== null) return { plan: stored.plan, resumed: true };
    const plan = await make();
    const inserted = await queryRows(
      this.db,
      `INSERT INTO job_plan (job_id, plan) VALUES ($1, $2) ON CONFLICT (job_id) DO NOTHING RETURNING job_id`,
      [id, JSON.stringify(plan)],
    );
    if (inserted.length === 1) return { plan, resumed: false };
    const winner = await queryOne<{ plan: T }>(this.db, `SELECT plan FROM job_plan WHERE job_id = $1`, [id]);
    return { plan: winner?.plan ?? plan, resumed: true };
  }

  /**
   * A write step's rows and its tick in one transaction, at most once per `stepKey` of the job: a
   * redelivered step (its acknowledgement lost to a crash or a broker reconnect) finds the key taken
   * and neither writes nor ticks again (`duplicate`). When the job is no longer RUNNING nothing is
   * committed and `tick` is null.
   */
  async tickProgressOnce(
    id: string,
    stepKey: string,
    amount: number,
    write: (tx: Db) => Promise<void>,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<StepCommit> {
    let outcome: ProgressTick | 'duplicate';
    try {
      outcome = await this.db.transaction(async (tx) => {
        const claimed = await queryRows(
          tx,
          `INSERT INTO job_step_commit (job_id, step_key) VALUES ($1, $2)
           ON CONFLICT (job_id, step_key) DO NOTHING RETURNING step_key`,
          [id, stepKey],
        );
        if (claimed.length === 0) return 'duplicate' as const;
        await write(tx);
        const ticked = await this.tickIn(tx, id, amount);
        // Not RUNNING (cancelled, or handed back and waiting for its re-run, which sends this batch
        // again): nothing of this step may stay committed, or the re-run's copy would be skipped.
        if (ticked === null) throw new StepNotCommitted();
        return this.closedIn(tx, id, ticked, onClose);
      });
    } catch (error) {
      if (error instanceof StepNotCommitted) return { duplicate: false, tick: null };
      throw error;
    }
    if (outcome === 'duplicate') return { duplicate: true, tick: null };
    return { duplicate: false, tick: outcome };
  }

  /** Inside the closing transaction: the `job.succeeded` event and `onClose` of a tick that completed the job. */
  private async closedIn(
    tx: Db,
    id: string,
    row: TickRow,
    onClose?: (tx: Db) => Promise<void>,
  ): Promise<ProgressTick> {
    const closed = row.status === 'SUCCEEDED';
    if (closed) {
      await new JobEventRepository(tx).append(id, 'job.succeeded', null, {
        progress_current: row.progress_current,
      });
      if (onClose !== undefined) await onClose(tx);
    }
    return { ...row, closed };
  }

  private tickIn(db: Db, id: string, amount: number): Promise<TickRow | null> {
    return queryOne<TickRow>(
      db,
      `UPDATE job
          SET progress_current = COALESCE(progress_current, 0) + $2,
              ${closeWhenComplete('COALESCE(progress_current, 0) + $2', 'progress_total')}
        WHERE id = $1 AND status = 'RUNNING'
        RETURNING progress_current, progress_total, status`,
      [id, amount],
    );
  }

  /** Cancels a QUEUED or RUNNING job and every non-terminal descendant; terminal jobs are returned as they are. */
  async cancel(id: string): Promise<JobRecord> {
    return this.db.transaction(async (tx) => {
      const job = await queryOne<JobRecord>(tx, `SELECT ${JOB_COLUMNS} FROM job WHERE id = $1 FOR UPDATE`, [
        id,
      ]);
      if (job === null) throw notFound('Job');
      if (job.status !== 'QUEUED' && job.status !== 'RUNNING') return job;
      const cancelled = await queryRows<{ id: string }>(
        tx,
        `WITH RECURSIVE tree AS (
           SELECT id FROM job WHERE id = $1
           UNION ALL SELECT c.id FROM job c JOIN tree t ON c.parent_job_id = t.id)
         UPDATE job SET status = 'CANCELLED', finished_at = clock_timestamp(), leased_until = NULL
          WHERE id IN (SELECT id FROM tree) AND status IN ('QUEUED','RUNNING') RETURNING id`,
        [id],
      );
      const events = new JobEventRepository(tx);
      for (const row of cancelled) {
        await events.append(row.id, 'job.cancelled', null, {
          requested_on: id,
          previous_status: row.id === id ? job.status : undefined,
        });
      }
      const updated = await this.findById(id, tx);
      if (updated === null) throw notFound('Job');
      return updated;
    });
  }

  /** Removes a job with its events, comments and child jobs; a RUNNING job cannot be deleted. */
  async delete(id: string): Promise<JobDeletion> {
    return this.db.transaction(async (tx) => {
      const job = await queryOne<{ status: string }>(tx, `SELECT status FROM job WHERE id = $1 FOR UPDATE`, [
        id,
      ]);
      if (job === null) throw notFound('Job');
      if (job.status === 'RUNNING')
        throw new DomainError('conflict', 'a RUNNING job cannot be deleted; cancel it first');
      const counts = await queryOne<{ events: string; comments: string; children: string }>(
        tx,
        `WITH RECURSIVE tree AS (
           SELECT id FROM job WHERE id = $1
           UNION ALL SELECT c.id FROM job c JOIN tree t ON c.parent_job_id = t.id)
         SELECT (SELECT count(*) FROM job_event WHERE job_id IN (SELECT id FROM tree)) AS events,
                (SELECT count(*) FROM job_comment WHERE job_id IN (SELECT id FROM tree)) AS comments,
                (SELECT count(*) - 1 FROM tree) AS children`,
        [id],
      );
      await queryRows(tx, `DELETE FROM job WHERE id = $1`, [id]);
      return {
        id,
        deleted: true,
        events_deleted: Number(counts?.events ?? 0),
        comments_deleted: Number(counts?.comments ?? 0),
        children_deleted: Number(counts?.children ?? 0),
      };
    });
  }

  /**
   * Graceful shutdown: RUNNING -> QUEUED with a dispatch deadline. If the republish that follows fails,
   * the reaper publishes the job again once the deadline has passed.
   */
  async requeueForShutdown(id: string, deadlineSeconds: number): Promise<JobRecord | null> {
    return queryOne<JobRecord>(
      this.db,
      `UPDATE job SET status = 'QUEUED', started_at = NULL,
              leased_until = clock_timestamp() + make_interval(secs => $2)
        WHERE id = $1 AND status = 'RUNNING' RETURNING ${JOB_COLUMNS}`,
      [id, deadlineSeconds],
    );
  }

  /**
   * One reaper pass, serialised across every worker by a transaction-scoped advisory lock:
   * RUNNING jobs whose lease expired go back to QUEUED (at most `maxRequeues` times, then FAILED
   * `lease_expired`); QUEUED jobs whose publish was never confirmed are published again.
   * Returns the jobs the caller must publish (and the failed ones, for logging).
   */
  async reapExpired(options: {
    maxRequeues: number;
    leaseSeconds: number;
    batch?: number;
  }): Promise<ReapedJob[]> {
    return this.db.transaction(async (tx) => {
      const lock = await queryOne<{ locked: boolean }>(
        tx,
        `SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`,
        [REAPER_LOCK_KEY],
      );
      if (lock?.locked !== true) return [];
      const expired = await queryRows<{
        id: string;
        status: string;
        requeue_count: number;
        queue_name: string;
      }>(
        tx,
        `SELECT id, status, requeue_count, queue_name FROM job
          WHERE leased_until < clock_timestamp() AND status IN ('QUEUED','RUNNING')
          ORDER BY leased_until LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [options.batch ?? 500],
      );
      const events = new JobEventRepository(tx);
      const out: ReapedJob[] = [];
      for (const job of expired) {
        if (job.status === 'QUEUED') {
          await queryRows(
            tx,
            `UPDATE job SET leased_until = clock_timestamp() + make_interval(secs => $2) WHERE id = $1`,
            [job.id, options.leaseSeconds],
          );
          await events.append(
            job.id,
            'job.redispatched',
            'publish was not confirmed; publishing again',
            {},
            'warning',
          );
          out.push({ id: job.id, queue_name: job.queue_name, outcome: 'redispatched' });
        } else if (job.requeue_count < options.maxRequeues) {
          await queryRows(
            tx,
            `UPDATE job SET status = 'QUEUED', started_at = NULL, requeue_count = requeue_count + 1,
                    leased_until = clock_timestamp() + make_interval(secs => $2) WHERE id = $1`,
            [job.id, options.leaseSeconds],
          );
          await events.append(
            job.id,
            'job.requeued',
            'lease expired; job put back on its queue',
            {
              requeue_count: job.requeue_count + 1,
            },
            'warning',
          );
          out.push({ id: job.id, queue_name: job.queue_name, outcome: 'requeued' });
        } else {
          await queryRows(
            tx,
            `UPDATE job SET status = 'FAILED', finished_at = clock_timestamp(), leased_until = NULL,
                    error_code = 'lease_expired', error_message = $2 WHERE id = $1`,
            [
              job.id,
              `lease expired after ${job.requeue_count} requeues; the worker running it stopped responding`,
            ],
          );
          await events.append(
            job.id,
            'job.lease_expired',
            null,
            { requeue_count: job.requeue_count },
            'error',
          );
          out.push({ id: job.id, queue_name: job.queue_name, outcome: 'failed' });
        }
      }
      return out;
    });
  }
}

/** Fields set in a job's result, and counters added to it. */
export interface ResultMerge {
  fields?: Record<string, unknown>;
  counts?: Record<string, number>;
}

/** Sets `fields` in the job's result and adds `counts` to its counters, in one statement. */
export async function mergeResultIn(db: Db, id: string, input: ResultMerge): Promise<void> {
  const counts = Object.entries(input.counts ?? {});
  await queryRows(
    db,
    `UPDATE job SET result = COALESCE(result, '{}'::jsonb) || $2::jsonb || COALESCE(
       (SELECT jsonb_object_agg(c.key, COALESCE((result ->> c.key)::numeric, 0) + c.value::numeric)
          FROM jsonb_each_text($3::jsonb) c), '{}'::jsonb)
      WHERE id = $1`,
    [id, JSON.stringify(input.fields ?? {}), JSON.stringify(Object.fromEntries(counts))],
  );
}

/** Ends a QUEUED or RUNNING job FAILED with its `job.failed` event, inside the caller's transaction. */
export async function failIn(
  tx: Db,
  id: string,
  errorCode: JobErrorCode,
  errorMessage: string,
): Promise<boolean> {
  const rows = await queryRows(
    tx,
    `UPDATE job SET status = 'FAILED', finished_at = clock_timestamp(), leased_until = NULL,
            error_code = $2, error_message = $3
      WHERE id = $1 AND status IN ('QUEUED','RUNNING') RETURNING id`,
    [id, errorCode, errorMessage],
  );
  if (rows.length !== 1) return false;
  await new JobEventRepository(tx).append(id, 'job.failed', errorMessage, { error_code: errorCode }, 'error');
  return true;
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
