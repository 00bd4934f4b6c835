import { isoColumn, Db, queryOne, queryRows } from '../sql';
import { JobCommentRecord } from './job.record';

const COMMENT_COLUMNS = ['id', 'job_id', 'author', 'body', isoColumn('created_at')].join(', ');

export class JobCommentRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a comment whose author is the username of `authorUserId`, read in the same statement (a
   * username is unique and chosen once, unlike a display name); null without an account.
   */
  async create(jobId: string, body: string, authorUserId: string | null): Promise<JobCommentRecord> {
    const row = await queryOne<JobCommentRecord>(
      this.db,
      `INSERT INTO job_comment (job_id, body, author)
       VALUES ($1, $2, (SELECT username FROM app_user WHERE id = $3::uuid)) RETURNING ${COMMENT_COLUMNS}`,
      [jobId, body, authorUserId],
    );
    if (row === null) throw new Error('insert returned no row');
    return row;
  }

  /** Oldest first; `after` keeps only comments strictly newer than that timestamp. */
  async list(jobId: string, limit: number, after?: string): Promise<JobCommentRecord[]> {
    const params: unknown[] = [jobId, limit];
    let where = 'job_id = $1';
    if (after !== undefined) {
      params.push(after);
      where += ' AND created_at > $3::timestamptz';
    }
    return queryRows<JobCommentRecord>(
      this.db,
      `SELECT ${COMMENT_COLUMNS} FROM job_comment WHERE ${where} ORDER BY created_at, id LIMIT $2`,
      params,
    );
  }
}
