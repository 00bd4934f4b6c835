// The dashboards' view of the HTTP API: same-origin calls under /v1 with the session cookie. The
// types are the contract's, generated from docs/openapi.json (`npm run openapi`).
import { type components, jobViewStatusValues, operationNameValues } from '@svc/client/contract';

type Schemas = components['schemas'];

export const API = '/v1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

interface Problem {
  title?: string;
  detail?: string;
  errors?: { path?: string; message?: string }[];
}

function problemMessage(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const problem = body as Problem;
    const details = (problem.errors ?? []).map((e) => e.message).filter((m): m is string => Boolean(m));
    if (details.length > 0) return details.join('; ');
    if (problem.detail) return problem.detail;
    if (problem.title) return problem.title;
  }
  return `request failed (HTTP ${status})`;
}

async function parse(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  return type.includes('json') ? response.json() : response.text();
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  const response = await fetch(`${API}${path}`, init);
  const parsed = await parse(response);
  if (!response.ok) throw new ApiError(response.status, problemMessage(response.status, parsed), parsed);
  return parsed as T;
}

export const get = <T>(path: string): Promise<T> => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown): Promise<T> => request<T>('POST', path, body);
export const patch = <T>(path: string, body?: unknown): Promise<T> => request<T>('PATCH', path, body);
export const del = <T>(path: string): Promise<T> => request<T>('DELETE', path);

/** A query string from the defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export type Role = 'guest' | 'researcher' | 'operator' | 'admin';
export const ROLE_ORDER: Role[] = ['guest', 'researcher', 'operator', 'admin'];
export const atLeast = (role: Role | undefined, floor: Role): boolean =>
  ROLE_ORDER.indexOf(role ?? 'guest') >= ROLE_ORDER.indexOf(floor);

export interface User {
  id: string;
  email: string;
  username: string;
  display_name: string;
  role: Role;
  status: string;
  intended_use?: string | null;
  created_at?: string;
  last_login_at?: string | null;
}

export type JobStatus = Schemas['JobView']['status'];
export const JOB_STATUSES: readonly JobStatus[] = jobViewStatusValues;
export const isActive = (status: string | undefined): boolean => status === 'QUEUED' || status === 'RUNNING';

export type Job = Schemas['JobView'];
export type JobEvent = Schemas['JobEventView'];
export type JobComment = Schemas['JobCommentView'];
/** Every operation of the catalogue (the contract's `OperationName`). */
export const OPERATIONS: readonly Schemas['OperationName'][] = operationNameValues;

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface Protein {
  accession: string;
  canonical_accession: string;
  is_canonical: boolean;
  entry_name: string | null;
  gene_name: string | null;
  organism: string | null;
  taxonomy_id: string | null;
  length: number | null;
  reviewed: boolean | null;
  updated_at: string;
}

export interface ProteinDetail extends Protein {
  metadata: Record<string, string | null> | null;
  embedding_count: number;
  go_annotation_count: number;
  isoform_accessions: string[];
}

export interface ProteinAnnotation {
  id: string;
  annotation_set_id: string;
  source: string;
  source_version: string;
  go_id: string;
  go_name: string | null;
  go_aspect: string | null;
  qualifier: string | null;
  is_not: boolean;
  evidence_code: string | null;
  assigned_by: string | null;
  annotation_date: string | null;
}

export interface OntologySnapshot {
  id: string;
  obo_version: string;
  obo_url: string;
  loaded_at: string;
  ia_url: string | null;
  term_count: number;
  relationship_count?: number;
}

export interface SubgraphNode {
  id: number;
  go_id: string;
  name: string;
  aspect: string | null;
  is_query: boolean;
}

export interface SubgraphEdge {
  source: number;
  target: number;
  relation_type: string;
}

export interface Subgraph {
  nodes: SubgraphNode[];
  edges: SubgraphEdge[];
}

export interface AnnotationSet {
  id: string;
  source: string;
  source_version: string;
  ontology_snapshot_id: string;
  obo_version?: string;
  annotation_count: number;
  created_at: string;
  job_id?: string | null;
}

export interface QuerySet {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  entry_count?: number;
  entries?: { id: number; accession: string; sequence_id: number; species: string | null }[];
}

export interface EmbeddingConfig {
  id: string;
  model_name: string;
  model_backend: string;
  pooling?: string;
  layer_agg?: string;
  max_length?: number;
  use_chunking?: boolean;
  description: string | null;
  created_at: string;
  embedding_count: number;
}

export interface PredictionSet {
  id: string;
  job_id: string | null;
  embedding_config_id: string;
  annotation_set_id: string;
  ontology_snapshot_id: string;
  query_set_id: string | null;
  limit_per_entry: number | null;
  embedding_config_name?: string;
  annotation_set_label?: string;
  ontology_version?: string;
  job_status?: string;
  prediction_count: number;
  protein_count?: number;
  /** False for annotation runs: a query's own accession may donate to it. */
  exclude_self?: boolean;
  created_at: string;
}

export interface PredictionProtein {
  protein_accession: string;
  go_count: number;
  min_distance: number | null;
  /** The best row score of the protein (docs/prediction.md, "Score"). */
  best_score: number | null;
  annotation_count: number;
  match_count: number;
}

export interface PredictedTerm {
  protein_accession: string;
  go_id: string;
  go_name: string | null;
  go_aspect: string | null;
  distance: number;
  /** The row's score in [0, 1]: the calibrated homology blend, or 1 - d/2 for an embedding search. */
  score: number;
  /** Null for a term scored by the prior alone (no homolog carries it). */
  ref_protein_accession: string | null;
  evidence_code: string | null;
  identity_nw: number | null;
  identity_sw: number | null;
  taxonomic_relation: string | null;
  vote_count: number | null;
  /** The donor is the query's own accession or an isoform of it. */
  self_hit?: boolean;
}

export interface TermCount {
  aspect: string;
  go_id: string;
  go_name: string | null;
  prediction_count: number;
  protein_count: number;
}

export interface TermDistribution {
  terms: Record<string, TermCount[]>;
  totals: Record<string, { aspect: string; predictions: number; terms: number; proteins: number }>;
}

export interface EvaluationSet {
  id: string;
  old_annotation_set_id: string;
  new_annotation_set_id: string;
  ontology_snapshot_id: string;
  ontology_version?: string;
  old_annotation_set_label?: string;
  new_annotation_set_label?: string;
  stats: Record<string, number>;
  result_count?: number;
  created_at: string;
}

export type MetricBlock = Record<string, number | undefined>;

export interface EvaluationResult {
  id: string;
  evaluation_set_id: string;
  prediction_set_id: string;
  scoring_config_id: string | null;
  scoring_config_name?: string | null;
  reranker_model_id: string | null;
  stage: string | null;
  band: string | null;
  metrics: Record<string, Record<string, MetricBlock>>;
  artifact_keys?: string[];
  created_at: string;
}

export interface TaskScore {
  mean: number;
  ci95: number;
  n: number;
}

export interface MatrixCell {
  embedding: string;
  embedding_label: string;
  stage: string;
  stage_label: string;
  primary_metric: string;
  tasks: Record<string, Record<string, TaskScore>>;
  per_task: TaskScore;
  results: number;
  /** Results of the (embedding, stage) without the cell's metric, left out of it. */
  excluded_results?: number;
}

export interface BenchmarkMatrix {
  categories: string[];
  aspects: string[];
  stages: string[];
  embeddings: string[];
  cells: MatrixCell[];
}

export interface Reranker {
  id: string;
  name: string;
  artifact_uri?: string | null;
  feature_schema_sha?: string | null;
  external_source?: string | null;
  created_at?: string;
  metrics?: Record<string, unknown> | null;
}

export interface Dataset {
  id: string;
  name: string;
  operation?: string;
  annotation_source?: string;
  k?: number;
  n_train_rows?: number;
  n_eval_rows?: number;
  manifest_uri?: string;
  created_at: string;
}

export interface ExperimentRun {
  id: string;
  name: string;
  status: string;
  description: string | null;
  hypothesis: string | null;
  findings: string | null;
  tags: string[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface StackRepo {
  name: string;
  slug: string;
  role: string;
  role_label: string;
  status: string;
  summary: string;
  github_url: string;
  docs_url: string | null;
  package_url: string | null;
}

export interface ApiKey {
  id: string;
  user_id?: string;
  prefix: string;
  name: string;
  role: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuditEntry {
  id: number;
  actor_user_id: string | null;
  action: string;
  target: string | null;
  payload: Record<string, unknown>;
  occurred_at: string;
}

export interface AnnotateResponse {
  query_set_id: string;
  embedding_job_id: string;
  embedding_config_id: string;
  annotation_set_id: string;
  ontology_snapshot_id: string;
}
