import { DataSource } from 'typeorm';
import { notFound } from '@svc/contracts';
import { ListScope, type ReferenceSummary, Visibility } from '@svc/domain';
import { bulkInsert, bulkInsertColumns } from '../bulk';
import { ownershipCondition } from '../ownership';
import { Db, queryOne, queryRows } from '../sql';
import { composedPairTuples, type ComposedPriorWrite, priorTermTuples } from './composed-prior';
import {
  PREDICTION_ROW_COLUMNS,
  PREDICTION_ROWS,
  PredictionRow,
  PREDICTIONS_TSV_COLUMNS,
  ROW_ORDER_SQL,
  ROW_SCORE_SQL,
  setRowCountSql,
} from './prediction-columns';
import { type ProteinBatch, readProteinBatches, type TsvFilters } from './prediction-filters';
import { JOINS, LABELS, SET_COLUMNS, SetLabelColumns, withLabel } from './prediction-set.labels';

export interface PredictionSetRecord {
  id: string;
  job_id: string | null;
  embedding_config_id: string;
  annotation_set_id: string;
  ontology_snapshot_id: string;
  query_set_id: string | null;
  limit_per_entry: number;
  distance_threshold: number | null;
  search_backend: string;
  aspect_separated_knn: boolean;
  options: Record<string, unknown>;
  feature_schema_sha: string;
  reranker_model_id: string | null;
  query_count: number;
  /** Copied from the job that made the set: a one-click guest result is unlisted and expires with it. */
  owner_user_id: string | null;
  visibility: Visibility;
  expires_at: string | null;
  created_at: string;
  /** What the set was predicted against (`ReferenceSummary`); null on sets made before it was recorded. */
  reference: ReferenceSummary | null;
}

export type { TsvFilters } from './prediction-filters';
export type { SetLabelColumns } from './prediction-set.labels';

/** A prediction set with the labels of what it was made from, and its own label. */
export type LabelledPredictionSet = PredictionSetRecord & SetLabelColumns & { label: string };
export { predictionSetLabelParts, withPredictionSetLabel } from './prediction-set.labels';
export { predictionsTsvCopyCommand, scratchCopyCommands } from './copy-commands';

/** Prediction sets and their rows: the write step's inserts and every read of the API. */
export class PredictionSetRepository {
  constructor(private readonly db: DataSource) {}

  /** Prediction rows of a prediction job (its set's rows, stored and composed). */
  async countRowsOfJob(jobId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT COALESCE(sum(${setRowCountSql('s.id')}), 0)::int AS n FROM prediction_set s WHERE s.job_id = $1`,
      [jobId],
    );
    return row?.n ?? 0;
  }

  async create(input: Omit<PredictionSetRecord, 'id' | 'created_at' | 'reference'>): Promise<string> {
    const row = await queryOne<{ id: string }>(
      this.db,
      `INSERT INTO prediction_set (job_id, embedding_config_id, annotation_set_id, ontology_snapshot_id, query_set_id,
         limit_per_entry, distance_threshold, search_backend, aspect_separated_knn, options, feature_schema_sha,
         reranker_model_id, query_count, owner_user_id, visibility, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::timestamptz) RETURNING id`,
      [
        input.job_id,
        input.embedding_config_id,
        input.annotation_set_id,
        input.ontology_snapshot_id,
        input.query_set_id,
        input.limit_per_entry,
        input.distance_threshold,
        input.search_backend,
        input.aspect_separated_knn,
        JSON.stringify(input.options),
        input.feature_schema_sha,
        input.reranker_model_id,
        input.query_count,
        input.owner_user_id,
        input.visibility,
        input.expires_at,
      ],
    );
    return row!.id;
  }

  find(id: string, db: Db = this.db): Promise<PredictionSetRecord | null> {
    return queryOne<PredictionSetRecord>(db, `SELECT ${SET_COLUMNS} FROM prediction_set s WHERE s.id = $1`, [
      id,
    ]);
  }

  async get(id: string): Promise<PredictionSetRecord> {
    const set = await this.find(id);
    if (set === null) throw notFound('Prediction set');
    return set;
  }

  /**
   * ANALYZE of the prediction tables after a bulk write (autovacuum may take minutes to get there):
   * a batch's read then uses the indexes, and composes its rows with hash joins, by true sizes.
   */
  async refreshStatistics(): Promise<void> {
    await this.db.query(
      'ANALYZE prediction, prediction_prior_weight, prediction_set_prior, prediction_prior_association',
    );
  }

  /** `tx`: the caller's transaction (a write step commits its rows with its progress tick). */
  async writeRows(predictionSetId: string, rows: PredictionRow[], tx: Db = this.db): Promise<number> {
    if (rows.length === 0) return 0;
    await bulkInsert(tx, {
      table: 'prediction',
      columns: [{ name: 'prediction_set_id', type: 'uuid' }, ...PREDICTION_ROW_COLUMNS],
      rows: rows.map((r) => [
        predictionSetId,
        ...PREDICTION_ROW_COLUMNS.map((c) =>
          c.name === 'features' ? JSON.stringify(r.features ?? {}) : (r[c.name] ?? null),
        ),
      ]),
      chunkSize: 2000,
    });
    return rows.length;
  }

  /** Stores rows held column by column (`decodePredictionColumns`), as `writeRows` does. */
  async writeColumns(predictionSetId: string, values: unknown[][], tx: Db = this.db): Promise<number> {
    const count = values[0]?.length ?? 0;
    if (count === 0) return 0;
    await bulkInsertColumns(tx, {
      table: 'prediction',
      columns: [{ name: 'prediction_set_id', type: 'uuid' }, ...PREDICTION_ROW_COLUMNS],
      values: [new Array<string>(count).fill(predictionSetId), ...values],
      chunkSize: 2000,
    });
    return count;
  }

  /**
   * Stores what a write composes instead of storing (`splitPriorRows`): the set prior once per set
   * and digest, and each (protein, aspect) whose prior-only rows are composed at read. Returns the
   * rows composed by the pairs stored (a pair already stored is kept as it was).
   */
  async writeComposedPrior(
    predictionSetId: string,
    write: ComposedPriorWrite,
    tx: Db = this.db,
  ): Promise<number> {
    if (write.pairs.length === 0) return 0;
    const { prior } = write;
    await queryRows(
      tx,
      `INSERT INTO prediction_set_prior (prediction_set_id, digest, aspect, go_term_id, go_id, frequency, prior_value,
         features, term_frequency, min_score, calibration_raw, calibration_value)
       SELECT $1, $2, t->>0, (t->>1)::int, t->>2, (t->>3)::float8, (t->>3)::numeric,
              jsonb_build_object('source', 'prior', 'vote_share', 0, 'prior', (t->>3)::numeric),
              (t->>4)::int, $3::float8,
              CASE WHEN jsonb_typeof(t->5) = 'array' THEN
                ARRAY(SELECT v::float8 FROM jsonb_array_elements_text(t->5) WITH ORDINALITY e(v, i) ORDER BY i) END,
              CASE WHEN jsonb_typeof(t->6) = 'array' THEN
                ARRAY(SELECT v::float8 FROM jsonb_array_elements_text(t->6) WITH ORDINALITY e(v, i) ORDER BY i) END
         FROM jsonb_array_elements($4::jsonb) t
       ON CONFLICT DO NOTHING`,
      [predictionSetId, prior.digest, prior.minScore, JSON.stringify(priorTermTuples(prior.terms))],
    );
    const stored = await queryOne<{ n: number }>(
      tx,
      `WITH stored AS (
         INSERT INTO prediction_prior_weight (prediction_set_id, protein_accession, aspect, digest, weight,
           association_weight, query_taxonomy_id, neighbourhood, composed_rows, stored_terms)
         SELECT $1, c->>0, c->>1, $2, (c->>2)::float8, (c->>3)::float8, c->>4, (c->>5)::boolean, (c->>6)::int,
                ARRAY(SELECT v::int FROM jsonb_array_elements_text(c->7) WITH ORDINALITY e(v, i) ORDER BY i)
           FROM jsonb_array_elements($3::jsonb) c
         ON CONFLICT DO NOTHING RETURNING protein_accession, aspect, composed_rows),
       associated AS (
         INSERT INTO prediction_prior_association (prediction_set_id, protein_accession, go_term_id, value)
         SELECT $1, c->>0, t.term::int, v.value::numeric
           FROM jsonb_array_elements($3::jsonb) c
           JOIN stored s ON s.protein_accession = c->>0 AND s.aspect = c->>1
           CROSS JOIN LATERAL jsonb_array_elements_text(c->8) WITH ORDINALITY t(term, i)
           JOIN LATERAL jsonb_array_elements_text(c->9) WITH ORDINALITY v(value, i) ON v.i = t.i
         ON CONFLICT DO NOTHING)
       SELECT COALESCE(sum(composed_rows), 0)::int AS n FROM stored`,
      [predictionSetId, prior.digest, JSON.stringify(composedPairTuples(write.pairs))],
    );
    return stored?.n ?? 0;
  }

  /** How a set's rows are kept: stored, composed at read, and what the composition keeps. */
  async storage(
    id: string,
  ): Promise<{ stored: number; composed: number; associations: number; priorTerms: number }> {
    const row = await queryOne<{
      stored: number;
      composed: number;
      associations: number;
      prior_terms: number;
    }>(
      this.db,
      `SELECT (SELECT count(*) FROM prediction WHERE prediction_set_id = $1)::int AS stored,
              (SELECT COALESCE(sum(composed_rows), 0) FROM prediction_prior_weight WHERE prediction_set_id = $1)::int AS composed,
              (SELECT count(*) FROM prediction_prior_association WHERE prediction_set_id = $1)::int AS associations,
              (SELECT count(*) FROM prediction_set_prior WHERE prediction_set_id = $1)::int AS prior_terms`,
      [id],
    );
    return {
      stored: row?.stored ?? 0,
      composed: row?.composed ?? 0,
      associations: row?.associations ?? 0,
      priorTerms: row?.prior_terms ?? 0,
    };
  }

  /** The most recent sets a list scope may see, with their labels and prediction counts. */
  async list(
    scope: ListScope,
    limit = 100,
  ): Promise<(LabelledPredictionSet & { prediction_count: number })[]> {
    const visible = ownershipCondition(scope, 2, 's');
    const rows = await queryRows<PredictionSetRecord & SetLabelColumns & { prediction_count: number }>(
      this.db,
      `SELECT ${SET_COLUMNS}, ${LABELS},
              ${setRowCountSql('s.id')} AS prediction_count
         FROM prediction_set s ${JOINS} WHERE ${visible.sql} ORDER BY s.created_at DESC LIMIT $1`,
      [limit, ...visible.params],
    );
    return rows.map(withLabel);
  }

  async detail(id: string): Promise<
    LabelledPredictionSet & {
      prediction_count: number;
      protein_count: number;
      proteins: { protein_accession: string; go_count: number }[];
    }
  > {
    const set = await queryOne<PredictionSetRecord & SetLabelColumns>(
      this.db,
      `SELECT ${SET_COLUMNS}, ${LABELS} FROM prediction_set s ${JOINS} WHERE s.id = $1`,
      [id],
    );
    if (set === null) throw notFound('Prediction set');
    const labelled = withLabel(set);
    const perProtein = await queryRows<{ protein_accession: string; go_count: number }>(
      this.db,
      `SELECT protein_accession, sum(n)::int AS go_count FROM (
         SELECT protein_accession, count(*) AS n FROM prediction WHERE prediction_set_id = $1 GROUP BY protein_accession
         UNION ALL
         SELECT protein_accession, sum(composed_rows) FROM prediction_prior_weight WHERE prediction_set_id = $1
          GROUP BY protein_accession) counted
        GROUP BY protein_accession ORDER BY protein_accession`,
      [id],
    );
    return {
      ...labelled,
      prediction_count: perProtein.reduce((n, p) => n + p.go_count, 0),
      protein_count: perProtein.length,
      proteins: perProtein,
    };
  }

  /** Publishes a set (`public`) or makes it its owner's again (`owner`). */
  async setVisibility(id: string, visibility: 'public' | 'owner'): Promise<void> {
    const rows = await queryRows(
      this.db,
      `UPDATE prediction_set SET visibility = $2 WHERE id = $1 RETURNING id`,
      [id, visibility],
    );
    if (rows.length === 0) throw notFound('Prediction set');
  }

  async delete(id: string): Promise<{ deleted: boolean; predictions_deleted: number }> {
    return this.db.transaction(async (tx) => {
      if ((await this.find(id, tx)) === null) throw notFound('Prediction set');
      const gone = await queryOne<{ n: number }>(
        tx,
        `WITH gone AS (DELETE FROM prediction WHERE prediction_set_id = $1 RETURNING 1)
         SELECT ((SELECT count(*) FROM gone) + (SELECT COALESCE(sum(composed_rows), 0)
           FROM prediction_prior_weight WHERE prediction_set_id = $1))::int AS n`,
        [id],
      );
      await queryRows(tx, `DELETE FROM prediction_set WHERE id = $1`, [id]);
      return { deleted: true, predictions_deleted: gone?.n ?? 0 };
    });
  }

  /** Proteins of a set with their counts; `match_count` = predicted terms the set's annotations confirm. */
  async proteins(id: string, query: { search?: string; limit: number; offset: number }) {
    const set = await this.get(id);
    const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    // The page's proteins first (stored rows and composed pairs name them), then their rows.
    const proteinsOf = `SELECT protein_accession FROM prediction WHERE prediction_set_id = $1
        AND ($2::text IS NULL OR protein_accession ILIKE $2)
      UNION SELECT protein_accession FROM prediction_prior_weight WHERE prediction_set_id = $1
        AND ($2::text IS NULL OR protein_accession ILIKE $2)`;
    const page = await queryRows<{ protein_accession: string }>(
      this.db,
      `SELECT protein_accession FROM (${proteinsOf}) named ORDER BY protein_accession LIMIT $3 OFFSET $4`,
      [id, search, query.limit, query.offset],
    );
    const items = await queryRows(
      this.db,
      `SELECT p.protein_accession, count(*)::int AS go_count, min(p.distance)::float8 AS min_distance,
              max(${ROW_SCORE_SQL}) AS best_score,
              (SELECT count(DISTINCT a.go_term_id)::int FROM protein_go_annotation a
                WHERE a.annotation_set_id = $2 AND a.protein_accession = p.protein_accession AND NOT a.is_not) AS annotation_count,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM protein_go_annotation a WHERE a.annotation_set_id = $2
                AND a.protein_accession = p.protein_accession AND a.go_term_id = p.go_term_id AND NOT a.is_not))::int AS match_count,
              max(q.homologs) AS homologs, max(q.best_identity)::float8 AS best_identity,
              CASE WHEN max(q.known_terms) > 0 THEN 'known' WHEN max(q.homologs) > 0 THEN 'homology'
                   WHEN max(q.homologs) = 0 THEN 'prior' END AS basis
         FROM ${PREDICTION_ROWS} p LEFT JOIN prediction_query_summary q
           ON q.prediction_set_id = p.prediction_set_id AND q.protein_accession = p.protein_accession
        WHERE p.prediction_set_id = $1 AND p.protein_accession = ANY($3::text[])
        GROUP BY p.protein_accession ORDER BY p.protein_accession`,
      [id, set.annotation_set_id, page.map((p) => p.protein_accession)],
    );
    const total = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM (${proteinsOf}) named`,
      [id, search],
    );
    return { items, total: total?.n ?? 0, limit: query.limit, offset: query.offset };
  }

  /**
   * One protein's predicted terms, best score first (an unknown accession gives an empty list), with
   * `self_hit`: the donor is the query's own accession or an isoform of it (annotation mode only), and
   * `known`: the row is the query's own annotation (self-transfer), not a prediction; `submitted`: a
   * term its upload said is known (GO=), not a prediction either.
   */
  async proteinPredictions(id: string, accession: string): Promise<Record<string, unknown>[]> {
    await this.get(id);
    return queryRows(
      this.db,
      `SELECT ${tsvSelect()}, ${SCORE_SELECT}, COALESCE((p.features ->> 'self_hit')::boolean, false) AS self_hit,
              (p.features ->> 'source') IS NOT DISTINCT FROM 'known' AS known,
              (p.features ->> 'source') IS NOT DISTINCT FROM 'submitted' AS submitted
         FROM ${PREDICTION_ROWS} p LEFT JOIN go_term t ON t.id = p.go_term_id
        WHERE p.prediction_set_id = $1 AND p.protein_accession = $2 ORDER BY score DESC, p.distance, p.go_id`,
      [id, accession],
    );
  }

  /**
   * The most predicted terms per aspect and the per-aspect totals, over the rows scoring at least
   * `minScore` and, with `homologyOnly`, backed by a donor (a homolog, or the protein's own
   * annotation): a term on the prior alone is predicted for every protein and says nothing.
   */
  async goTermDistribution(id: string, options: { limit: number; minScore: number; homologyOnly: boolean }) {
    await this.get(id);
    const kept = `p.prediction_set_id = $1 AND ${ROW_SCORE_SQL} >= $2
      AND (NOT $3::boolean OR p.ref_protein_accession IS NOT NULL)`;
    const params = [id, options.minScore, options.homologyOnly];
    const terms = await queryRows<{ aspect: string }>(
      this.db,
      `SELECT * FROM (
         SELECT p.aspect, p.go_id, t.name AS go_name, count(*)::int AS prediction_count,
                count(DISTINCT p.protein_accession)::int AS protein_count,
                row_number() OVER (PARTITION BY p.aspect ORDER BY count(DISTINCT p.protein_accession) DESC,
                  count(*) DESC, p.go_id) AS rank
           FROM ${PREDICTION_ROWS} p LEFT JOIN go_term t ON t.id = p.go_term_id
          WHERE ${kept} GROUP BY p.aspect, p.go_id, t.name) ranked
        WHERE rank <= $4 ORDER BY aspect, rank`,
      [...params, options.limit],
    );
    const totals = await queryRows<{ aspect: string; predictions: number; terms: number; proteins: number }>(
      this.db,
      `SELECT p.aspect, count(*)::int AS predictions, count(DISTINCT p.go_id)::int AS terms,
              count(DISTINCT p.protein_accession)::int AS proteins
         FROM ${PREDICTION_ROWS} p WHERE ${kept} GROUP BY p.aspect ORDER BY p.aspect`,
      params,
    );
    const byAspect: Record<string, unknown[]> = { F: [], P: [], C: [] };
    for (const t of terms) {
      const { rank: _rank, ...rest } = t as Record<string, unknown>;
      byAspect[t.aspect]?.push(rest);
    }
    return { terms: byAspect, totals: Object.fromEntries(totals.map((t) => [t.aspect, t])) };
  }

  /** Every stored row of a prediction set, in accession order (a set small enough to hold). */
  async allRows(id: string): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    for await (const chunk of this.streamRows(id, {}, 5000)) rows.push(...chunk);
    return rows;
  }

  /**
   * A set's rows (stored and composed) as row objects, by accession, distance and GO id, in batches
   * of whole proteins of about `chunk` rows, so a large set streams in constant memory.
   */
  async *streamRows(
    id: string,
    filters: TsvFilters,
    chunk = 1000,
    columns: 'export' | 'score' = 'export',
    /** Leave out the terms an upload said are known (GO=): they are no prediction to evaluate. */
    predictionsOnly = false,
  ): AsyncGenerator<Record<string, unknown>[]> {
    // `score`: what the evaluator needs without a scoring config (no term join, no features).
    const select =
      columns === 'export'
        ? `p.id::text AS row_id, p.go_term_id, p.features, ${tsvSelect()}`
        : `p.id::text AS row_id, p.protein_accession, p.go_id, p.distance::float8 AS distance, ${SCORE_SELECT}`;
    const from =
      columns === 'export'
        ? `${PREDICTION_ROWS} p LEFT JOIN go_term t ON t.id = p.go_term_id`
        : `${PREDICTION_ROWS} p`;
    const read = (batch: ProteinBatch) =>
      queryRows<Record<string, unknown>>(
        this.db,
        `SELECT ${select} FROM ${from} WHERE ${batch.where}${
          predictionsOnly ? ` AND (p.features ->> 'source') IS DISTINCT FROM 'submitted'` : ''
        } ORDER BY ${ROW_ORDER_SQL}`,
        batch.params,
      );
    for await (const rows of readProteinBatches(this.db, id, filters, chunk, read))
      if (rows.length > 0) yield rows;
  }

  /** Newest prediction set for a (query set, embedding config) pair. */
  async resolve(querySetId: string, embeddingConfigId: string): Promise<LabelledPredictionSet> {
    const set = await queryOne<PredictionSetRecord & SetLabelColumns>(
      this.db,
      `SELECT ${SET_COLUMNS}, ${LABELS} FROM prediction_set s ${JOINS}
        WHERE s.query_set_id = $1 AND s.embedding_config_id = $2 ORDER BY s.created_at DESC LIMIT 1`,
      [querySetId, embeddingConfigId],
    );
    if (set === null) throw notFound('Prediction set');
    return withLabel(set);
  }
}

/** The row's score, max(0, 1 - distance) (docs/prediction.md, "Score"). */
const SCORE_SELECT = `${ROW_SCORE_SQL} AS score`;

/** The 32 TSV columns as a select list (GO name and aspect from the term). */
function tsvSelect(): string {
  return PREDICTIONS_TSV_COLUMNS.map((c) => {
    if (c === 'go_name') return 't.name AS go_name';
    if (c === 'go_aspect') return 'p.aspect AS go_aspect';
    if (c === 'distance') return 'p.distance::float8 AS distance';
    return `p.${c}`;
  }).join(', ');
}
