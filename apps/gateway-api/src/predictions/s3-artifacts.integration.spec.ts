import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { activeFeatureNames, featureFlagsOf, featureSchemaSha } from '@svc/domain';
import {
  AppProcess,
  createSuiteWorld,
  distanceStumpModel,
  embedProteinsWithKmer,
  freePort,
  HttpClient,
  loadTsvAnnotations,
  runJobToSuccess,
  S3TestServer,
  spawnApp,
  startS3Server,
  SuiteWorld,
  testConfig,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const ROOT = resolve(__dirname, '../../../..');
const DATA = resolve(ROOT, '../shared/data');
const FIXTURE_OBO = join(ROOT, 'fixtures/go-subset.2022-07-01.obo');

interface Job {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
  error_message: string | null;
}

describe('artifacts in an S3-compatible object store (SVC_STORAGE_BACKEND=s3), through the HTTP API', () => {
  let s3: S3TestServer;
  let world: SuiteWorld;
  let env: Record<string, string>;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let client: S3Client;
  let dir: string;
  const bucket = `svc-e2e-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-s3-'));
    s3 = await startS3Server();
    world = await createSuiteWorld('s3_artifacts');
    env = { ...world.env, ...s3.env(bucket) };
    client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    gateway = await createGateway(testConfig(env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker'].map((n) => spawnApp(n, env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    client?.destroy();
    await world?.dispose();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const objectText = async (key: string): Promise<string> => {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return out.Body!.transformToString();
  };
  const bucketKeys = async (): Promise<string[]> =>
    ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!);

  it('stops a gateway and a worker at boot when the selected object store does not answer', async () => {
    const port = await freePort();
    const dead = { ...env, SVC_OBJECT_STORE_ENDPOINT: `127.0.0.1:${port}` };
    const apps = await Promise.all([spawnApp('gateway-api', dead), spawnApp('ingestion-worker', dead)]);
    const codes = await Promise.all(apps.map((a) => a.exited));
    expect(codes).toEqual([69, 69]);
    for (const [app, name] of [
      [apps[0], 'gateway-api'],
      [apps[1], 'ingestion-worker'],
    ] as const)
      expect(app.log).toContain(
        `${name} failed to start: ArtifactStoreUnavailable: object store s3://${bucket} at http://127.0.0.1:${port} is not reachable`,
      );
  });

  it('stores an uploaded booster in the bucket, predicts with it from there, and deletes it', async () => {
    const runJob = (path: string, body: unknown): Promise<Job> => runJobToSuccess<Job>(api, path, body);
    const snapshot = await runJob('/v1/annotations/snapshots/load', { obo_url: FIXTURE_OBO });
    const snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const annotationSetId = await loadTsvAnnotations(api, {
      snapshotId,
      tsv: join(DATA, 'tiny/annotations.t0.gene2go-2022-09-12.tsv'),
      gaf: join(dir, 't0.gaf'),
      sourceVersion: `t0-${randomUUID()}`,
    });
    const kmerConfigId = await embedProteinsWithKmer(api, join(DATA, 'tiny/sequences.fasta'));

    const names = activeFeatureNames(featureFlagsOf({ compute_alignments: false }));
    const model = distanceStumpModel(names);
    const run = { feature_schema_sha: featureSchemaSha(names), run_id: `run-${randomUUID()}` };
    const form = new FormData();
    form.set('model.txt', new Blob([model]), 'model.txt');
    form.set('spec.yaml', new Blob(['features: distance-first\n']), 'spec.yaml');
    form.set('run.json', new Blob([JSON.stringify(run)]), 'run.json');
    const imported = await fetch(`${api.baseUrl}/v1/reranker-models/import`, { method: 'POST', body: form });
    expect(imported.status).toBe(201);
    const reranker = (await imported.json()) as { id: string; artifact_uri: string };
    const key = `rerankers/${run.run_id}/model.txt`;
    expect(reranker.artifact_uri).toBe(`s3://${bucket}/${key}`);
    expect(await objectText(key)).toBe(model);

    // The prediction worker finds the booster only through the s3:// URI: nothing was written locally.
    const predicted = await runJob('/v1/embeddings/predict', {
      embedding_config_id: kmerConfigId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      limit_per_entry: 4,
      compute_alignments: false,
      reranker_model_id: reranker.id,
    });
    const events = await api.get<{ event: string; fields: Record<string, unknown> }[]>(
      `/v1/jobs/${predicted.id}/events?limit=2000`,
    );
    const batches = events.body.filter((e) => e.event === 'predict_go_terms_batch.done');
    expect(batches.length).toBeGreaterThan(0);
    const scores = batches.flatMap(
      (e) => (e.fields['reranker_score'] as { scores: { score: number }[] }).scores,
    );
    expect(scores.length).toBeGreaterThan(0);
    const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
    for (const { score } of scores) expect([sigmoid(2), sigmoid(-1)]).toContainEqual(score);

    const deleted = await api.delete<{ artifact_deleted: boolean }>(`/v1/scoring/rerankers/${reranker.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.artifact_deleted).toBe(true);
    expect(await bucketKeys()).not.toContain(key);
  });
});
