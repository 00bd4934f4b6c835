import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** A job as `GET /v1/jobs/{id}` answers it (components.schemas.JobView of docs/openapi.json). */
export interface JobView {
  id: string;
  operation: string;
  queue_name: string;
  status: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  payload: Record<string, unknown>;
  meta: Record<string, unknown>;
  result: Record<string, unknown> | null;
  parent_job_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress_current: number | null;
  progress_total: number | null;
  error_code: string | null;
  error_message: string | null;
  dedup_key: string | null;
  leased_until: string | null;
  description: string | null;
  findings: string | null;
  tags: string[];
}

/** The answer of `POST /v1/jobs` (components.schemas.QueuedJobView). */
export interface QueuedJobView {
  id: string;
  status: 'queued';
}

/** The fields of the two views, for the test that compares them with the contract. */
export const JOB_VIEW_FIELDS: readonly (keyof JobView)[] = [
  'id',
  'operation',
  'queue_name',
  'status',
  'payload',
  'meta',
  'result',
  'parent_job_id',
  'created_at',
  'started_at',
  'finished_at',
  'progress_current',
  'progress_total',
  'error_code',
  'error_message',
  'dedup_key',
  'leased_until',
  'description',
  'findings',
  'tags',
];
export const QUEUED_JOB_VIEW_FIELDS: readonly (keyof QueuedJobView)[] = ['id', 'status'];

/** An RFC 7807 problem as the service answers it. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: { path?: string; message?: string }[];
}

/** A 4xx or 5xx answer: the status and the problem document when there is one. */
export class SvcApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
    readonly path: string,
  ) {
    super(`${status} ${problem?.title ?? 'error'} on ${path}${problem?.detail ? `: ${problem.detail}` : ''}`);
    this.name = 'SvcApiError';
  }
}

/** A job that ended FAILED or CANCELLED while being waited for. */
export class SvcJobError extends Error {
  constructor(readonly job: JobView) {
    super(
      `job ${job.id} (${job.operation}) ${job.status}: ${job.error_code ?? ''} ${job.error_message ?? ''}`.trim(),
    );
    this.name = 'SvcJobError';
  }
}

export interface SvcClientOptions {
  /** The service's origin, e.g. http://127.0.0.1:8000. */
  baseUrl: string;
  /** An API key (sent as X-Api-Key). */
  apiKey?: string;
  /** A bearer token (a session JWT). */
  token?: string;
  fetch?: typeof fetch;
}

export interface AnnotateAnswer {
  query_set_id: string;
  embedding_job_id: string;
  embedding_config_id: string;
  annotation_set_id: string;
  ontology_snapshot_id: string;
  links: { query_set: string; embedding_job: string; prediction_set: string; dashboard: string };
}

export type ExportFormat = 'tsv' | 'cafa' | 'gaf' | 'json' | 'zip';

/** The download path of each format of a prediction set (docs/prediction.md, "Exports"). */
export const EXPORT_FILES: Record<ExportFormat, string> = {
  tsv: 'predictions.tsv',
  cafa: 'predictions-cafa.tsv',
  gaf: 'predictions.gaf',
  json: 'predictions.json',
  zip: 'predictions.zip',
};

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/** Every route the client calls, as docs/openapi.json names it (a test checks they are there). */
export const CLIENT_ROUTES: readonly (readonly [method: 'get' | 'post', path: string])[] = [
  ['post', '/v1/jobs'],
  ['get', '/v1/jobs'],
  ['get', '/v1/jobs/{id}'],
  ['post', '/v1/jobs/{id}/cancel'],
  ['post', '/v1/annotate'],
  ...Object.values(EXPORT_FILES).map(
    (file) => ['get', `/v1/embeddings/prediction-sets/{id}/${file}`] as const,
  ),
];

/**
 * A typed client of the service's `/v1` API (the routes are those of docs/openapi.json; a test keeps
 * them there): jobs (submit, read, wait with progress, cancel), one-click annotation and streamed
 * downloads of prediction sets.
 */
export class SvcClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SvcClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? fetch;
  }

  /** POST /v1/jobs: queues an operation on its queue. */
  submitJob(operation: string, payload: Record<string, unknown>, queueName?: string): Promise<QueuedJobView> {
    return this.json('POST', '/v1/jobs', {
      operation,
      payload,
      ...(queueName ? { queue_name: queueName } : {}),
    });
  }

  job(id: string): Promise<JobView> {
    return this.json('GET', `/v1/jobs/${encodeURIComponent(id)}`);
  }

  listJobs(query: { status?: string; operation?: string; limit?: number } = {}): Promise<JobView[]> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return this.json('GET', `/v1/jobs${qs ? `?${qs}` : ''}`);
  }

  cancelJob(id: string): Promise<JobView> {
    return this.json('POST', `/v1/jobs/${encodeURIComponent(id)}/cancel`);
  }

  /**
   * Polls a job until it ends; `onProgress` sees every state read. Resolves with a SUCCEEDED job,
   * rejects with `SvcJobError` for FAILED or CANCELLED and with a timeout error past `timeoutMs`.
   */
  async waitForJob(
    id: string,
    options: { onProgress?: (job: JobView) => void; intervalMs?: number; timeoutMs?: number } = {},
  ): Promise<JobView> {
    const deadline = Date.now() + (options.timeoutMs ?? 24 * 3600 * 1000);
    for (;;) {
      const job = await this.job(id);
      options.onProgress?.(job);
      if (TERMINAL.has(job.status)) {
        if (job.status !== 'SUCCEEDED') throw new SvcJobError(job);
        return job;
      }
      if (Date.now() > deadline) throw new Error(`job ${id} did not end within ${options.timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
    }
  }

  /** POST /v1/annotate: a FASTA in, the ids and links of the run out. */
  async annotate(input: { fasta: string; name?: string; saveHistory?: boolean }): Promise<AnnotateAnswer> {
    const form = new FormData();
    if (input.name !== undefined) form.set('name', input.name);
    form.set('file', new Blob([input.fasta], { type: 'text/plain' }), `${input.name ?? 'proteins'}.fasta`);
    const path = `/v1/annotate?save_history=${input.saveHistory === true}`;
    return this.parse(path, await this.request('POST', path, form));
  }

  /** Streams one export of a prediction set to a file; `minScore` applies to GAF, JSON and ZIP. */
  async download(
    predictionSetId: string,
    format: ExportFormat,
    file: string,
    minScore?: number,
  ): Promise<void> {
    const scored = minScore !== undefined && (format === 'gaf' || format === 'json' || format === 'zip');
    const path =
      `/v1/embeddings/prediction-sets/${encodeURIComponent(predictionSetId)}/${EXPORT_FILES[format]}` +
      (scored ? `?min_score=${minScore}` : '');
    const response = await this.request('GET', path);
    if (!response.ok) await this.parse(path, response);
    if (response.body === null) throw new Error(`${path}: empty answer`);
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(file));
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.parse<T>(
      path,
      await this.request(method, path, body === undefined ? undefined : JSON.stringify(body)),
    );
  }

  private request(method: string, path: string, body?: string | FormData): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (this.options.token) headers['authorization'] = `Bearer ${this.options.token}`;
    return this.fetch(`${this.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  }

  private async parse<T>(path: string, response: Response): Promise<T> {
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed: unknown = type.includes('json') && text !== '' ? JSON.parse(text) : text;
    if (!response.ok) {
      throw new SvcApiError(
        response.status,
        typeof parsed === 'object' && parsed !== null ? parsed : null,
        path,
      );
    }
    return parsed as T;
  }
}
