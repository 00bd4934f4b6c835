import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  embedProteinsWithKmer,
  HttpClient,
  runJobToSuccess,
  TestJob,
  waitFor,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { createUser, SecurityStack, SignedInUser, startSecurityStack } from './security-stack';

const DATA = resolve(WORKSPACE_ROOT, '../shared/data');
const FIXTURES = join(WORKSPACE_ROOT, 'fixtures');

interface Listed {
  id: string;
  name?: string;
}
interface PredictionSet {
  id: string;
  job_id: string;
  visibility: string;
}
interface AnnotateResponse {
  query_set_id: string;
  prediction_job_id: string;
  embedding_job_id: string | null;
  embedding_config_id: string;
}

/** Two records of the tiny holdout as a FASTA file. */
function twoProteins(from: number): string {
  return readFileSync(join(DATA, 'tiny/sequences.fasta'), 'utf8')
    .split('>')
    .slice(from, from + 2)
    .map((record) => `>${record}`)
    .join('');
}

describe('owners and visibility (finding 8, rule 8; authentication on)', () => {
  let stack: SecurityStack;
  let dir: string;
  let admin: HttpClient;
  let anonymous: HttpClient;
  let alice: SignedInUser;
  let bob: SignedInUser;
  let operator: SignedInUser;
  let configId: string;
  let snapshotId: string;
  let annotationSetId: string;
  let aliceQuerySet: string;
  let bobQuerySet: string;
  let alicePredictionSet: PredictionSet;
  let operatorDataset: string;
  let aliceRun: string;

  const as = (user: SignedInUser): HttpClient => anonymous.withHeaders(user.headers);
  const ids = (rows: Listed[]): string[] => rows.map((row) => row.id);

  const uploadQuerySet = async (user: SignedInUser, name: string, fasta: string): Promise<string> => {
    const form = new FormData();
    form.set('name', name);
    form.set('file', new Blob([fasta], { type: 'text/plain' }), `${name}.fasta`);
    const response = await fetch(`${anonymous.baseUrl}/v1/query-sets`, {
      method: 'POST',
      body: form,
      headers: user.headers,
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };

  const list = async <T extends Listed>(client: HttpClient, path: string): Promise<T[]> => {
    const res = await client.get<T[]>(path);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-ownership-'));
    stack = await startSecurityStack('ownership', {
      workers: ['ingestion-worker', 'embedding-worker', 'prediction-worker'],
      env: {
        SVC_SOURCE_ALLOWED_ROOTS: [FIXTURES, DATA, dir].join(','),
        // About a second: a guest's one-click result has expired by the time the test purges.
        SVC_GUEST_RESULT_RETENTION_DAYS: '0.00001',
      },
    });
    anonymous = stack.api;
    admin = stack.api.withHeaders(stack.admin.headers);
    [alice, bob, operator] = await Promise.all([
      createUser(stack, 'researcher'),
      createUser(stack, 'researcher'),
      createUser(stack, 'operator'),
    ]);

    // Reference data as an operator loads it: the ontology, GO annotations, proteins and their embeddings.
    const snapshot = await runJobToSuccess<TestJob>(admin, '/v1/annotations/snapshots/load', {
      obo_url: join(FIXTURES, 'go-subset.2022-07-01.obo'),
    });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const annotations = await runJobToSuccess<TestJob>(admin, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshotId,
      gaf_url: join(FIXTURES, 'tiny-t0.2022-09-12.gaf'),
      source_version: `tiny-t0-${randomUUID()}`,
    });
    annotationSetId = annotations.result!['annotation_set_id'] as string;
    configId = await embedProteinsWithKmer(admin, join(DATA, 'tiny/sequences.fasta'));

    // Alice's and Bob's work: a query set each, Alice's embedded by an operator and predicted by her.
    aliceQuerySet = await uploadQuerySet(alice, `alice-${randomUUID().slice(0, 6)}`, twoProteins(1));
    bobQuerySet = await uploadQuerySet(bob, `bob-${randomUUID().slice(0, 6)}`, twoProteins(3));
    await runJobToSuccess<TestJob>(as(operator), '/v1/embeddings/compute', {
      embedding_config_id: configId,
      query_set_id: aliceQuerySet,
    });
    const predicted = await runJobToSuccess<TestJob>(as(alice), '/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: aliceQuerySet,
    });
    const resolved = await as(alice).get<PredictionSet>(
      `/v1/embeddings/resolve?query_set_id=${aliceQuerySet}&embedding_config_id=${configId}`,
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.job_id).toBe(predicted.id);
    alicePredictionSet = resolved.body;

    // An operator's dataset (only operators register datasets) and Alice's experiment run.
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ producer: { version: 'test' } }));
    const dataset = await as(operator).post<{ id: string }>('/v1/datasets/import-by-reference', {
      name: `ops-${randomUUID().slice(0, 8)}`,
      train_uri: join(dir, 'train.parquet'),
      manifest_uri: manifest,
      embedding_config_id: configId,
      annotation_source: 'goa',
      k: 5,
      schema_sha: 'a'.repeat(64),
      n_train_rows: 0,
      n_eval_rows: 0,
    });
    expect(dataset.status).toBe(201);
    operatorDataset = dataset.body.id;
    const run = await as(alice).post<{ id: string }>('/v1/experiment-runs', {
      name: `alice-run-${randomUUID().slice(0, 8)}`,
    });
    expect(run.status).toBe(201);
    aliceRun = run.body.id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("finding 8: researcher B can neither read, delete nor predict over researcher A's query set (404); A can", async () => {
    expect((await as(bob).get(`/v1/query-sets/${aliceQuerySet}`)).status).toBe(404);
    expect((await anonymous.get(`/v1/query-sets/${aliceQuerySet}`)).status).toBe(404);
    expect((await as(bob).delete(`/v1/query-sets/${aliceQuerySet}`)).status).toBe(404);
    const copied = await as(bob).post('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: aliceQuerySet,
    });
    expect(copied.status).toBe(404);
    const own = await as(alice).get<{ id: string; entry_count: number }>(`/v1/query-sets/${aliceQuerySet}`);
    expect(own.status).toBe(200);
    expect(own.body.entry_count).toBe(2);
    // An operator reads and manages everyone's.
    expect((await as(operator).get(`/v1/query-sets/${bobQuerySet}`)).status).toBe(200);
    expect((await as(alice).delete(`/v1/query-sets/${bobQuerySet}`)).status).toBe(404);
    expect((await as(bob).delete(`/v1/query-sets/${bobQuerySet}`)).status).toBe(200);
  });

  it("finding 8: anonymous and researcher B's lists hold none of A's query sets, prediction sets, experiment runs or an operator's datasets; mine=true shows one's own; staff see all", async () => {
    for (const client of [anonymous, as(bob)]) {
      expect(ids(await list(client, '/v1/query-sets'))).not.toContain(aliceQuerySet);
      expect(ids(await list(client, '/v1/embeddings/prediction-sets'))).not.toContain(alicePredictionSet.id);
      expect(ids(await list(client, '/v1/experiment-runs'))).not.toContain(aliceRun);
      expect(ids(await list(client, '/v1/datasets'))).not.toContain(operatorDataset);
    }
    expect(ids(await list(as(alice), '/v1/query-sets?mine=true'))).toEqual([aliceQuerySet]);
    expect(ids(await list(as(alice), '/v1/embeddings/prediction-sets?mine=true'))).toEqual([
      alicePredictionSet.id,
    ]);
    expect(ids(await list(as(alice), '/v1/experiment-runs?mine=true'))).toEqual([aliceRun]);
    expect(ids(await list(as(operator), '/v1/datasets?mine=true'))).toEqual([operatorDataset]);
    expect(await list(as(bob), '/v1/query-sets?mine=true')).toEqual([]);
    expect(await list(anonymous, '/v1/embeddings/prediction-sets?mine=true')).toEqual([]);

    expect(ids(await list(as(operator), '/v1/query-sets'))).toContain(aliceQuerySet);
    expect(ids(await list(as(operator), '/v1/embeddings/prediction-sets'))).toContain(alicePredictionSet.id);
    expect(ids(await list(admin, '/v1/experiment-runs'))).toContain(aliceRun);
    expect(ids(await list(admin, '/v1/datasets'))).toContain(operatorDataset);

    expect((await as(bob).get(`/v1/datasets/${operatorDataset}`)).status).toBe(404);
    expect((await as(bob).get(`/v1/experiment-runs/${aliceRun}`)).status).toBe(404);
    expect((await as(bob).patch(`/v1/experiment-runs/${aliceRun}`, { findings: 'mine now' })).status).toBe(
      404,
    );
    expect((await as(bob).delete(`/v1/experiment-runs/${aliceRun}`)).status).toBe(404);
  });

  it("researcher B cannot publish researcher A's prediction set (404), nor can anonymous callers (401); A publishes it and takes it back", async () => {
    const set = `/v1/embeddings/prediction-sets/${alicePredictionSet.id}`;
    expect((await as(bob).patch(`${set}/visibility`, { visibility: 'public' })).status).toBe(404);
    expect((await anonymous.patch(`${set}/visibility`, { visibility: 'public' })).status).toBe(401);
    expect((await as(alice).patch(`${set}/visibility`, { visibility: 'everyone' })).status).toBe(422);
    expect((await anonymous.get(set)).status).toBe(404);
    expect((await as(alice).patch(`${set}/visibility`, { visibility: 'public' })).status).toBe(200);
    expect((await anonymous.get(set)).status).toBe(200);
    expect((await as(bob).get(`${set}/predictions.tsv`)).status).toBe(200);
    // Public is readable, not writable: B still cannot take it back or delete it.
    expect((await as(bob).patch(`${set}/visibility`, { visibility: 'owner' })).status).toBe(403);
    expect((await as(alice).patch(`${set}/visibility`, { visibility: 'owner' })).status).toBe(200);
    expect((await anonymous.get(set)).status).toBe(404);
  });

  it("finding 8: researcher B cannot read or delete researcher A's prediction set (404); A deletes it", async () => {
    const set = `/v1/embeddings/prediction-sets/${alicePredictionSet.id}`;
    for (const path of [
      set,
      `${set}/proteins`,
      `${set}/go-terms`,
      `${set}/predictions.tsv`,
      `${set}/predictions-cafa.tsv`,
      `${set}/predictions.gaf`,
      `${set}/predictions.json`,
      `${set}/predictions.zip`,
    ]) {
      expect((await as(bob).get(path)).status).toBe(404);
      expect((await anonymous.get(path)).status).toBe(404);
    }
    expect((await as(bob).delete(set)).status).toBe(404);
    expect((await as(alice).get(`${set}/predictions.tsv`)).status).toBe(200);
    const removed = await as(alice).delete<{ deleted: boolean }>(set);
    expect(removed.status).toBe(200);
    expect(removed.body.deleted).toBe(true);
    expect((await as(operator).get(set)).status).toBe(404);
  });

  it('rule 8: a guest one-click result (save_history=false) is readable by its ids, never listed, and the retention purge removes it once expired', async () => {
    const form = new FormData();
    form.set('name', 'guest upload');
    form.set('file', new Blob([twoProteins(5)], { type: 'text/plain' }), 'guest.fasta');
    const response = await fetch(`${anonymous.baseUrl}/v1/annotate?save_history=false`, {
      method: 'POST',
      body: form,
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as AnnotateResponse;
    // The default prediction reads no embedding: the prediction job is queued at once.
    expect(created.embedding_job_id).toBeNull();
    const predictionJobId = created.prediction_job_id;
    const prediction = await waitFor(
      async () => {
        const job = (await anonymous.get<TestJob>(`/v1/jobs/${predictionJobId}`)).body;
        return ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(job.status) ? job : undefined;
      },
      { timeoutMs: 120_000, what: 'the one-click prediction job' },
    );
    expect(prediction.status).toBe('SUCCEEDED');

    // Reachable through the ids the response returned, by anyone holding them.
    const querySetPath = `/v1/query-sets/${created.query_set_id}`;
    expect((await anonymous.get(querySetPath)).status).toBe(200);
    expect((await as(bob).get(querySetPath)).status).toBe(200);
    const resolved = await anonymous.get<PredictionSet>(
      `/v1/embeddings/resolve?query_set_id=${created.query_set_id}&embedding_config_id=${created.embedding_config_id}`,
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.visibility).toBe('unlisted');
    const setPath = `/v1/embeddings/prediction-sets/${resolved.body.id}`;
    expect((await anonymous.get(`${setPath}/predictions.tsv`)).status).toBe(200);
    // Readable is not changeable: only its owner (none, for a guest) or staff may delete it.
    expect((await as(bob).delete(querySetPath)).status).toBe(403);

    // Never listed, to guests or researchers.
    for (const client of [anonymous, as(bob)]) {
      expect(ids(await list(client, '/v1/query-sets'))).not.toContain(created.query_set_id);
      expect(ids(await list(client, '/v1/embeddings/prediction-sets'))).not.toContain(resolved.body.id);
      expect(ids(await list(client, '/v1/jobs?include_children=true&limit=500'))).not.toContain(
        predictionJobId,
      );
    }

    // The retention period (about a second here) has passed: the purge removes the result and its jobs.
    await new Promise((done) => setTimeout(done, 1500));
    const purge = await runJobToSuccess<TestJob>(as(operator), '/v1/jobs', {
      operation: 'purge_expired_results',
      queue_name: 'svc.jobs',
      // Not the scheduled purge's payload ({}), so the two never collide as duplicates.
      payload: { dry_run: false },
    });
    expect(purge.result).toMatchObject({ dry_run: false });
    // The ingestion worker's own scheduled purge may have run first: count what every purge removed.
    const purges = await list<TestJob & Listed>(
      as(operator),
      '/v1/jobs?operation=purge_expired_results&status=SUCCEEDED&limit=500',
    );
    const removed = (key: string): number =>
      purges.reduce((sum, job) => sum + Number(job.result?.[key] ?? 0), 0);
    expect(removed('query_sets')).toBeGreaterThanOrEqual(1);
    expect(removed('prediction_sets')).toBeGreaterThanOrEqual(1);
    expect(removed('jobs')).toBeGreaterThanOrEqual(1);
    expect((await anonymous.get(querySetPath)).status).toBe(404);
    expect((await anonymous.get(setPath)).status).toBe(404);
    expect((await as(operator).get(`/v1/jobs/${predictionJobId}`)).status).toBe(404);
    // Saved work is not touched by the purge.
    expect((await as(alice).get(`/v1/query-sets/${aliceQuerySet}`)).status).toBe(200);
  });
});
