import type { JobErrorCode } from '../jobs/job-error-codes';

export type ReferencedTable =
  | 'ontology_snapshot'
  | 'annotation_set'
  | 'embedding_config'
  | 'query_set'
  | 'evaluation_set'
  | 'prediction_set'
  | 'scoring_config'
  | 'reranker_model';

/**
 * Each table a payload may name, how a missing row of it is called, and the one job error code a
 * worker fails with when the row is gone by the time the job runs. The gateway answers 404 with the
 * same label at dispatch; both look the row up the same way (ReferenceCheckRepository).
 */
export const REFERENCED_TABLES: Readonly<
  Record<ReferencedTable, { label: string; jobErrorCode: JobErrorCode }>
> = {
  ontology_snapshot: { label: 'Ontology snapshot', jobErrorCode: 'ontology_snapshot_not_found' },
  annotation_set: { label: 'Annotation set', jobErrorCode: 'annotation_set_not_found' },
  embedding_config: { label: 'Embedding config', jobErrorCode: 'embedding_config_not_found' },
  query_set: { label: 'Query set', jobErrorCode: 'query_set_not_found' },
  evaluation_set: { label: 'Evaluation set', jobErrorCode: 'evaluation_set_not_found' },
  prediction_set: { label: 'Prediction set', jobErrorCode: 'prediction_set_not_found' },
  scoring_config: { label: 'Scoring config', jobErrorCode: 'scoring_config_not_found' },
  reranker_model: { label: 'Re-ranker', jobErrorCode: 'reranker_not_found' },
};

/**
 * The payload fields that name stored rows and the table each one names. One list for every
 * operation: a job that names a row that does not exist is refused at dispatch (404), before it is
 * queued.
 */
export const PAYLOAD_REFERENCES: Readonly<Record<string, ReferencedTable>> = {
  ontology_snapshot_id: 'ontology_snapshot',
  annotation_set_id: 'annotation_set',
  old_annotation_set_id: 'annotation_set',
  new_annotation_set_id: 'annotation_set',
  embedding_config_id: 'embedding_config',
  query_set_id: 'query_set',
  evaluation_set_id: 'evaluation_set',
  prediction_set_id: 'prediction_set',
  scoring_config_id: 'scoring_config',
  reranker_model_id: 'reranker_model',
};

/** The references a payload names, in field order. */
export function payloadReferences(
  payload: Record<string, unknown>,
): { field: string; id: string; table: ReferencedTable; label: string }[] {
  const out: { field: string; id: string; table: ReferencedTable; label: string }[] = [];
  for (const [field, table] of Object.entries(PAYLOAD_REFERENCES)) {
    const id = payload[field];
    if (typeof id === 'string')
      out.push({ field, id: id.toLowerCase(), table, label: REFERENCED_TABLES[table].label });
  }
  return out;
}
