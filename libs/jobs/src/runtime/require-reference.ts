import { REFERENCED_TABLES, ReferencedTable } from '@svc/contracts';
import { ReferenceCheckRepository } from '@svc/persistence';
import { JobError } from './job-error';

/**
 * Fails the job when a row its payload names is gone by the time it runs: the same look-up as the
 * gateway's check at dispatch, and the one job error code of the row's table.
 */
export async function requireReference(
  references: Pick<ReferenceCheckRepository, 'find'>,
  table: ReferencedTable,
  id: string,
): Promise<void> {
  if ((await references.find(table, id)) === null) throw missingReference(table, id);
}

/** The failure of a job whose payload names a row that is gone, for callers that read the row anyway. */
export function missingReference(table: ReferencedTable, id: string): JobError {
  const { label, jobErrorCode } = REFERENCED_TABLES[table];
  return new JobError(jobErrorCode, `${label.toLowerCase()} ${id} does not exist`);
}
