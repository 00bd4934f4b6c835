import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpClient } from './http-client';
import { WORKSPACE_ROOT } from './test-environment';
import { waitForJobEnd } from './wait-for';

/** The shared real data beside the workspace (see its README): tiny/ and mini/ holdouts. */
export const SHARED_DATA_DIR =
  process.env['SVC_TEST_SHARED_DATA'] ?? join(WORKSPACE_ROOT, '..', 'shared', 'data');

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface EmbeddingWorkload {
  jobId: string;
  configId: string;
  querySetId: string;
  /** Distinct sequences of the query set: the job's progress total and its embedding row count. */
  sequences: number;
}

/**
 * Queues compute_embeddings (k-mer backend, one vector per sequence) over a FASTA file of the shared
 * data, uploaded as a query set, split into many small batches so that steps are in flight for a while.
 * Workloads share the k-mer config; each job embeds all of its set (skip_existing false).
 */
export async function queueEmbeddingWorkload(
  api: HttpClient,
  options: { fasta: string; name: string; sequencesPerJob: number; batchSize?: number },
): Promise<EmbeddingWorkload> {
  const form = new FormData();
  form.set('name', options.name);
  const text = readFileSync(join(SHARED_DATA_DIR, options.fasta), 'utf8');
  form.set('file', new Blob([text], { type: 'text/plain' }), `${options.name}.fasta`);
  const uploaded = await fetch(`${api.baseUrl}/v1/query-sets`, { method: 'POST', body: form });
  if (uploaded.status !== 201)
    throw new Error(`query set upload answered ${uploaded.status}: ${await uploaded.text()}`);
  const set = (await uploaded.json()) as { id: string; unique_sequences: number };
  const config = await api.post<{ id: string }>('/v1/embeddings/configs', {
    model_name: 'kmer-v1',
    model_backend: 'kmer',
  });
  if (config.status !== 201 && config.status !== 200)
    throw new Error(`config answered ${config.status}: ${config.text}`);
  const queued = await api.post<{ id: string }>('/v1/embeddings/compute', {
    embedding_config_id: config.body.id,
    query_set_id: set.id,
    sequences_per_job: options.sequencesPerJob,
    batch_size: options.batchSize ?? 1,
    // Every sequence of the set is this job's work, even one an earlier workload embedded already.
    skip_existing: false,
  });
  if (queued.status !== 201) throw new Error(`compute answered ${queued.status}: ${queued.text}`);
  return {
    jobId: queued.body.id,
    configId: config.body.id,
    querySetId: set.id,
    sequences: set.unique_sequences,
  };
}

export interface StoredEmbeddings {
  rows: number;
  sequences: number;
  /** Sequences of the query set without a vector. */
  missing: number;
}

/**
 * What the database holds for a workload's sequences (k-mer: one vector each): every sequence once,
 * none missing, is the expected answer.
 */
export async function storedEmbeddings(query: Query, workload: EmbeddingWorkload): Promise<StoredEmbeddings> {
  const [row] = await query(
    `WITH wanted AS (SELECT DISTINCT sequence_id FROM query_set_entry WHERE query_set_id = $2),
          stored AS (SELECT e.sequence_id FROM embedding e JOIN wanted w USING (sequence_id)
                      WHERE e.embedding_config_id = $1)
     SELECT (SELECT count(*)::int FROM stored) AS rows,
            (SELECT count(DISTINCT sequence_id)::int FROM stored) AS sequences,
            (SELECT count(*)::int FROM wanted w WHERE NOT EXISTS (
               SELECT 1 FROM stored s WHERE s.sequence_id = w.sequence_id)) AS missing`,
    [workload.configId, workload.querySetId],
  );
  return row as unknown as StoredEmbeddings;
}

/** Jobs of the database that are not SUCCEEDED, FAILED or CANCELLED (none, once a fault test settles). */
export async function unfinishedJobs(query: Query): Promise<{ id: string; status: string }[]> {
  return (await query(
    `SELECT id, status FROM job WHERE status NOT IN ('SUCCEEDED', 'FAILED', 'CANCELLED') ORDER BY created_at`,
  )) as { id: string; status: string }[];
}

/**
 * Waits for a job to end like `waitForJobEnd`; on a timeout the error also shows the job, its events
 * (per-batch ones left out) and the warnings and errors of the given process log, since a fault test
 * that hangs is otherwise hard to read.
 */
export async function waitForJobEndExplained<T extends { status: string }>(
  api: HttpClient,
  id: string,
  timeoutMs: number,
  log: () => string = () => '',
): Promise<T> {
  try {
    return await waitForJobEnd<T>(api, id, timeoutMs);
  } catch (error) {
    const job = (await api.get(`/v1/jobs/${id}`).catch(() => null))?.body;
    const events = ((await api.get(`/v1/jobs/${id}/events?limit=1000`).catch(() => null))?.body ?? []) as {
      event: string;
      message: string | null;
      fields: unknown;
    }[];
    const lines = log()
      .split('\n')
      .filter((line) => !line.includes('"level":"info"') || line.includes('redelivered'))
      .slice(-40);
    throw new Error(
      [
        (error as Error).message,
        `job: ${JSON.stringify(job)}`,
        'events (newest first):',
        ...events
          .filter((e) => !e.event.endsWith('_batch.done'))
          .map((e) => `  ${e.event} ${e.message ?? ''} ${JSON.stringify(e.fields)}`),
        'log:',
        ...lines,
      ].join('\n'),
    );
  }
}
