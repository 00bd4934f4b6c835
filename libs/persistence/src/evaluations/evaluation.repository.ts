import { DataSource } from 'typeorm';
import { notFound } from '@svc/contracts';
import { ListScope, Visibility } from '@svc/domain';
import { bulkInsert } from '../bulk';
import { ownershipCondition } from '../ownership';
import { predictionSetLabelParts, withPredictionSetLabel } from '../predictions/prediction-set.labels';
import { Db, isoColumn, queryOne, queryRows } from '../sql';

export type GroundTruthCategory = 'NK' | 'LK' | 'PK' | 'KNOWN';

/** An evaluation result as the evaluation worker stores it, once its metrics are known. */
export interface NewEvaluationResult {
  /** Chosen by the caller (its artifacts are named by it), or generated. */
  id?: string;
  evaluation_set_id: string;
  prediction_set_id: string | null;
  embedding_config_id: string | null;
  scoring_config_id: string | null;
  reranker_model_id: string | null;
  /** The per-category, per-aspect re-rankers of the run (`{nk: {bpo: id}}`). */
  rerankers: object | null;
  job_id: string | null;
  band: string | null;
  frame: string | null;
  th_step: number;
  max_terms: number | null;
  ia_source: string | null;
  toi_source: string | null;
  temporal_window: string | null;
  leakage_role: string | null;
  stage: string | null;
  owner_user_id: string | null;
  visibility: Visibility;
  metrics?: object;
  artifact_prefix?: string | null;
  artifact_keys?: string[];
}

export interface GroundTruthRow {
  category: GroundTruthCategory;
  protein_accession: string;
  go_id: string;
  aspect: 'F' | 'P' | 'C';
}

/** An evaluation set with the labels of its ontology and releases, and how many results a reader may list. */
export type EvaluationSetSummary = EvaluationSetRecord & {
  ontology_version: string;
  old_annotation_set_label: string;
  new_annotation_set_label: string;
  result_count: number;
};

export interface EvaluationSetRecord {
  id: string;
  old_annotation_set_id: string;
  new_annotation_set_id: string;
  ontology_snapshot_id: string;
  job_id: string | null;
  evidence: string;
  stats: Record<string, unknown>;
  created_at: string;
}

const SET_COLUMNS = `e.id, e.old_annotation_set_id, e.new_annotation_set_id, e.ontology_snapshot_id, e.job_id, e.evidence,
  e.stats, ${isoColumn('e.created_at', 'created_at')}`;

const RESULT_COLUMNS = `r.id, r.evaluation_set_id, r.prediction_set_id, r.embedding_config_id, r.scoring_config_id,
  r.reranker_model_id, r.rerankers, r.job_id, r.band, r.frame, r.th_step, r.max_terms, r.ia_source, r.toi_source,
  r.temporal_window, r.leakage_role, r.stage, r.metrics, r.artifact_prefix, r.artifact_keys, r.owner_user_id,
  r.visibility, ${isoColumn('r.created_at', 'created_at')}`;

/** An evaluation result as stored: the run's settings, its metrics and its artifacts. */
export type EvaluationResultRow = Required<Omit<NewEvaluationResult, 'rerankers' | 'metrics'>> & {
  rerankers: Record<string, unknown> | null;
  /** Category, then aspect, then metric (`persistedMetrics`). */
  metrics: Record<string, Record<string, Record<string, unknown>>>;
  created_at: string;
};

/** A result as the benchmark matrix reads it, with the labels of what it evaluated. */
export type BenchmarkResultRow = EvaluationResultRow & {
  scoring_config_name: string | null;
  embedding_model_name: string | null;
  search_backend: string | null;
  blend_version: string | null;
};

/** Evaluation sets (temporal holdouts), their ground truth, and evaluation results. */
export class EvaluationRepository {
  constructor(private readonly db: DataSource) {}

  /** Stores a set and its ground truth in one transaction. */
  async createSet(
    input: Omit<EvaluationSetRecord, 'id' | 'created_at'>,
    rows: GroundTruthRow[],
  ): Promise<string> {
    return this.db.transaction(async (tx) => {
      const set = await queryOne<{ id: string }>(
        tx,
        `INSERT INTO evaluation_set (old_annotation_set_id, new_annotation_set_id, ontology_snapshot_id, job_id, evidence, stats)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [
          input.old_annotation_set_id,
          input.new_annotation_set_id,
          input.ontology_snapshot_id,
          input.job_id,
          input.evidence,
          JSON.stringify(input.stats),
        ],
      );
      await bulkInsert(tx, {
        table: 'evaluation_ground_truth',
        columns: [
          { name: 'evaluation_set_id', type: 'uuid' },
          { name: 'category', type: 'text' },
          { name: 'protein_accession', type: 'text' },
          { name: 'go_id', type: 'text' },
          { name: 'aspect', type: 'text' },
        ],
        rows: rows.map((r) => [set!.id, r.category, r.protein_accession, r.go_id, r.aspect]),
        onConflict: 'ON CONFLICT DO NOTHING',
      });
      return set!.id;
    });
  }

  findSet(id: string, db: Db = this.db): Promise<EvaluationSetRecord | null> {
    return queryOne(db, `SELECT ${SET_COLUMNS} FROM evaluation_set e WHERE e.id = $1`, [id]);
  }

  /** The proteins with ground truth of these categories in an evaluation set. */
  async proteinsOfCategories(evaluationSetId: string, categories: readonly string[]): Promise<Set<string>> {
    const rows = await queryRows<{ protein_accession: string }>(
      this.db,
      `SELECT DISTINCT protein_accession FROM evaluation_ground_truth
        WHERE evaluation_set_id = $1 AND category = ANY($2::text[])`,
      [evaluationSetId, [...categories]],
    );
    return new Set(rows.map((r) => r.protein_accession));
  }

  /** Embedding configs with at least one public evaluation result, by model name (the benchmark's rows). */
  embeddingsWithPublicResults(): Promise<
    { id: string; model_name: string; model_backend: string; results: number }[]
  > {
    return queryRows(
      this.db,
      `SELECT c.id, c.model_name, c.model_backend, count(r.id)::int AS results
         FROM embedding_config c JOIN evaluation_result r ON r.embedding_config_id = c.id AND r.visibility = 'public'
        GROUP BY c.id, c.model_name, c.model_backend ORDER BY c.model_name`,
    );
  }

  /** The newest evaluation set whose older release is this annotation set, or null. */
  async newestSetFrom(oldAnnotationSetId: string): Promise<string | null> {
    const row = await queryOne<{ id: string }>(
      this.db,
      `SELECT id FROM evaluation_set WHERE old_annotation_set_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [oldAnnotationSetId],
    );
    return row?.id ?? null;
  }

  async getSet(id: string): Promise<EvaluationSetRecord> {
    const set = await this.findSet(id);
    if (set === null) throw notFound('Evaluation set');
    return set;
  }

  /** The sets, newest first; each `result_count` counts the results `scope` may list (all by default). */
  listSets(scope: ListScope = { kind: 'all' }): Promise<EvaluationSetSummary[]> {
    const visible = ownershipCondition(scope, 1, 'r');
    return queryRows<EvaluationSetSummary>(
      this.db,
      `${summarySelect(visible.sql)} ORDER BY e.created_at DESC`,
      visible.params,
    );
  }

  /** One set with the labels of its annotation sets and ontology, and the count of results `scope` may list. */
  async summary(id: string, scope: ListScope = { kind: 'all' }): Promise<EvaluationSetSummary> {
    const visible = ownershipCondition(scope, 2, 'r');
    const [set] = await queryRows<EvaluationSetSummary>(
      this.db,
      `${summarySelect(visible.sql)} WHERE e.id = $1`,
      [id, ...visible.params],
    );
    if (set === undefined) throw notFound('Evaluation set');
    return set;
  }

  groundTruth(id: string, category: GroundTruthCategory): Promise<GroundTruthRow[]> {
    return queryRows(
      this.db,
      `SELECT category, protein_accession, go_id, aspect FROM evaluation_ground_truth
        WHERE evaluation_set_id = $1 AND category = $2 ORDER BY protein_accession, go_id`,
      [id, category],
    );
  }

  /** Delta proteins with their category and stored sequence (only proteins whose sequence is stored). */
  deltaProteins(id: string, categories: string[]) {
    return queryRows<{
      accession: string;
      category: string;
      entry_name: string | null;
      organism: string | null;
      taxonomy_id: string | null;
      sequence: string;
    }>(
      this.db,
      `SELECT DISTINCT ON (g.protein_accession) g.protein_accession AS accession, g.category, p.entry_name, p.organism,
              p.taxonomy_id, s.sequence
         FROM evaluation_ground_truth g JOIN protein p ON p.accession = g.protein_accession
         JOIN sequence s ON s.id = p.sequence_id
        WHERE g.evaluation_set_id = $1 AND g.category = ANY($2::text[])
        ORDER BY g.protein_accession, g.category`,
      [id, categories],
    );
  }

  /** Deletes the set with its results; returns the artifact keys the caller must remove. */
  async deleteSet(
    id: string,
  ): Promise<{ deleted: boolean; results_deleted: number; artifact_keys: string[] }> {
    return this.db.transaction(async (tx) => {
      if ((await this.findSet(id, tx)) === null) throw notFound('Evaluation set');
      const results = await queryRows<{ artifact_keys: string[] }>(
        tx,
        `DELETE FROM evaluation_result WHERE evaluation_set_id = $1 RETURNING artifact_keys`,
        [id],
      );
      await queryRows(tx, `DELETE FROM evaluation_set WHERE id = $1`, [id]);
      return {
        deleted: true,
        results_deleted: results.length,
        artifact_keys: results.flatMap((r) => r.artifact_keys),
      };
    });
  }

  /** Stores a result row; an absent id, metrics or artifact keys take the table's defaults. */
  async createResult(input: NewEvaluationResult): Promise<string> {
    const json = (value: object | null | undefined) => (value == null ? null : JSON.stringify(value));
    const row = await queryOne<{ id: string }>(
      this.db,
      `INSERT INTO evaluation_result (id, evaluation_set_id, prediction_set_id, embedding_config_id,
              scoring_config_id, reranker_model_id, rerankers, job_id, band, frame, th_step, max_terms,
              ia_source, toi_source, temporal_window, leakage_role, stage, owner_user_id, visibility,
              metrics, artifact_prefix, artifact_keys)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12,
               $13, $14, $15, $16, $17, $18, $19, COALESCE($20::jsonb, '{}'::jsonb), $21,
               COALESCE($22::text[], '{}'))
       RETURNING id`,
      [
        input.id ?? null,
        input.evaluation_set_id,
        input.prediction_set_id,
        input.embedding_config_id,
        input.scoring_config_id,
        input.reranker_model_id,
        json(input.rerankers),
        input.job_id,
        input.band,
        input.frame,
        input.th_step,
        input.max_terms,
        input.ia_source,
        input.toi_source,
        input.temporal_window,
        input.leakage_role,
        input.stage,
        input.owner_user_id,
        input.visibility,
        json(input.metrics),
        input.artifact_prefix ?? null,
        input.artifact_keys ?? null,
      ],
    );
    return row!.id;
  }

  async updateResult(
    id: string,
    fields: { metrics: unknown; artifact_prefix: string; artifact_keys: string[] },
  ): Promise<void> {
    await queryRows(
      this.db,
      `UPDATE evaluation_result SET metrics = $2, artifact_prefix = $3, artifact_keys = $4 WHERE id = $1`,
      [id, JSON.stringify(fields.metrics), fields.artifact_prefix, fields.artifact_keys],
    );
  }

  /** The results of a set that a list scope may see (published results are public), newest first. */
  async listResults(
    setId: string,
    scope: ListScope,
  ): Promise<
    (EvaluationResultRow & { scoring_config_name: string | null; prediction_set_label: string | null })[]
  > {
    const visible = ownershipCondition(scope, 2, 'r');
    const rows = await queryRows<
      EvaluationResultRow & { scoring_config_name: string | null; prediction_set_label_parts: unknown }
    >(
      this.db,
      `SELECT ${RESULT_COLUMNS}, c.name AS scoring_config_name,
              ${predictionSetLabelParts('ps', 'prediction_set_label_parts')}
         FROM evaluation_result r LEFT JOIN scoring_config c ON c.id = r.scoring_config_id
         LEFT JOIN prediction_set ps ON ps.id = r.prediction_set_id
        WHERE r.evaluation_set_id = $1 AND ${visible.sql} ORDER BY r.created_at DESC`,
      [setId, ...visible.params],
    );
    return rows.map(
      (row) =>
        withPredictionSetLabel(
          row,
          'prediction_set_label_parts',
          'prediction_set_label',
        ) as EvaluationResultRow & {
          scoring_config_name: string | null;
          prediction_set_label: string | null;
        },
    );
  }

  findResult(setId: string, resultId: string): Promise<EvaluationResultRow | null> {
    return queryOne(
      this.db,
      `SELECT ${RESULT_COLUMNS} FROM evaluation_result r WHERE r.id = $2 AND r.evaluation_set_id = $1`,
      [setId, resultId],
    );
  }

  async deleteResult(setId: string, resultId: string): Promise<string[]> {
    const row = await queryOne<{ artifact_keys: string[] }>(
      this.db,
      `DELETE FROM evaluation_result WHERE id = $2 AND evaluation_set_id = $1 RETURNING artifact_keys`,
      [setId, resultId],
    );
    if (row === null) throw notFound('Evaluation result');
    return row.artifact_keys;
  }

  /**
   * Every published result with its labels, for the benchmark matrix: the scoring config, the
   * embedding, and the search backend and blend version of its prediction set (null once it is gone).
   */
  allResults(): Promise<BenchmarkResultRow[]> {
    return queryRows<BenchmarkResultRow>(
      this.db,
      `SELECT ${RESULT_COLUMNS}, c.name AS scoring_config_name, ec.model_name AS embedding_model_name,
              ps.search_backend, ps.reference ->> 'blend_version' AS blend_version
         FROM evaluation_result r LEFT JOIN scoring_config c ON c.id = r.scoring_config_id
         LEFT JOIN embedding_config ec ON ec.id = r.embedding_config_id
         LEFT JOIN prediction_set ps ON ps.id = r.prediction_set_id
        WHERE r.visibility = 'public'
        ORDER BY r.created_at`,
    );
  }
}

/**
 * A set with its labels: what the list and the detail answer. `visibleResults` keeps the results
 * the count is of (an `ownershipCondition` over alias `r`): a public count leaves private work out.
 */
function summarySelect(visibleResults: string): string {
  return `SELECT ${SET_COLUMNS}, o.obo_version AS ontology_version,
       (a.source || ' ' || a.source_version) AS old_annotation_set_label,
       (b.source || ' ' || b.source_version) AS new_annotation_set_label,
       (SELECT count(*)::int FROM evaluation_result r WHERE r.evaluation_set_id = e.id AND ${visibleResults}) AS result_count
  FROM evaluation_set e JOIN ontology_snapshot o ON o.id = e.ontology_snapshot_id
  JOIN annotation_set a ON a.id = e.old_annotation_set_id JOIN annotation_set b ON b.id = e.new_annotation_set_id`;
}
