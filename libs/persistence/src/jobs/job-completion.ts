import { DataSource } from 'typeorm';
import { JobErrorCode } from '@svc/contracts';
import { Db, queryRows } from '../sql';
import { JobEventRepository } from './job-event.repository';

export function markJobSucceeded(
  db: DataSource,
  id: string,
  result: Record<string, unknown> | null,
  onClose?: (tx: Db) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
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

export function markJobFailed(
  db: DataSource,
  id: string,
  errorCode: JobErrorCode,
  errorMessage: string,
): Promise<boolean> {
  return db.transaction((tx) => failIn(tx, id, errorCode, errorMessage));
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
