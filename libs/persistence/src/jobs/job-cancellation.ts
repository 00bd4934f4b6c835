import { DataSource } from 'typeorm';
import { DomainError, notFound } from '@svc/contracts';
import { queryOne, queryRows } from '../sql';
import { JobEventRepository } from './job-event.repository';
import { JobRecord } from './job.record';
import { findJobById } from './job-queries';
import { JOB_COLUMNS } from './job-sql';

export interface JobDeletion {
  id: string;
  deleted: boolean;
  events_deleted: number;
  comments_deleted: number;
  children_deleted: number;
}

export function cancelJob(db: DataSource, id: string): Promise<JobRecord> {
  return db.transaction(async (tx) => {
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
    const updated = await findJobById(tx, id);
    if (updated === null) throw notFound('Job');
    return updated;
  });
}

export function deleteJob(db: DataSource, id: string): Promise<JobDeletion> {
  return db.transaction(async (tx) => {
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
