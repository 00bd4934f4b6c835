// The dashboards' view of the HTTP API: same-origin calls under /v1 with the session cookie. The
// types are the contract's, generated from docs/openapi.json (`npm run openapi`).
import { type components, jobViewStatusValues, operationNameValues } from '@svc/client/contract';
import { problemMessage } from './problem-message';

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

export type User = Schemas['UserView'];

export type JobStatus = Schemas['JobView']['status'];
export const JOB_STATUSES: readonly JobStatus[] = jobViewStatusValues;
export const isActive = (status: string | undefined): boolean => status === 'QUEUED' || status === 'RUNNING';

export type Job = Schemas['JobView'];
export type JobEvent = Schemas['JobEventView'];
export type JobComment = Schemas['JobCommentView'];
/** Every operation of the catalogue (the contract's `OperationName`). */
export const OPERATIONS: readonly Schemas['OperationName'][] = operationNameValues;

export type ProteinList = Schemas['ProteinPageView'];
export type PredictionProteinsPage = Schemas['PredictionSetProteinsPageView'];

export type Protein = Schemas['ProteinView'];

export type ProteinDetail = Schemas['ProteinDetailView'];

export type ProteinAnnotation = Schemas['ProteinAnnotationView'];

export type OntologySnapshot = Schemas['OntologySnapshotView'];

export type SubgraphNode = Schemas['SubgraphNodeView'];

export type SubgraphEdge = Schemas['SubgraphEdgeView'];

export type Subgraph = Schemas['SubgraphView'];

export type AnnotationSet = Schemas['AnnotationSetView'];

export type QuerySet = Schemas['QuerySetView'];
export type QuerySetDetail = Schemas['QuerySetDetailView'];

export type EmbeddingConfig = Schemas['EmbeddingConfigView'];

export type PredictionSet = Schemas['PredictionSetView'];
export type PredictionSetSummary = Schemas['PredictionSetSummaryView'];
export type PredictionSetDetail = Schemas['PredictionSetDetailView'];

export type PredictionProtein = Schemas['PredictionSetProteinView'];

export type PredictedTerm = Schemas['PredictionRowView'];

export type TermCount = Schemas['GoTermCountView'];

export type TermDistribution = Schemas['GoTermDistributionView'];

/** A set as its list and its page show it: with the names of its annotation sets and ontology. */
export type EvaluationSetSummary = Schemas['EvaluationSetSummaryView'];

export type MetricBlock = Record<string, number | null | undefined>;

export type EvaluationResult = Schemas['EvaluationResultView'];

export type TaskScore = Schemas['MeanCiView'];

export type MatrixCell = Schemas['BenchmarkCellView'];

export type BenchmarkMatrix = Schemas['BenchmarkMatrixView'];

export type Reranker = Schemas['RerankerView'];

export type Dataset = Schemas['DatasetView'];

export type ExperimentRun = Schemas['ExperimentRunView'];

export type StackRepo = Schemas['StackRepoView'];

export type ApiKey = Schemas['ApiKeyView'];

export type AuditEntry = Schemas['AuditEntryView'];

export type PasswordChanged = Schemas['PasswordChangedView'];

export type AnnotateResponse = Schemas['AnnotateView'];
