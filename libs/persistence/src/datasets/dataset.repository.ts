import { DataSource } from 'typeorm';
import { DomainError, isUuid } from '@svc/contracts';
import { ListScope, Visibility } from '@svc/domain';
import { ownershipCondition } from '../ownership';
import { isoColumn, isUniqueViolation, queryOne, queryRows } from '../sql';

const COLUMNS = [
  'id',
  'name',
  'operation',
  'job_id',
  'embedding_config_id',
  'ontology_snapshot_id',
  'annotation_source',
  'k',
  'key_prefix',
  'storage_backend',
  'train_uri',
  'eval_uri',
  'manifest_uri',
  'manifest_sha',
  'schema_sha',
  'schema_sha_v2',
  'n_train_rows::int AS n_train_rows',
  'n_eval_rows::int AS n_eval_rows',
  'train_snapshot_pairs',
  'eval_snapshot_pair',
  'producer_version',
  'producer_git_sha',
  'meta',
  'owner_user_id',
  'visibility',
  isoColumn('created_at'),
].join(', ');

export interface NewDataset {
  name: string;
  operation: 'export_research_dataset' | 'import_by_reference';
  job_id: string | null;
  embedding_config_id: string | null;
  ontology_snapshot_id: string | null;
  annotation_source: string | null;
  k: number;
  key_prefix: string | null;
  storage_backend: string;
  train_uri: string;
  eval_uri: string | null;
  manifest_uri: string;
  manifest_sha: string;
  schema_sha: string;
  schema_sha_v2: string | null;
  n_train_rows: number;
  n_eval_rows: number;
  train_snapshot_pairs: string[];
  eval_snapshot_pair: string | null;
  producer_version: string | null;
  producer_git_sha: string | null;
  meta: Record<string, unknown>;
  /** Who registered it (the exporting job's owner); datasets are read by their owner and staff. */
  owner_user_id: string | null;
  visibility: Visibility;
}

export type DatasetRecord = NewDataset & { id: string; created_at: string };

/** Registered research datasets: frozen train/eval tables in the artifact store and their manifest. */
export class DatasetRepository {
  constructor(private readonly db: DataSource) {}

  async create(input: NewDataset): Promise<DatasetRecord> {
    const columns = Object.keys(input) as (keyof NewDataset)[];
    const values = columns.map((c) => (c === 'meta' ? JSON.stringify(input.meta) : input[c]));
    try {
      const row = await queryOne<DatasetRecord>(
        this.db,
        `INSERT INTO dataset (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
         RETURNING ${COLUMNS}`,
        values,
      );
      return row!;
    } catch (error) {
      if (isUniqueViolation(error, 'dataset_name_key'))
        throw new DomainError('conflict', `a dataset named '${input.name}' already exists`);
      throw error;
    }
  }

  /**
   * Claims `name` for the export job `jobId` before it uploads anything under the name's key folder.
   * False when a dataset of that name exists or another job that is still QUEUED or RUNNING holds the
   * claim; a claim left by a job that ended without publishing is taken over, and the same job (run
   * again after a hand-back) keeps its own.
   */
  async claimName(name: string, jobId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      if ((await queryOne(tx, `SELECT 1 FROM dataset WHERE name = $1`, [name])) !== null) return false;
      const claimed = await queryRows(
        tx,
        `INSERT INTO dataset_name_claim AS c (name, job_id) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET job_id = EXCLUDED.job_id, claimed_at = now()
          WHERE c.job_id = EXCLUDED.job_id
             OR NOT EXISTS (SELECT 1 FROM job j WHERE j.id = c.job_id AND j.status IN ('QUEUED','RUNNING'))
         RETURNING name`,
        [name, jobId],
      );
      return claimed.length === 1;
    });
  }

  /** Gives up a claim (the export failed, or its dataset row now holds the name). */
  async releaseName(name: string, jobId: string): Promise<void> {
    await queryRows(this.db, `DELETE FROM dataset_name_claim WHERE name = $1 AND job_id = $2`, [name, jobId]);
  }

  async existsByName(name: string): Promise<boolean> {
    return (await queryOne(this.db, `SELECT 1 FROM dataset WHERE name = $1`, [name])) !== null;
  }

  /** Newest first, those the scope may see; `after` keeps only rows strictly older than that `created_at`. */
  list(query: { scope: ListScope; limit: number; after?: string }): Promise<DatasetRecord[]> {
    const visible = ownershipCondition(query.scope, 3);
    return queryRows(
      this.db,
      `SELECT ${COLUMNS} FROM dataset
        WHERE ($1::timestamptz IS NULL OR created_at < $1::timestamptz) AND ${visible.sql}
        ORDER BY created_at DESC LIMIT $2`,
      [query.after ?? null, query.limit, ...visible.params],
    );
  }

  /** By id when the reference is a uuid, else by name. */
  find(idOrName: string): Promise<DatasetRecord | null> {
    return queryOne<DatasetRecord>(
      this.db,
      `SELECT ${COLUMNS} FROM dataset WHERE ${isUuid(idOrName) ? 'id::text = $1 OR ' : ''}name = $1
        ORDER BY (name = $1) LIMIT 1`,
      [idOrName],
    );
  }
}
