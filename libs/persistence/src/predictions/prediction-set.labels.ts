import { predictionSetLabel, type PredictionSetLabelParts, type ReferenceSummary } from '@svc/domain';
import { isoColumn } from '../sql';

// How a prediction set is read with what it was made from, and its label.

export const SET_COLUMNS = `s.id, s.job_id, s.embedding_config_id, s.annotation_set_id, s.ontology_snapshot_id, s.query_set_id,
  s.limit_per_entry, s.distance_threshold, s.search_backend, s.aspect_separated_knn, s.options, s.feature_schema_sha,
  s.reranker_model_id, s.query_count, s.owner_user_id, s.visibility, ${isoColumn('s.expires_at', 'expires_at')},
  ${isoColumn('s.created_at', 'created_at')}, s.reference`;

// `exclude_self`: sets made before the option existed always excluded the query's own entry.
export const LABELS = `c.model_name AS embedding_config_name, c.model_backend AS embedding_backend,
  (a.source || ' ' || a.source_version) AS annotation_set_label, o.obo_version AS ontology_version,
  (SELECT j.status FROM job j WHERE j.id = s.job_id) AS job_status,
  COALESCE((s.options ->> 'exclude_self')::boolean, true) AS exclude_self,
  (SELECT q.name FROM query_set q WHERE q.id = s.query_set_id) AS query_set_name`;

/** The columns LABELS selects. */
export interface SetLabelColumns {
  embedding_config_name: string;
  embedding_backend: string;
  annotation_set_label: string;
  ontology_version: string;
  job_status: string | null;
  exclude_self: boolean;
  query_set_name: string | null;
}

/** A set read with LABELS gets its `label`, from the columns it already has. */
export function withLabel<
  T extends SetLabelColumns & {
    search_backend: string;
    created_at: string;
    reference: ReferenceSummary | null;
  },
>(row: T): T & { label: string } {
  return {
    ...row,
    label: predictionSetLabel({
      query_set_name: row.query_set_name,
      search_backend: row.search_backend,
      blend_version: row.reference?.blend_version ?? null,
      embedding_config_name: row.embedding_config_name,
      reference: row.reference?.reference_name ?? row.annotation_set_label,
      exclude_self: row.exclude_self,
      created_at: row.created_at,
    }),
  };
}

/**
 * `label_parts` of the prediction set aliased `alias` (`PredictionSetLabelParts`; null when a LEFT
 * JOIN found none), for `withPredictionSetLabel`: its query set's name and the settings that tell runs
 * apart. For a row that does not select the set's own labels (an evaluation result's set).
 */
export function predictionSetLabelParts(alias: string, as = 'label_parts'): string {
  return `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object(
    'query_set_name', (SELECT lq.name FROM query_set lq WHERE lq.id = ${alias}.query_set_id),
    'search_backend', ${alias}.search_backend,
    'blend_version', ${alias}.reference ->> 'blend_version',
    'embedding_config_name', (SELECT lc.model_name FROM embedding_config lc WHERE lc.id = ${alias}.embedding_config_id),
    'reference', COALESCE(${alias}.reference ->> 'reference_name',
      (SELECT la.source || ' ' || la.source_version FROM annotation_set la WHERE la.id = ${alias}.annotation_set_id)),
    'exclude_self', COALESCE((${alias}.options ->> 'exclude_self')::boolean, true),
    'created_at', ${alias}.created_at) END AS ${as}`;
}

/** A row read with `predictionSetLabelParts` gets `key` (its `predictionSetLabel`) instead of the parts. */
export function withPredictionSetLabel<T extends Record<string, unknown>>(
  row: T,
  parts = 'label_parts',
  key = 'label',
): Record<string, unknown> {
  const { [parts]: raw, ...rest } = row;
  const value =
    typeof raw === 'string'
      ? (JSON.parse(raw) as PredictionSetLabelParts)
      : (raw as PredictionSetLabelParts | null);
  return { ...rest, [key]: value ? predictionSetLabel(value) : null };
}

export const JOINS = `JOIN embedding_config c ON c.id = s.embedding_config_id
  JOIN annotation_set a ON a.id = s.annotation_set_id JOIN ontology_snapshot o ON o.id = s.ontology_snapshot_id`;
