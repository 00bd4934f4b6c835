import { OwnedRow } from '@svc/domain';
import { Db, queryOne } from './sql';

/** The tables whose rows have an owner and a visibility (migration AddOwnership1764900000000). */
export type OwnedTable =
  'job' | 'query_set' | 'prediction_set' | 'evaluation_result' | 'dataset' | 'experiment_run';

/** The owner and visibility of one row, or null when there is no such row. */
export function findOwnership(db: Db, table: OwnedTable, id: string): Promise<OwnedRow | null> {
  return queryOne<OwnedRow>(db, `SELECT owner_user_id, visibility FROM ${table} WHERE id = $1`, [id]);
}

/** The `expires_at` of a new row: parameter `$n` days from now, or null (kept) when the parameter is null. */
export function expiresAtSql(param: number): string {
  return `CASE WHEN $${param}::float8 IS NULL THEN NULL ELSE clock_timestamp() + $${param}::float8 * interval '1 day' END`;
}
