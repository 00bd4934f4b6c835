import { DataSource } from 'typeorm';
import { DomainError, notFound } from '@svc/contracts';
import { isoColumn, queryOne, queryRows, takeTurns } from '../sql';

export interface RerankerRecord {
  id: string;
  name: string;
  artifact_uri: string;
  feature_schema_sha: string;
  feature_names: string[];
  objective: string | null;
  spec_yaml: string;
  run: Record<string, unknown>;
  run_id: string | null;
  metrics: Record<string, unknown>;
  feature_importance: Record<string, unknown>;
  dataset_id: string | null;
  external_source: string | null;
  prediction_set_id: string | null;
  evaluation_set_id: string | null;
  import_kind: 'upload' | 'reference';
  created_at: string;
}

export type NewReranker = Omit<RerankerRecord, 'id' | 'created_at'>;

const COLUMNS = `id, name, artifact_uri, feature_schema_sha, feature_names, objective, spec_yaml, run, run_id, metrics,
  feature_importance, dataset_id, external_source, prediction_set_id, evaluation_set_id, import_kind, ${isoColumn('created_at')}`;

/** Registered LightGBM re-rankers: where the booster lives and the feature schema it was trained on. */
export class RerankerRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Inserts a model; with `force` a model of the same name is replaced, else a same name is a 409.
   * Saves of one name take turns (a lock on the name for the transaction), so of simultaneous saves
   * one wins and the rest conflict, or, forced, replace each other in turn.
   */
  async save(model: NewReranker, force: boolean): Promise<RerankerRecord> {
    return this.db.transaction(async (tx) => {
      await takeTurns(tx, `reranker_model:${model.name}`);
      const existing = await queryOne<{ id: string }>(
        tx,
        `SELECT id FROM reranker_model WHERE name = $1 FOR UPDATE`,
        [model.name],
      );
      if (existing !== null) {
        if (!force)
          throw new DomainError(
            'conflict',
            `a re-ranker named '${model.name}' exists; send force=true to replace it`,
          );
        await queryRows(tx, `DELETE FROM reranker_model WHERE id = $1`, [existing.id]);
      }
      const columns = Object.keys(model) as (keyof NewReranker)[];
      const row = await queryOne<RerankerRecord>(
        tx,
        `INSERT INTO reranker_model (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
         RETURNING ${COLUMNS}`,
        columns.map((c) => {
          const v = model[c];
          return typeof v === 'object' && v !== null && !Array.isArray(v) ? JSON.stringify(v) : v;
        }),
      );
      return row!;
    });
  }

  list(): Promise<RerankerRecord[]> {
    return queryRows(this.db, `SELECT ${COLUMNS} FROM reranker_model ORDER BY created_at DESC`);
  }

  find(id: string): Promise<RerankerRecord | null> {
    return queryOne(this.db, `SELECT ${COLUMNS} FROM reranker_model WHERE id = $1`, [id]);
  }

  async get(id: string): Promise<RerankerRecord> {
    const model = await this.find(id);
    if (model === null) throw notFound('Re-ranker');
    return model;
  }

  async delete(id: string): Promise<RerankerRecord> {
    const row = await queryOne<RerankerRecord>(
      this.db,
      `DELETE FROM reranker_model WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    if (row === null) throw notFound('Re-ranker');
    return row;
  }
}
