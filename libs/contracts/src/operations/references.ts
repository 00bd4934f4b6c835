/**
 * The payload fields that name stored rows, the table each one names and how a missing one is
 * called. One list for every operation: a job that names a row that does not exist is refused at
 * dispatch (404), before it is queued.
 */
export const PAYLOAD_REFERENCES: Readonly<Record<string, { table: ReferencedTable; label: string }>> = {
  ontology_snapshot_id: { table: 'ontology_snapshot', label: 'Ontology snapshot' },
  annotation_set_id: { table: 'annotation_set', label: 'Annotation set' },
  old_annotation_set_id: { table: 'annotation_set', label: 'Annotation set' },
  new_annotation_set_id: { table: 'annotation_set', label: 'Annotation set' },
  embedding_config_id: { table: 'embedding_config', label: 'Embedding config' },
  query_set_id: { table: 'query_set', label: 'Query set' },
  evaluation_set_id: { table: 'evaluation_set', label: 'Evaluation set' },
  prediction_set_id: { table: 'prediction_set', label: 'Prediction set' },
  scoring_config_id: { table: 'scoring_config', label: 'Scoring config' },
  reranker_model_id: { table: 'reranker_model', label: 'Re-ranker' },
};

export type ReferencedTable =
  | 'ontology_snapshot'
  | 'annotation_set'
  | 'embedding_config'
  | 'query_set'
  | 'evaluation_set'
  | 'prediction_set'
  | 'scoring_config'
  | 'reranker_model';

/** The references a payload names, in field order. */
export function payloadReferences(
  payload: Record<string, unknown>,
): { field: string; id: string; table: ReferencedTable; label: string }[] {
  const out: { field: string; id: string; table: ReferencedTable; label: string }[] = [];
  for (const [field, ref] of Object.entries(PAYLOAD_REFERENCES)) {
    const id = payload[field];
    if (typeof id === 'string') out.push({ field, id: id.toLowerCase(), ...ref });
  }
  return out;
}
