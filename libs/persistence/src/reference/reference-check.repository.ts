import { ReferencedTable } from '@svc/contracts';
import { OwnedRow } from '@svc/domain';
import { Db, queryOne, queryRows } from '../sql';
import { findOwnership, OwnedTable } from '../owned-rows';

const OWNED: ReadonlySet<ReferencedTable> = new Set(['query_set', 'prediction_set']);

/** Looks up rows that a job's payload names, for the checks made before the job is queued. */
export class ReferenceCheckRepository {
  constructor(private readonly db: Db) {}

  /** The owner and visibility of one owned row, or null when there is no such row. */
  ownership(table: OwnedTable, id: string): Promise<OwnedRow | null> {
    return findOwnership(this.db, table, id);
  }

  /**
   * The row's ownership when it exists (owned tables), `{}` for reference data that exists, null when
   * there is no such row. The table comes from the fixed list of referenced tables, never from input.
   */
  async find(table: ReferencedTable, id: string): Promise<Partial<OwnedRow> | null> {
    const columns = OWNED.has(table) ? 'owner_user_id, visibility' : '1 AS found';
    const row = await queryOne<Partial<OwnedRow> & { found?: number }>(
      this.db,
      `SELECT ${columns} FROM ${table} WHERE id = $1`,
      [id],
    );
    if (row === null) return null;
    const { found: _found, ...ownership } = row;
    return ownership;
  }

  /**
   * The ontology snapshot each annotation set was loaded against, keyed by the ids as given (in any
   * case); a set that does not exist has no entry.
   */
  async snapshotsOfAnnotationSets(ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await queryRows<{ id: string; ontology_snapshot_id: string }>(
      this.db,
      `SELECT id, ontology_snapshot_id FROM annotation_set WHERE id = ANY($1::uuid[])`,
      [[...ids]],
    );
    const byId = new Map(rows.map((r) => [r.id, r.ontology_snapshot_id]));
    return new Map(
      ids.flatMap((id): [string, string][] => {
        const snapshot = byId.get(id.toLowerCase());
        return snapshot === undefined ? [] : [[id, snapshot]];
      }),
    );
  }

  /** The ontology snapshot one annotation set was loaded against, or null when there is no such set. */
  async snapshotOfAnnotationSet(id: string): Promise<string | null> {
    return (await this.snapshotsOfAnnotationSets([id])).get(id) ?? null;
  }
}
