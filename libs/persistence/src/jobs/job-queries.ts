import { notFound } from '@svc/contracts';
import { ListScope } from '@svc/domain';
import { ownershipCondition } from '../ownership';
import { Db, queryOne, queryRows } from '../sql';
import { JobRecord } from './job.record';
import { JOB_COLUMNS } from './job-sql';

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

export function findJobById(db: Db, id: string): Promise<JobRecord | null> {
  return queryOne<JobRecord>(db, `SELECT ${JOB_COLUMNS} FROM job WHERE id = $1`, [id]);
}

export async function getJobById(db: Db, id: string): Promise<JobRecord> {
  const job = await findJobById(db, id);
  if (job === null) throw notFound('Job');
  return job;
}

export function findActiveJobByDedupKey(db: Db, dedupKey: string): Promise<JobRecord | null> {
  return queryOne<JobRecord>(
    db,
    `SELECT ${JOB_COLUMNS} FROM job WHERE dedup_key = $1 AND status IN ('QUEUED','RUNNING') LIMIT 1`,
    [dedupKey],
  );
}

export function listJobs(db: Db, filter: JobListFilter): Promise<JobRecord[]> {
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
    db,
    `SELECT ${JOB_COLUMNS} FROM job ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
}

export async function findLastSucceededAt(db: Db, operations: readonly string[]): Promise<number | null> {
  const row = await queryOne<{ at: string | null }>(
    db,
    `SELECT (EXTRACT(EPOCH FROM max(finished_at)) * 1000)::float8::text AS at FROM job
        WHERE status = 'SUCCEEDED' AND operation = ANY($1::text[])`,
    [[...operations]],
  );
  return row?.at == null ? null : Number(row.at);
}

export function findQueuedJobs(db: Db): Promise<{ id: string; queue_name: string }[]> {
  return queryRows(db, `SELECT id, queue_name FROM job WHERE status = 'QUEUED' ORDER BY created_at`);
}

export async function findRunningJobsAmong(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const rows = await queryRows<{ id: string }>(
    db,
    `SELECT id FROM job WHERE id = ANY($1::uuid[]) AND status = 'RUNNING'`,
    [ids],
  );
  return new Set(rows.map((row) => row.id));
}

export async function getJobStatus(db: Db, id: string): Promise<string | null> {
  const row = await queryOne<{ status: string }>(db, `SELECT status FROM job WHERE id = $1`, [id]);
  return row?.status ?? null;
}
