import type { JobEventLevel } from '@svc/domain';
import { isoColumn, Db, queryRows } from '../sql';
import { JobEventRecord } from './job.record';

const EVENT_COLUMNS = [
  'id::int AS id',
  'job_id',
  isoColumn('ts'),
  'level',
  'event',
  'message',
  'fields',
].join(', ');

export class JobEventRepository {
  constructor(private readonly db: Db) {}

  async append(
    jobId: string,
    event: string,
    message: string | null,
    fields: Record<string, unknown> = {},
    level: JobEventLevel = 'info',
  ): Promise<void> {
    // A job's events get strictly increasing timestamps: on a host whose clock ticks coarser than a
    // microsecond two events in a row could share one, and `list(…, after)` would skip the second.
    await queryRows(
      this.db,
      `INSERT INTO job_event (job_id, ts, level, event, message, fields)
       VALUES ($1, GREATEST(clock_timestamp(),
                 (SELECT max(ts) + interval '1 microsecond' FROM job_event WHERE job_id = $1)), $2, $3, $4, $5)`,
      [jobId, level, event, message, JSON.stringify(fields)],
    );
  }

  /** Every event of a job whose name starts with `prefix`, oldest first (benchmarks sum their timings). */
  named(jobId: string, prefix: string): Promise<JobEventRecord[]> {
    return queryRows<JobEventRecord>(
      this.db,
      `SELECT ${EVENT_COLUMNS} FROM job_event WHERE job_id = $1 AND starts_with(event, $2) ORDER BY ts, id`,
      [jobId, prefix],
    );
  }

  /** Newest first; `after` keeps only events strictly older than that timestamp. */
  async list(jobId: string, limit: number, after?: string): Promise<JobEventRecord[]> {
    const params: unknown[] = [jobId, limit];
    let where = 'job_id = $1';
    if (after !== undefined) {
      params.push(after);
      where += ' AND ts < $3::timestamptz';
    }
    return queryRows<JobEventRecord>(
      this.db,
      `SELECT ${EVENT_COLUMNS} FROM job_event WHERE ${where} ORDER BY ts DESC, id DESC LIMIT $2`,
      params,
    );
  }
}
