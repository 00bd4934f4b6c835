/**
 * Every `error_code` a FAILED job can carry, with what it means to the reader of the job. The
 * runtime, the operations and the sources they read may only fail a job with one of these (the
 * compiler checks every `JobError`), the contract lists them as JobView's `error_code` enum, and
 * docs/job-errors.md lists them (a test keeps it in step).
 */
export const SOURCE_ERROR_CODES = {
  source_not_found: 'a file or URL the job reads does not exist',
  source_unreachable: 'a network source did not answer (after retries)',
  unsupported_source: 'a source scheme or store the service does not read',
  source_not_allowed:
    'a source outside the configured roots or hosts (SVC_SOURCE_ALLOWED_ROOTS, SVC_SOURCE_ALLOWED_HOSTS)',
  line_too_long: 'a text source has a line longer than SVC_SOURCE_MAX_LINE_BYTES',
  source_too_large: 'a source decompresses to more than SVC_SOURCE_MAX_BYTES',
  source_too_slow:
    'a network source sent less than SVC_SOURCE_MIN_BYTES_PER_SECOND over SVC_SOURCE_RATE_WINDOW_SECONDS',
  source_timeout: 'a network source did not finish within SVC_SOURCE_DEADLINE_SECONDS',
  corrupt_source: 'a compressed source cannot be decompressed',
} as const;

export const EMBEDDING_BACKEND_ERROR_CODES = {
  invalid_model: 'the embedding model file is not a usable ONNX model',
  invalid_recipe: 'the embedding config names a recipe the backend cannot run',
  invalid_sequence: 'a sequence the backend cannot embed',
  model_not_found: "the embedding config's model file does not exist",
  unknown_backend: 'the embedding config names a backend this worker does not have',
} as const;

export const JOB_ERROR_CODES = {
  // The runtime's own.
  internal_error: 'an unexpected error; the message carries a reference to the log line',
  invalid_payload: "the payload does not match the operation's schema",
  operation_not_hosted: 'the job or step reached a worker that does not host its operation',
  invalid_queue: 'the job names a queue that is not one of the service queues',
  lease_expired: 'the workers running the job stopped answering, more often than the requeue budget',
  quota_exceeded: "a follow-up job was over its submitter's daily quota",
  forbidden_follow_up: "a follow-up job its submitter's role may not queue",
  forbidden_payload:
    "a payload its submitter's role may not queue (a staff-only value, or over the role's cap)",
  // Rows a payload names.
  annotation_set_not_found: 'the annotation set does not exist (or no set of that version is loaded)',
  embedding_config_not_found: 'the embedding config does not exist',
  ontology_snapshot_not_found: 'the ontology snapshot does not exist',
  snapshot_not_found:
    'the former name of ontology_snapshot_not_found, on jobs that failed before the two were one',
  evaluation_set_not_found: 'the evaluation set does not exist',
  prediction_set_not_found: 'the prediction set does not exist',
  query_set_not_found: 'the query set does not exist',
  reranker_not_found: 'the re-ranker does not exist',
  scoring_config_not_found: 'the scoring config does not exist',
  // What the inputs say.
  band_mismatch: "the re-ranker's distance band does not cover the prediction set",
  dataset_exists: 'a dataset of that name exists, or another export is publishing one',
  empty_dataset: 'no train pair has a protein with new experimental terms and an embedding',
  empty_reference_pool: 'the annotation set has no protein to transfer from',
  empty_source: 'the source holds no record',
  invalid_obo: 'the ontology file is not OBO 1.2',
  invalid_search: 'the search settings cannot run on this data',
  invalid_versions: 'the requested versions do not form snapshot pairs',
  lafa_frame_mismatch: 'an evaluation frame does not match the prediction set',
  no_query_embeddings: 'no query has an embedding for the config',
  ontology_mismatch:
    "more of the annotation file's GO ids are unknown or obsolete in the snapshot than the load tolerates",
  ontology_version_conflict: "the ontology file's data-version is loaded already with other content",
  ping_failed: 'the ping operation was asked to fail',
  checksum_mismatch: "a reference file's SHA-256 is not the one its catalog entry or mirror publishes",
  unknown_reference: 'the reference name is not in the catalog',
  reference_too_large:
    "the reference pool needs more memory than the prediction worker's heap has free (SVC_POOL_MEMORY_FRACTION, NODE_OPTIONS=--max-old-space-size)",
  reranker_incomplete: "the re-ranker's files are incomplete",
  reranker_unusable: "the re-ranker's model cannot be read or is not a LightGBM model",
  same_annotation_set: 'old and new annotation sets are the same set',
  search_input_rejected:
    'the search tool (DIAMOND) refused the sequences: nucleotide-only, a character that is no residue, or not FASTA',
  search_tool_missing: 'DIAMOND is not installed on the prediction worker',
  snapshot_mismatch: 'the annotation set was loaded against another ontology snapshot',
  term_embeddings_unreadable: 'the GO term embeddings file cannot be read',
  too_many_malformed_lines: 'more malformed lines than the load tolerates',
  ia_unreadable: 'the information-accretion file cannot be read',
  toi_unreadable: 'the terms-of-interest file cannot be read',
  // Inputs the CAFA evaluator refuses (as the reference evaluator would crash on them).
  evaluation_all_zero_scores: 'every prediction of a namespace scores 0',
  evaluation_toi_empty_namespace: 'the terms of interest name no term of a namespace with ground truth',
  evaluation_known_missing_namespace: 'the known terms have no entry in a namespace with ground truth',
  evaluation_ia_malformed_line: 'an information-accretion line is not `<term> <value>`',
  evaluation_annotation_malformed_line: 'a ground-truth or known-terms line has a single column',
  evaluation_invalid_score: 'a prediction score is not a number',
  evaluation_ontology_cycle: "the ontology's is_a/part_of graph has a cycle",
  evaluation_invalid_option: 'an evaluation option is out of range',
  ...EMBEDDING_BACKEND_ERROR_CODES,
  ...SOURCE_ERROR_CODES,
} as const;

export type SourceErrorCode = keyof typeof SOURCE_ERROR_CODES;
export type EmbeddingBackendErrorCode = keyof typeof EMBEDDING_BACKEND_ERROR_CODES;
export type JobErrorCode = keyof typeof JOB_ERROR_CODES;
