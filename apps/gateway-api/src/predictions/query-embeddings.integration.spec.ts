import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppProcess,
  createSuiteWorld,
  HttpClient,
  loadTsvAnnotations,
  runJobToSuccess,
  SHARED_DATA_DIR,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob,
  waitForJobEnd,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

type Job = TestJob;

describe('predict_go_terms needs query embeddings of its config', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let dir: string;
  let snapshotId: string;
  let annotationSetId: string;
  let configId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-query-embeddings-'));
    // Its own database: "no protein has an embedding" must not depend on other suites.
    world = await createSuiteWorld('query_embeddings');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker'].map((n) => spawnApp(n, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const snapshot = await runJobToSuccess<Job>(api, '/v1/annotations/snapshots/load', {
      obo_url: join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    annotationSetId = await loadTsvAnnotations(api, {
      snapshotId,
      tsv: join(SHARED_DATA_DIR, 'tiny/annotations.t0.gene2go-2022-09-12.tsv'),
      gaf: join(dir, 't0.gaf'),
      sourceVersion: `t0-${randomUUID()}`,
    });
    const config = await api.post<{ id: string }>('/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
    });
    configId = config.body.id;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const predict = async (extra: Record<string, unknown>): Promise<Job> => {
    const queued = await api.post<{ id: string }>('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      ...extra,
    });
    expect(queued.status).toBe(201);
    return waitForJobEnd<Job>(api, queued.body.id, 60_000);
  };

  it('deviation 4: a query set never embedded with the config fails with no_query_embeddings, naming both', async () => {
    const form = new FormData();
    form.set('name', 'not-embedded');
    form.set(
      'file',
      new Blob(['>q1\nMKTAYIAKQRQISFVKSHFSRQ\n>q2\nMSTNPKPQRKTKRNTNRRPQDVKFPGG\n']),
      'q.fasta',
    );
    const upload = await fetch(`${api.baseUrl}/v1/query-sets`, { method: 'POST', body: form });
    expect(upload.status).toBe(201);
    const querySetId = ((await upload.json()) as { id: string }).id;

    // An embedding search needs the queries' vectors (DIAMOND, the default, aligns their sequences).
    const job = await predict({ query_set_id: querySetId, search_backend: 'numpy' });
    expect(job.status).toBe('FAILED');
    expect(job.error_code).toBe('no_query_embeddings');
    expect(job.error_message).toContain(`query set ${querySetId}`);
    expect(job.error_message).toContain(`embedding config ${configId} (kmer-v1)`);
    expect(job.error_message).toContain('compute_embeddings');
  });

  it('deviation 4: without a query set and no protein embedded with the config, the same failure', async () => {
    const job = await predict({ limit_per_entry: 3 });
    expect(job.status).toBe('FAILED');
    expect(job.error_code).toBe('no_query_embeddings');
    expect(job.error_message).toContain(`no protein has an embedding for embedding config ${configId}`);
  });

  const uploadQuerySet = async (name: string, fasta: string): Promise<string> => {
    const form = new FormData();
    form.set('name', name);
    form.set('file', new Blob([fasta]), 'q.fasta');
    const upload = await fetch(`${api.baseUrl}/v1/query-sets`, { method: 'POST', body: form });
    expect(upload.status).toBe(201);
    return ((await upload.json()) as { id: string }).id;
  };

  it('one-click annotation on a service whose annotated proteins have no sequences is a 409 saying what to run; nothing is stored', async () => {
    const before = await api.get<unknown[]>('/v1/query-sets');
    const form = new FormData();
    form.set('name', 'fresh service');
    form.set('file', new Blob(['>q1\nMKTAYIAKQRQISFVKSHFSRQ\n']), 'q.fasta');
    const res = await fetch(`${api.baseUrl}/v1/annotate?save_history=false`, { method: 'POST', body: form });
    expect(res.status).toBe(409);
    const problem = (await res.json()) as { detail: string };
    expect(problem.detail).toContain(`annotation set ${annotationSetId}`);
    expect(problem.detail).toContain('insert_proteins');
    expect((await api.get<unknown[]>('/v1/query-sets')).body.length).toBe(before.body.length);
  });

  it('a prediction whose reference pool is empty fails with empty_reference_pool instead of succeeding empty', async () => {
    const querySetId = await uploadQuerySet('embedded queries', '>q3\nMKTAYIAKQRQISFVKSHFSRQGG\n');
    await runJobToSuccess<Job>(api, '/v1/embeddings/compute', {
      embedding_config_id: configId,
      query_set_id: querySetId,
    });
    // DIAMOND (the default): no annotated protein has a sequence.
    const job = await predict({ query_set_id: querySetId });
    expect(job.status).toBe('FAILED');
    expect(job.error_code).toBe('empty_reference_pool');
    expect(job.error_message).toContain(`annotation set ${annotationSetId}`);
    // An embedding search: no annotated protein has a vector of the config.
    const vector = await predict({ query_set_id: querySetId, search_backend: 'numpy' });
    expect(vector.status).toBe('FAILED');
    expect(vector.error_code).toBe('empty_reference_pool');
    expect(vector.error_message).toContain('compute_embeddings');
  });
});
