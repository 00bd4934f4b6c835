import { DataSource } from 'typeorm';
import { notFound } from '@svc/contracts';
import type { CanonicalEmbeddingConfig } from '@svc/domain';
import { bulkInsert } from '../bulk';
import { publicSequenceCondition } from '../ownership';
import { Db, isoColumn, queryOne, queryRows } from '../sql';

export type EmbeddingConfigView = CanonicalEmbeddingConfig & { created_at: string; embedding_count: number };

const CONFIG_COLUMNS = [
  'c.id',
  'c.model_name',
  'c.model_backend',
  'c.layer_indices',
  'c.layer_agg',
  'c.pooling',
  'c.normalize_residues',
  'c.normalize',
  'c.max_length',
  'c.use_chunking',
  'c.chunk_size',
  'c.chunk_overlap',
  'c.embedding_scale',
  'c.description',
  isoColumn('c.created_at', 'created_at'),
].join(', ');

const COUNT = `(SELECT count(DISTINCT e.sequence_id)::int FROM embedding e WHERE e.embedding_config_id = c.id) AS embedding_count`;

export interface StoredVector {
  sequenceId: number;
  chunkIndex: number;
  vector: Float32Array;
}

/** Little-endian float32 bytes (the storage format DESIGN.md fixes). */
export function encodeVector(vector: Float32Array): Buffer {
  const out = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i += 1) out.writeFloatLE(vector[i]!, i * 4);
  return out;
}

export function decodeVector(bytes: Buffer, dimension: number): Float32Array {
  const out = new Float32Array(dimension);
  for (let i = 0; i < dimension; i += 1) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** What deleting an embedding config removed, per table. */
export interface EmbeddingConfigDeletion {
  id: string;
  deleted: boolean;
  embeddings_deleted: number;
  predictions_deleted: number;
  prediction_sets_deleted: number;
}

export class EmbeddingRepository {
  constructor(private readonly db: DataSource) {}

  /** Stores a canonical config; the same recipe (same id) is returned as it is. */
  async saveConfig(
    config: CanonicalEmbeddingConfig,
  ): Promise<{ config: EmbeddingConfigView; created: boolean }> {
    const inserted = await queryRows(
      this.db,
      `INSERT INTO embedding_config (id, model_name, model_backend, layer_indices, layer_agg, pooling, normalize_residues, normalize,
         max_length, use_chunking, chunk_size, chunk_overlap, embedding_scale, description)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        config.id,
        config.model_name,
        config.model_backend,
        config.layer_indices,
        config.layer_agg,
        config.pooling,
        config.normalize_residues,
        config.normalize,
        config.max_length,
        config.use_chunking,
        config.chunk_size,
        config.chunk_overlap,
        config.embedding_scale,
        config.description,
      ],
    );
    return { config: await this.getConfig(config.id), created: inserted.length === 1 };
  }

  findConfig(id: string, db: Db = this.db): Promise<EmbeddingConfigView | null> {
    return queryOne<EmbeddingConfigView>(
      db,
      `SELECT ${CONFIG_COLUMNS}, ${COUNT} FROM embedding_config c WHERE c.id = $1`,
      [id],
    );
  }

  async getConfig(id: string): Promise<EmbeddingConfigView> {
    const config = await this.findConfig(id);
    if (config === null) throw notFound('Embedding config');
    return config;
  }

  /** The config with the most embeddings (the oldest among equals), or null when there is none. */
  async mostEmbeddedConfig(): Promise<string | null> {
    const row = await queryOne<{ id: string }>(
      this.db,
      `SELECT c.id FROM embedding_config c LEFT JOIN embedding e ON e.embedding_config_id = c.id
        GROUP BY c.id, c.created_at ORDER BY count(e.id) DESC, c.created_at LIMIT 1`,
    );
    return row?.id ?? null;
  }

  /**
   * Per config, the distinct public sequences it embedded (`publicSequenceCondition`): the
   * `embedding_count` callers below operator see, which leaves out what only private work holds.
   */
  async publicEmbeddingCounts(configId?: string): Promise<Map<string, number>> {
    const rows = await queryRows<{ id: string; n: number }>(
      this.db,
      `SELECT e.embedding_config_id AS id, count(DISTINCT e.sequence_id)::int AS n FROM embedding e
        WHERE ${publicSequenceCondition('e.sequence_id')} ${configId === undefined ? '' : 'AND e.embedding_config_id = $1'}
        GROUP BY e.embedding_config_id`,
      configId === undefined ? [] : [configId],
    );
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  listConfigs(): Promise<EmbeddingConfigView[]> {
    return queryRows<EmbeddingConfigView>(
      this.db,
      `SELECT ${CONFIG_COLUMNS}, ${COUNT} FROM embedding_config c ORDER BY c.created_at DESC`,
    );
  }

  /** Deletes a config with its embeddings, prediction sets and predictions; counts per table. */
  async deleteConfig(id: string): Promise<EmbeddingConfigDeletion> {
    return this.db.transaction(async (tx) => {
      const config = await this.findConfig(id, tx);
      if (config === null) throw notFound('Embedding config');
      const remove = async (table: string, where: string): Promise<number> => {
        const gone = await queryOne<{ n: number }>(
          tx,
          `WITH gone AS (DELETE FROM ${table} WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
          [id],
        );
        return gone?.n ?? 0;
      };
      // Rows composed at read go with their sets (counted before, as the stored ones are).
      const composed = await queryOne<{ n: number }>(
        tx,
        `SELECT COALESCE(sum(composed_rows), 0)::int AS n FROM prediction_prior_weight
          WHERE prediction_set_id IN (SELECT id FROM prediction_set WHERE embedding_config_id = $1)`,
        [id],
      );
      const predictions =
        (composed?.n ?? 0) +
        (await remove(
          'prediction',
          'prediction_set_id IN (SELECT id FROM prediction_set WHERE embedding_config_id = $1)',
        ));
      const predictionSets = await remove('prediction_set', 'embedding_config_id = $1');
      const embeddings = await remove('embedding', 'embedding_config_id = $1');
      await queryRows(tx, `DELETE FROM embedding_config WHERE id = $1`, [id]);
      return {
        id,
        deleted: true,
        embeddings_deleted: embeddings,
        predictions_deleted: predictions,
        prediction_sets_deleted: predictionSets,
      };
    });
  }

  /** Distinct sequences of a query set (or of every protein), without those already embedded when asked. */
  async sequencesToEmbed(input: {
    configId: string;
    querySetId: string | null;
    skipExisting: boolean;
  }): Promise<number[]> {
    // Only the parameters the statement uses: PostgreSQL cannot type one it never sees.
    const params: unknown[] = [input.querySetId];
    const source =
      input.querySetId !== null
        ? `SELECT DISTINCT sequence_id FROM query_set_entry WHERE query_set_id = $1`
        : `SELECT DISTINCT sequence_id FROM protein WHERE sequence_id IS NOT NULL AND ($1::uuid IS NULL)`;
    let skip = '';
    if (input.skipExisting) {
      params.push(input.configId);
      skip = `AND NOT EXISTS (SELECT 1 FROM embedding e WHERE e.embedding_config_id = $2 AND e.sequence_id = s.sequence_id)`;
    }
    const rows = await queryRows<{ sequence_id: number }>(
      this.db,
      `SELECT s.sequence_id FROM (${source}) s WHERE TRUE ${skip} ORDER BY s.sequence_id`,
      params,
    );
    return rows.map((r) => r.sequence_id);
  }

  async sequences(ids: number[]): Promise<{ id: number; sequence: string }[]> {
    return queryRows(this.db, `SELECT id, sequence FROM sequence WHERE id = ANY($1::int[]) ORDER BY id`, [
      ids,
    ]);
  }

  /**
   * Writes vectors; a (config, sequence, chunk) already present is kept, so each sequence is embedded
   * once. `tx`: the caller's transaction (a write step commits its vectors with its progress tick).
   */
  async writeVectors(configId: string, vectors: StoredVector[], tx: Db = this.db): Promise<number> {
    if (vectors.length === 0) return 0;
    const rows = await bulkInsert<{ id: string }>(tx, {
      table: 'embedding',
      columns: [
        { name: 'embedding_config_id', type: 'uuid' },
        { name: 'sequence_id', type: 'int' },
        { name: 'chunk_index', type: 'int' },
        { name: 'dimension', type: 'int' },
        { name: 'vector', type: 'bytea' },
      ],
      rows: vectors.map((v) => [
        configId,
        v.sequenceId,
        v.chunkIndex,
        v.vector.length,
        encodeVector(v.vector),
      ]),
      onConflict: 'ON CONFLICT (embedding_config_id, sequence_id, chunk_index) DO NOTHING',
      returning: 'id',
      chunkSize: 500,
    });
    return rows.length;
  }

  /** Every stored vector of a config for the given sequences (all chunks). */
  async loadVectors(configId: string, sequenceIds?: number[]): Promise<StoredVector[]> {
    const rows = await queryRows<{
      sequence_id: number;
      chunk_index: number;
      dimension: number;
      vector: Buffer;
    }>(
      this.db,
      `SELECT sequence_id, chunk_index, dimension, vector FROM embedding WHERE embedding_config_id = $1
         ${sequenceIds !== undefined ? 'AND sequence_id = ANY($2::int[])' : ''} ORDER BY sequence_id, chunk_index`,
      sequenceIds !== undefined ? [configId, sequenceIds] : [configId],
    );
    return rows.map((r) => ({
      sequenceId: r.sequence_id,
      chunkIndex: r.chunk_index,
      vector: decodeVector(r.vector, r.dimension),
    }));
  }

  /** Embeddings whose sequence is referenced by no protein and no query-set entry. */
  async countUnindexed(): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM embedding e WHERE ${UNINDEXED}`,
    );
    return row?.n ?? 0;
  }

  async deleteUnindexed(): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `WITH gone AS (DELETE FROM embedding e WHERE ${UNINDEXED} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    );
    return row?.n ?? 0;
  }
}

const UNINDEXED = `NOT EXISTS (SELECT 1 FROM protein p WHERE p.sequence_id = e.sequence_id)
  AND NOT EXISTS (SELECT 1 FROM query_set_entry q WHERE q.sequence_id = e.sequence_id)`;
