import { REFERENCED_TABLES, ReferencedTable } from '@svc/contracts';
import { Db, ReferenceCheckRepository } from '@svc/persistence';
import { JobError } from './job-error';

/**
 * Fails the job when a row its payload names is gone by the time it runs: the same look-up as the
 * gateway's check at dispatch, and the one job error code of the row's table.
 */
export async function requireReference(db: Db, table: ReferencedTable, id: string): Promise<void> {
  if ((await new ReferenceCheckRepository(db).find(table, id)) === null) {
    const { label, jobErrorCode } = REFERENCED_TABLES[table];
    throw new JobError(jobErrorCode, `${label.toLowerCase()} ${id} does not exist`);
  }
}
