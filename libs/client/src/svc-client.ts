import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { components, paths } from './generated/openapi';

/** The contract's schemas, as openapi-typescript generates them from docs/openapi.json. */
export type Schemas = components['schemas'];
/** A job as `GET /v1/jobs/{id}` answers it. */
export type JobView = Schemas['JobView'];
/** One event of a job's timeline, as `GET /v1/jobs/{id}/events` answers it. */
export type JobEventView = Schemas['JobEventView'];
/** The answer of `POST /v1/jobs`. */
export type QueuedJobView = Schemas['QueuedJobView'];
/** An RFC 7807 problem as the service answers it. */
export type Problem = Schemas['ProblemView'];
/** A route of the contract. */
export type RoutePath = keyof paths;

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

/** The service did not answer (refused, reset, unknown host, timeout): names the URL and the cause. */
export class SvcUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    const reason = (cause as { cause?: { code?: string; message?: string } })?.cause;
    super(
      `could not reach ${url}: ${reason?.code ?? reason?.message ?? (cause as Error)?.message ?? String(cause)}`,
    );
    this.name = 'SvcUnreachableError';
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

/** The answer of `POST /v1/annotate`: the ids and links of the run. */
export type AnnotateAnswer = Schemas['AnnotateView'];

/** Which reference annotations donate to a one-click run (`donor_evidence`). */
export type DonorEvidence = Schemas['ReferenceSummaryView']['donor_evidence'];

/** A reference of the catalog with its installs (`svc reference list/show`). */
export type ReferenceEntry = Schemas['ReferenceEntryView'];

export type ExportFormat = 'tsv' | 'cafa' | 'gaf' | 'json' | 'zip';

/** The download route of each format of a prediction set (docs/prediction.md, "Exports"). */
export const EXPORT_ROUTES = {
  tsv: '/v1/embeddings/prediction-sets/{id}/predictions.tsv',
  cafa: '/v1/embeddings/prediction-sets/{id}/predictions-cafa.tsv',
  gaf: '/v1/embeddings/prediction-sets/{id}/predictions.gaf',
  json: '/v1/embeddings/prediction-sets/{id}/predictions.json',
  zip: '/v1/embeddings/prediction-sets/{id}/predictions.zip',
} as const satisfies Record<ExportFormat, RoutePath>;

/** The file name of each format (the last segment of its route). */
export const EXPORT_FILES = Object.fromEntries(
  Object.entries(EXPORT_ROUTES).map(([format, route]) => [format, route.slice(route.lastIndexOf('/') + 1)]),
) as Record<ExportFormat, string>;

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/** Every route the client calls, as docs/openapi.json names it (a test checks they are there). */
export const CLIENT_ROUTES: readonly (readonly [method: 'get' | 'post', path: RoutePath])[] = [
  ['post', '/v1/jobs'],
  ['get', '/v1/jobs'],
  ['get', '/v1/jobs/{id}'],
  ['post', '/v1/jobs/{id}/cancel'],
  ['post', '/v1/annotate'],
  ...Object.values(EXPORT_ROUTES).map((route) => ['get', route] as const),
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

  /** The service's base URL, for making its relative links (`links.dashboard`) absolute. */
  get url(): string {
    return `${this.baseUrl}/`;
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

  /** GET /v1/jobs; `include_children` lists the jobs other jobs queued too (a run's prediction job). */
  listJobs(
    query: { status?: string; operation?: string; limit?: number; include_children?: boolean } = {},
  ): Promise<JobView[]> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return this.json('GET', `/v1/jobs${qs ? `?${qs}` : ''}`);
  }

  /** GET /v1/jobs/{id}/events: the job's events, newest first (at most `limit`). */
  jobEvents(id: string, query: { limit?: number } = {}): Promise<JobEventView[]> {
    const qs = query.limit !== undefined ? `?limit=${query.limit}` : '';
    return this.json('GET', `/v1/jobs/${encodeURIComponent(id)}/events${qs}`);
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
      const job = await this.jobRidingOutOutages(id, deadline);
      if (job === null) {
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
        continue;
      }
      options.onProgress?.(job);
      if (TERMINAL.has(job.status)) {
        if (job.status !== 'SUCCEEDED') throw new SvcJobError(job);
        return job;
      }
      if (Date.now() > deadline) throw new Error(`job ${id} did not end within ${options.timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
    }
  }

  /**
   * The job, or null while the service is briefly unavailable (503, or no answer): a long load can hold
   * the standalone mode's one database session for seconds, and a restart takes a few; the job goes
   * on meanwhile. Other errors, and an outage past the deadline, are thrown.
   */
  private async jobRidingOutOutages(id: string, deadline: number): Promise<JobView | null> {
    try {
      return await this.job(id);
    } catch (error) {
      const transient =
        (error instanceof SvcApiError && (error.status === 503 || error.status === 502)) ||
        error instanceof SvcUnreachableError;
      if (!transient || Date.now() > deadline) throw error;
      return null;
    }
  }

  /**
   * POST /v1/annotate: a FASTA in, the ids and links of the run out (`prediction_job_id` names the job
   * to wait for). `taxon` is the NCBI taxonomy id of the records whose header has no OX= (the taxon of
   * their GAF lines); `donorEvidence` which reference annotations donate (default: the reference's).
   */
  async annotate(input: {
    fasta: string;
    name?: string;
    saveHistory?: boolean;
    taxon?: number;
    donorEvidence?: DonorEvidence;
  }): Promise<AnnotateAnswer> {
    const form = new FormData();
    if (input.name !== undefined) form.set('name', input.name);
    if (input.taxon !== undefined) form.set('taxon', String(input.taxon));
    if (input.donorEvidence !== undefined) form.set('donor_evidence', input.donorEvidence);
    form.set('file', new Blob([input.fasta], { type: 'text/plain' }), `${input.name ?? 'proteins'}.fasta`);
    const path = `/v1/annotate?save_history=${input.saveHistory === true}`;
    return this.parse(path, await this.request('POST', path, form));
  }

  /** GET /v1/references: the reference catalog and what is installed of it. */
  references(): Promise<ReferenceEntry[]> {
    return this.json('GET', '/v1/references');
  }

  reference(name: string): Promise<ReferenceEntry> {
    return this.json('GET', `/v1/references/${encodeURIComponent(name)}`);
  }

  /** POST /v1/references/install (operator): queues the install of a named reference, from a mirror if given. */
  installReference(name: string, mirror?: string): Promise<QueuedJobView> {
    return this.json('POST', '/v1/references/install', { name, ...(mirror !== undefined ? { mirror } : {}) });
  }

  /**
   * Streams one export of a prediction set to a file. `minScore` keeps the terms (CAFA, GAF, JSON)
   * or rows (TSV) scoring at least it, in every format and ZIP entry; without it, everything.
   */
  async download(
    predictionSetId: string,
    format: ExportFormat,
    file: string,
    minScore?: number,
  ): Promise<void> {
    const path =
      `/v1/embeddings/prediction-sets/${encodeURIComponent(predictionSetId)}/${EXPORT_FILES[format]}` +
      (minScore !== undefined ? `?min_score=${minScore}` : '');
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

  private async request(method: string, path: string, body?: string | FormData): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (this.options.token) headers['authorization'] = `Bearer ${this.options.token}`;
    const url = `${this.baseUrl}${path}`;
    try {
      return await this.fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      throw new SvcUnreachableError(url, error);
    }
  }

  private async parse<T>(path: string, response: Response): Promise<T> {
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed: unknown = type.includes('json') && text !== '' ? JSON.parse(text) : text;
    if (!response.ok) {
      throw new SvcApiError(response.status, isProblem(parsed) ? parsed : null, path);
    }
    return parsed as T;
  }
}

/** An answer body is a problem when it has the members every problem has. */
function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Record<string, unknown>;
  return typeof candidate['status'] === 'number' && typeof candidate['title'] === 'string';
}
