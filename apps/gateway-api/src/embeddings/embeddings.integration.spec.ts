import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppProcess, HttpClient, spawnApp, testConfig, waitForJobEnd } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const DATA = resolve(__dirname, '../../../../../shared/data');

interface Job {
  id: string;
  status: string;
  progress_current: number | null;
  progress_total: number | null;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}
interface Config {
  id: string;
  model_name: string;
  model_backend: string;
  embedding_count: number;
  [key: string]: unknown;
}

async function uploadFasta(
  api: HttpClient,
  name: string,
  fasta: string,
): Promise<{ id: string; entry_count: number; unique_sequences: number }> {
  const form = new FormData();
  form.set('name', name);
  form.set('file', new Blob([fasta], { type: 'text/plain' }), `${name}.fasta`);
  const response = await fetch(`${api.baseUrl}/v1/query-sets`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; entry_count: number; unique_sequences: number };
}

describe('embeddings: configs, compute through the real queues, storage, maintenance', () => {
  let gateway: Gateway;
  let worker: AppProcess;
  let api: HttpClient;
  // The models folder the gateway and the worker share.
  const modelsDir = mkdtempSync(join(tmpdir(), 'svc-models-'));

  const waitForJob = (id: string): Promise<Job> => waitForJobEnd<Job>(api, id);

  beforeAll(async () => {
    gateway = await createGateway(testConfig({ SVC_MODELS_DIR: modelsDir }));
    api = new HttpClient(gateway.url);
    worker = await spawnApp('embedding-worker', { SVC_MODELS_DIR: modelsDir });
    await worker.waitForLog('worker started');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
    rmSync(modelsDir, { recursive: true, force: true });
  });

  it('validates configs, listing every problem; the same recipe is the same config', async () => {
    const bad = await api.post<{ status: number; errors: { message: string }[]; messages: string[] }>(
      '/v1/embeddings/configs',
      {
        model_name: '../x',
        model_backend: 'bert',
        pooling: 'attention',
        chunk_size: 10,
        chunk_overlap: 10,
        colour: 'blue',
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body.messages).toHaveLength(5);
    const created = await api.post<Config>('/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
      description: 'default',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      model_backend: 'kmer',
      layer_indices: [0],
      pooling: 'mean',
      normalize: true,
      embedding_count: 0,
    });
    const again = await api.post<Config>('/embeddings/configs', {
      model_backend: 'kmer',
      model_name: 'kmer-v1',
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    expect((await api.get<Config>(`/v1/embeddings/configs/${created.body.id}`)).body.model_name).toBe(
      'kmer-v1',
    );
    expect((await api.get(`/v1/embeddings/configs/${randomUUID()}`)).status).toBe(404);
    const backends = await api.get<{ group: string; plugins: { name: string }[] }>('/v1/embedding-backends');
    expect(backends.body.plugins.map((p) => p.name)).toEqual(['kmer', 'esm', 't5', 'ankh']);
  });

  it('computes k-mer embeddings for a query set: progress reaches the total, one vector per unique sequence', async () => {
    const fasta = readFileSync(resolve(DATA, 'tiny/sequences.fasta'), 'utf8');
    const first = fasta.split('\n>')[1]!.split('\n');
    // The first record again under another name: the same sequence must be embedded once.
    const duplicate = `>duplicate-of-first\n${first.slice(1).join('\n')}\n`;
    const set = await uploadFasta(api, 'tiny-targets', `${fasta.trim()}\n${duplicate}`);
    expect(set.unique_sequences).toBe(set.entry_count - 1);
    const config = (
      await api.post<Config>('/v1/embeddings/configs', { model_name: 'kmer-v1', model_backend: 'kmer' })
    ).body;
    const queued = await api.post<{ id: string }>('/v1/embeddings/compute', {
      embedding_config_id: config.id,
      query_set_id: set.id,
      sequences_per_job: 7,
      batch_size: 4,
    });
    expect(queued.status).toBe(201);
    const job = await waitForJob(queued.body.id);
    expect(job.error_message).toBeNull();
    expect(job.status).toBe('SUCCEEDED');
    expect(job.progress_total).toBe(set.unique_sequences);
    expect(job.progress_current).toBe(set.unique_sequences);
    const [stored] = await gateway.infra.db.query(
      `SELECT count(*)::int AS rows, count(DISTINCT sequence_id)::int AS sequences, min(dimension) AS dim, max(dimension) AS dim_max,
              bool_and(length(vector) = dimension * 4) AS sized
         FROM embedding WHERE embedding_config_id = $1`,
      [config.id],
    );
    expect(stored).toMatchObject({
      rows: set.unique_sequences,
      sequences: set.unique_sequences,
      sized: true,
    });
    expect(stored.dim).toBe(stored.dim_max);
    const events = (await api.get<{ event: string }[]>(`/v1/jobs/${queued.body.id}/events`)).body.map(
      (e) => e.event,
    );
    expect(events).toEqual(
      expect.arrayContaining([
        'compute_embeddings.planned',
        'job.deferred',
        'compute_embeddings_batch.done',
        'job.succeeded',
      ]),
    );

    // Nothing left to do: skip_existing answers at once with zero sequences.
    const rerun = await waitForJob(
      (
        await api.post<{ id: string }>('/v1/embeddings/compute', {
          embedding_config_id: config.id,
          query_set_id: set.id,
        })
      ).body.id,
    );
    expect(rerun.status).toBe('SUCCEEDED');
    expect(rerun.result).toMatchObject({ sequences: 0 });
    const listed = (await api.get<Config[]>('/v1/embeddings/configs')).body.find((c) => c.id === config.id);
    expect(listed).toBeDefined();
  });

  it('404 for unknown references before queueing; 422 for bad payloads', async () => {
    expect((await api.post('/v1/embeddings/compute', { embedding_config_id: randomUUID() })).status).toBe(
      404,
    );
    const config = (
      await api.post<Config>('/v1/embeddings/configs', { model_name: 'kmer-v1', model_backend: 'kmer' })
    ).body;
    expect(
      (
        await api.post('/v1/embeddings/compute', {
          embedding_config_id: config.id,
          query_set_id: randomUUID(),
        })
      ).status,
    ).toBe(404);
    expect((await api.post('/v1/embeddings/compute', { embedding_config_id: 'x' })).status).toBe(422);
    expect(
      (await api.post('/v1/embeddings/compute', { embedding_config_id: config.id, batch_size: 0 })).status,
    ).toBe(422);
  });

  it('a config whose backend cannot run the model is a 422 naming the models it can run', async () => {
    const kmer = await api.post<{ errors: { path: string; message: string }[]; messages: string[] }>(
      '/v1/embeddings/configs',
      { model_name: 'kmer', model_backend: 'kmer' },
    );
    expect(kmer.status).toBe(422);
    expect(kmer.body.errors).toEqual([
      { path: 'model_name', message: "model_name 'kmer' is not a known k-mer recipe (one of kmer-v1)" },
    ]);
    const missing = await api.post<{ messages: string[] }>('/v1/embeddings/configs', {
      model_name: 'esm2-missing',
      model_backend: 'esm',
      pooling: 'cls',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.messages).toEqual([
      "model_name 'esm2-missing' is not a known installed esm model (none is available)",
    ]);
    // An installed model (model.onnx and the family's vocabulary) is accepted and listed to others.
    mkdirSync(join(modelsDir, 'esm2-installed'));
    for (const file of ['model.onnx', 'vocab.txt'])
      writeFileSync(join(modelsDir, 'esm2-installed', file), '');
    const installed = await api.post<Config>('/v1/embeddings/configs', {
      model_name: 'esm2-installed',
      model_backend: 'esm',
      pooling: 'cls',
    });
    expect(installed.status).toBe(201);
    const other = await api.post<{ messages: string[] }>('/v1/embeddings/configs', {
      model_name: 'esm2-other',
      model_backend: 'esm',
    });
    expect(other.body.messages).toEqual([
      "model_name 'esm2-other' is not a known installed esm model (one of esm2-installed)",
    ]);

    // Removed after the config was stored: the job fails with model_not_found and the path.
    rmSync(join(modelsDir, 'esm2-installed'), { recursive: true, force: true });
    const set = await uploadFasta(api, 'one', '>q1\nMKTAYIAKQR\n');
    const job = await waitForJob(
      (
        await api.post<{ id: string }>('/v1/embeddings/compute', {
          embedding_config_id: installed.body.id,
          query_set_id: set.id,
        })
      ).body.id,
    );
    expect(job.status).toBe('FAILED');
    expect(job.error_code).toBe('model_not_found');
    expect(job.error_message).toContain('esm2-installed');
  });

  it('unindexed embeddings: counted and deleted once their query set is gone; config delete cascades', async () => {
    const set = await uploadFasta(
      api,
      'temporary',
      '>t1\nMKVLAAGIVGLLLAQSAQA\n>t2\nMSTNPKPQRKTKRNTNRRPQDVKFPGG\n',
    );
    const config = (
      await api.post<Config>('/v1/embeddings/configs', {
        model_name: 'kmer-v1',
        model_backend: 'kmer',
        normalize: false,
      })
    ).body;
    const job = await waitForJob(
      (
        await api.post<{ id: string }>('/v1/embeddings/compute', {
          embedding_config_id: config.id,
          query_set_id: set.id,
        })
      ).body.id,
    );
    expect(job.status).toBe('SUCCEEDED');
    const before = (await api.get<{ count: number }>('/v1/maintenance/unindexed-embeddings')).body.count;
    expect((await api.delete(`/v1/query-sets/${set.id}`)).status).toBe(200);
    const after = (await api.get<{ count: number }>('/v1/maintenance/unindexed-embeddings')).body.count;
    expect(after).toBe(before + 2);
    const deleted = await api.delete<{ deleted: number }>('/v1/maintenance/unindexed-embeddings');
    expect(deleted.body.deleted).toBe(after);
    expect((await api.get<{ count: number }>('/v1/maintenance/unindexed-embeddings')).body.count).toBe(0);

    const other = (await api.get<Config[]>('/v1/embeddings/configs')).body.find(
      (c) => c.model_name === 'kmer-v1' && c.embedding_count > 0,
    )!;
    const removed = await api.delete<Record<string, number>>(`/v1/embeddings/configs/${other.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body['embeddings_deleted']).toBeGreaterThan(0);
    expect(removed.body).toMatchObject({ prediction_sets_deleted: 0, predictions_deleted: 0 });
    expect((await api.get(`/v1/embeddings/configs/${other.id}`)).status).toBe(404);
  });
});
