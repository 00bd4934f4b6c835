import type { JobErrorCode } from '@svc/contracts';
import { queryOne } from '@svc/persistence';
import { JobError } from './job-error';

/** Checks that a referenced row exists, failing the job with a stable code when it does not. */
export async function requireRow(
  db: Parameters<typeof queryOne>[0],
  table: string,
  id: string,
  code: JobErrorCode,
  label: string,
): Promise<Record<string, unknown>> {
  const row = await queryOne<Record<string, unknown>>(db, `SELECT * FROM ${table} WHERE id = $1`, [id]);
  if (row === null) throw new JobError(code, `${label} ${id} does not exist`);
  return row;
}
