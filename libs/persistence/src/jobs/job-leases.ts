import { DataSource } from 'typeorm';
import { Db, queryOne, queryRows } from '../sql';
import { JobEventRepository } from './job-event.repository';
import { JobRecord } from './job.record';
import { JOB_COLUMNS } from './job-sql';

export interface ReapedJob {
  id: string;
  queue_name: string;
  outcome: 'requeued' | 'redispatched' | 'failed';
}

export interface ReapOptions {
  maxRequeues: number;
  leaseSeconds: number;
  batch?: number;
}

/** One reaper pass: its transaction, its event writer and the options it was called with. */
interface ReapPass extends ReapOptions {
  tx: Db;
  events: JobEventRepository;
}

interface ExpiredJob {
  id: string;
  status: string;
  requeue_count: number;
  queue_name: string;
}

const REAPER_LOCK_KEY = 'svc.job-reaper';

export function claimJob(db: Db, id: string, leaseSeconds: number): Promise<JobRecord | null> {
  return queryOne<JobRecord>(
    db,
    `UPDATE job SET status = 'RUNNING', started_at = clock_timestamp(),
              leased_until = clock_timestamp() + make_interval(secs => $2)
        WHERE id = $1 AND status = 'QUEUED' RETURNING ${JOB_COLUMNS}`,
    [id, leaseSeconds],
  );
}

export async function renewJobLease(db: Db, id: string, leaseSeconds: number): Promise<boolean> {
  const rows = await queryRows(
    db,
    `UPDATE job SET leased_until = clock_timestamp() + make_interval(secs => $2)
        WHERE id = $1 AND status = 'RUNNING' AND leased_until IS NOT NULL RETURNING id`,
    [id, leaseSeconds],
  );
  return rows.length === 1;
}

export function requeueJobForShutdown(
  db: Db,
  id: string,
  deadlineSeconds: number,
): Promise<JobRecord | null> {
  return queryOne<JobRecord>(
    db,
    `UPDATE job SET status = 'QUEUED', started_at = NULL,
              leased_until = clock_timestamp() + make_interval(secs => $2)
        WHERE id = $1 AND status = 'RUNNING' RETURNING ${JOB_COLUMNS}`,
    [id, deadlineSeconds],
  );
}

/** The advisory lock is transaction-scoped, so a pass that dies releases it with its transaction. */
export function reapExpiredJobs(db: DataSource, options: ReapOptions): Promise<ReapedJob[]> {
  return db.transaction(async (tx) => {
    const lock = await queryOne<{ locked: boolean }>(
      tx,
      `SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`,
      [REAPER_LOCK_KEY],
    );
    if (lock?.locked !== true) return [];
    const expired = await queryRows<ExpiredJob>(
      tx,
      `SELECT id, status, requeue_count, queue_name FROM job
          WHERE leased_until < clock_timestamp() AND status IN ('QUEUED','RUNNING')
          ORDER BY leased_until LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [options.batch ?? 500],
    );
    const pass: ReapPass = { ...options, tx, events: new JobEventRepository(tx) };
    const out: ReapedJob[] = [];
    for (const job of expired) {
      out.push(await reapJob(pass, job));
    }
    return out;
  });
}

function reapJob(pass: ReapPass, job: ExpiredJob): Promise<ReapedJob> {
  if (job.status === 'QUEUED') return redispatchJob(pass, job);
  if (job.requeue_count < pass.maxRequeues) return requeueExpiredJob(pass, job);
  return failExpiredJob(pass, job);
}

/** A QUEUED job whose publish was never confirmed: a new deadline, and the caller publishes it again. */
async function redispatchJob({ tx, events, leaseSeconds }: ReapPass, job: ExpiredJob): Promise<ReapedJob> {
  await queryRows(
    tx,
    `UPDATE job SET leased_until = clock_timestamp() + make_interval(secs => $2) WHERE id = $1`,
    [job.id, leaseSeconds],
  );
  await events.append(
    job.id,
    'job.redispatched',
    'publish was not confirmed; publishing again',
    {},
    'warning',
  );
  return { id: job.id, queue_name: job.queue_name, outcome: 'redispatched' };
}

/** A RUNNING job whose lease expired, with requeues left: back to QUEUED, counted. */
async function requeueExpiredJob(
  { tx, events, leaseSeconds }: ReapPass,
  job: ExpiredJob,
): Promise<ReapedJob> {
  await queryRows(
    tx,
    `UPDATE job SET status = 'QUEUED', started_at = NULL, requeue_count = requeue_count + 1,
                    leased_until = clock_timestamp() + make_interval(secs => $2) WHERE id = $1`,
    [job.id, leaseSeconds],
  );
  await events.append(
    job.id,
    'job.requeued',
    'lease expired; job put back on its queue',
    { requeue_count: job.requeue_count + 1 },
    'warning',
  );
  return { id: job.id, queue_name: job.queue_name, outcome: 'requeued' };
}

/** A RUNNING job whose lease expired once too often: FAILED `lease_expired`. */
async function failExpiredJob({ tx, events }: ReapPass, job: ExpiredJob): Promise<ReapedJob> {
  await queryRows(
    tx,
    `UPDATE job SET status = 'FAILED', finished_at = clock_timestamp(), leased_until = NULL,
                    error_code = 'lease_expired', error_message = $2 WHERE id = $1`,
    [job.id, `lease expired after ${job.requeue_count} requeues; the worker running it stopped responding`],
  );
  await events.append(job.id, 'job.lease_expired', null, { requeue_count: job.requeue_count }, 'error');
  return { id: job.id, queue_name: job.queue_name, outcome: 'failed' };
}
