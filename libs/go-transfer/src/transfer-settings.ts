import type { PredictionSetRecord } from '@svc/persistence';

/**
 * What a transfer run needs to know: the reference (embedding config, annotation set, snapshot), the
 * search (k, threshold, backend, one index per aspect or one for all) and the feature flags in
 * `options`. A prediction set carries exactly these fields; a dataset export builds them per pair.
 */
export type TransferSettings = Pick<
  PredictionSetRecord,
  | 'embedding_config_id'
  | 'annotation_set_id'
  | 'ontology_snapshot_id'
  | 'limit_per_entry'
  | 'distance_threshold'
  | 'search_backend'
  | 'aspect_separated_knn'
  | 'options'
> & {
  /** The set's query set: the homology path reads what its upload says is known of each query. */
  query_set_id?: string | null;
};
