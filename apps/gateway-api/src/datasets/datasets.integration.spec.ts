import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { activeFeatureNames, featureFlagsOf, featureSchemaSha } from '@svc/domain';
import type { DatasetRecord } from '@svc/persistence';
import {
  AppProcess,
  createSuiteWorld,
  embedProteinsWithKmer,
  HttpClient,
  loadTsvAnnotations,
  runJobToSuccess,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob as Job,
  waitForJobEnd,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const ROOT = resolve(__dirname, '../../../..');
const TINY = resolve(ROOT, '../shared/data/tiny');

type Dataset = DatasetRecord;

const tsv = (file: string): string[][] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.length > 0)
    .map((l) => l.split('\t'));

/** Rows of a parquet file as read by DuckDB, a reader independent of the writer the service uses. */
async function readParquet(path: string): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT * FROM read_parquet('${path.replace(/'/g, "''")}')`,
    );
    return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() };
  } finally {
    connection.closeSync();
  }
}

describe('research dataset export from the tiny holdout, end to end through the real queues', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let dir: string;
  let snapshotId: string;
  let configId: string;
  let exportJob: Job;
  let dataset: Dataset;
  /** Train proteins whose annotations version 1 leaves out: they are the queries of pair 1->2. */
  let heldBack: string[];

  const runJob = (path: string, body: unknown): Promise<Job> => runJobToSuccess<Job>(api, path, body);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-datasets-'));
    world = await createSuiteWorld('datasets');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'dataset-exporter'].map((n) => spawnApp(n, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const snapshot = await runJob('/v1/annotations/snapshots/load', {
      obo_url: join(TINY, 'go-subset.2024-09.obo'),
    });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;

    // Three releases: version 1 is t0 without six train proteins, version 2 is t0, version 3 is t1.
    const t0 = join(TINY, 'annotations.t0.gene2go-2022-09-12.tsv');
    const train = tsv(join(TINY, 'proteins.tsv'))
      .filter((r) => r[1] === 'train')
      .map((r) => r[0]!);
    const annotatedInT0 = new Set(tsv(t0).map((r) => r[0]!));
    heldBack = train.filter((p) => annotatedInT0.has(p)).slice(0, 6);
    const [header, ...body] = readFileSync(t0, 'utf8').split('\n');
    const v1 = join(dir, 'annotations.v1.gene2go-2021-09-01.tsv');
    writeFileSync(v1, [header, ...body.filter((l) => !heldBack.includes(l.split('\t')[0]!))].join('\n'));
    // Every version against the 2024 release: the 2022 files name terms it made obsolete.
    const load = (tsv: string, version: string): Promise<string> =>
      loadTsvAnnotations(api, {
        snapshotId,
        tsv,
        gaf: join(dir, `v${version}.gaf`),
        sourceVersion: version,
        tolerateUnresolved: true,
      });
    await load(v1, '1');
    await load(t0, '2');
    await load(join(TINY, 'annotations.t1.gene2go-2024-09-20.tsv'), '3');
    configId = await embedProteinsWithKmer(api, join(TINY, 'sequences.fasta'));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const exportBody = (overrides: Record<string, unknown> = {}) => ({
    embedding_config_id: configId,
    ontology_snapshot_id: snapshotId,
    train_versions: [1, 2],
    test_versions: [3],
    annotation_source: 'goa',
    output_name: 'tiny-rerank',
    k: 5,
    compute_alignments: true,
    compute_taxonomy: false,
    use_embedding_pca: true,
    ...overrides,
  });

  it('refuses unknown keys and test versions that are not newer than every train version', async () => {
    const unknown = await api.post('/v1/datasets', { ...exportBody(), shuffle: true });
    expect(unknown.status).toBe(422);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    const leaking = await api.post<{ detail: string }>('/v1/datasets', exportBody({ test_versions: [2] }));
    expect(leaking.status).toBe(422);
    expect(leaking.body.detail).toMatch(/newer than every train version/);
  });

  it('exports train.parquet, eval.parquet and manifest.json and registers the dataset', async () => {
    exportJob = await runJob('/v1/datasets', exportBody());
    expect(exportJob.result!['name']).toBe('tiny-rerank');
    const events = await api.get<{ event: string; fields: Record<string, unknown> }[]>(
      `/v1/jobs/${exportJob.id}/events?limit=500`,
    );
    const named = (name: string) => events.body.filter((e) => e.event === name);
    expect(
      named('export_research_dataset.knn_done')
        .map((e) => e.fields['pair'])
        .sort(),
    ).toEqual(['1->2', '2->3']);
    for (const e of [
      ...named('export_research_dataset.knn_done'),
      ...named('export_research_dataset.alignment_done'),
    ])
      expect(typeof e.fields['elapsed_s']).toBe('number');
    expect(named('export_research_dataset.alignment_done')).toHaveLength(2);
    const [published] = named('export_research_dataset.published');
    dataset = (await api.get<Dataset>('/v1/datasets/tiny-rerank')).body;
    expect(published!.fields).toMatchObject({
      train_uri: dataset.train_uri,
      eval_uri: dataset.eval_uri,
      manifest_uri: dataset.manifest_uri,
    });
    expect(dataset).toMatchObject({
      operation: 'export_research_dataset',
      job_id: exportJob.id,
      key_prefix: 'datasets/tiny-rerank/',
      storage_backend: 'local',
      train_snapshot_pairs: ['1->2'],
      eval_snapshot_pair: '2->3',
    });
    for (const [uri, file] of [
      [dataset.train_uri, 'train.parquet'],
      [dataset.eval_uri!, 'eval.parquet'],
      [dataset.manifest_uri, 'manifest.json'],
    ] as const)
      expect(uri).toBe(`file://${join(world.env['SVC_ARTIFACTS_DIR']!, 'datasets/tiny-rerank', file)}`);
    expect((await api.get<Dataset>(`/v1/datasets/${dataset.id}`)).body).toEqual(dataset);
  });

  it('writes parquet files an independent reader reads back with the registered row counts', async () => {
    const manifestBytes = readFileSync(fileURLToPath(dataset.manifest_uri));
    expect(createHash('sha256').update(manifestBytes).digest('hex')).toBe(dataset.manifest_sha);
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as {
      feature_names: string[];
      schema_sha: string;
      pca: { columns: string[] } | null;
      train: { rows: number };
      eval: { rows: number };
    };
    // The export's schema is the one a prediction with the same flags computes live.
    const live = featureSchemaSha(activeFeatureNames(featureFlagsOf({ compute_taxonomy: false })));
    expect(dataset.schema_sha).toBe(live);
    expect(featureSchemaSha(manifest.feature_names)).toBe(live);
    expect(featureSchemaSha([...manifest.feature_names, ...manifest.pca!.columns])).toBe(
      dataset.schema_sha_v2,
    );

    const train = await readParquet(fileURLToPath(dataset.train_uri));
    const evaluation = await readParquet(fileURLToPath(dataset.eval_uri!));
    expect(train.rows.length).toBe(dataset.n_train_rows);
    expect(evaluation.rows.length).toBe(dataset.n_eval_rows);
    expect(manifest.train.rows).toBe(dataset.n_train_rows);
    expect(manifest.eval.rows).toBe(dataset.n_eval_rows);
    expect(dataset.n_train_rows).toBeGreaterThan(0);
    expect(dataset.n_eval_rows).toBeGreaterThan(0);
    // Feature columns follow the leading columns in schema order, then the PCA coordinates.
    const featureColumns = train.columns.slice(train.columns.indexOf('taxonomic_relation') + 1);
    expect(featureColumns).toEqual([...manifest.feature_names, ...manifest.pca!.columns]);
    expect(evaluation.columns).toEqual(train.columns);

    // Train queries are exactly the held-back proteins (NK in 1->2); every row is labelled 0 or 1.
    expect([...new Set(train.rows.map((r) => r['protein_accession']))].sort()).toEqual(
      heldBack.filter((p) => train.rows.some((r) => r['protein_accession'] === p)).sort(),
    );
    expect(new Set(train.rows.map((r) => r['snapshot_pair']))).toEqual(new Set(['1->2']));
    for (const r of train.rows) expect(['NK', null]).toContain(r['category']);
    expect(train.rows.some((r) => r['category'] === 'NK')).toBe(true);
    expect(new Set(evaluation.rows.map((r) => r['snapshot_pair']))).toEqual(new Set(['2->3']));
    for (const r of [...train.rows, ...evaluation.rows]) {
      expect([0, 1]).toContain(r['label']);
      expect(Number(r['k_position'])).toBeLessThanOrEqual(5);
      expect(typeof r['identity_nw']).toBe('number');
    }
    // A transferred term that the newer release adds with experimental evidence is a positive.
    const t0 = tsv(join(TINY, 'annotations.t0.gene2go-2022-09-12.tsv'));
    const t1 = tsv(join(TINY, 'annotations.t1.gene2go-2024-09-20.tsv'));
    const had = new Set(t0.map((r) => `${r[0]}|${r[2]}`));
    const experimental = new Set(['EXP', 'IDA', 'IPI', 'IMP', 'IGI', 'IEP']);
    const added = new Set(
      t1
        .filter((r) => experimental.has(r[4]!))
        .map((r) => `${r[0]}|${r[2]}`)
        .filter((key) => !had.has(key)),
    );
    const direct = evaluation.rows.filter((r) =>
      added.has(`${String(r['protein_accession'])}|${String(r['go_id'])}`),
    );
    expect(direct.length).toBeGreaterThan(0);
    for (const r of direct) expect(r['label']).toBe(1);
    expect(evaluation.rows.some((r) => r['label'] === 0)).toBe(true);
  });

  it('refuses a taken name before queueing and fails a job whose versions are not loaded', async () => {
    expect((await api.post('/v1/datasets', exportBody())).status).toBe(409);
    const missing = await api.post<{ id: string }>(
      '/v1/datasets',
      exportBody({ output_name: 'tiny-missing', test_versions: [4] }),
    );
    expect(missing.status).toBe(201);
    const failed = await waitForJobEnd<Job>(api, missing.body.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error_code).toBe('annotation_set_not_found');
    expect(failed.error_message).toMatch(/source_version 4/);
    expect((await api.get('/v1/datasets/tiny-missing')).status).toBe(404);
  });

  it('imports by reference with the server-computed manifest sha, and pages the list with after', async () => {
    const body = {
      name: 'tiny-rerank-copy',
      train_uri: dataset.train_uri,
      eval_uri: dataset.eval_uri,
      manifest_uri: dataset.manifest_uri,
      embedding_config_id: configId,
      ontology_snapshot_id: snapshotId,
      annotation_source: 'goa',
      k: 5,
      schema_sha: dataset.schema_sha,
      n_train_rows: dataset.n_train_rows,
      n_eval_rows: dataset.n_eval_rows,
      meta: { copied_from: dataset.id },
    };
    expect((await api.post('/v1/datasets/import-by-reference', { ...body, manifest_sha: 'x' })).status).toBe(
      422,
    );
    const unreadable = await api.post<{ detail: string }>('/v1/datasets/import-by-reference', {
      ...body,
      manifest_uri: `file://${join(dir, 'absent.json')}`,
    });
    expect(unreadable.status).toBe(422);
    expect(unreadable.body.detail).toMatch(/manifest_uri could not be read/);
    const imported = await api.post<Dataset>('/v1/datasets/import-by-reference', body);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      operation: 'import_by_reference',
      job_id: null,
      manifest_sha: dataset.manifest_sha,
      train_snapshot_pairs: ['1->2'],
      eval_snapshot_pair: '2->3',
    });
    expect((await api.post('/v1/datasets/import-by-reference', body)).status).toBe(409);

    const first = await api.get<Dataset[]>('/v1/datasets?limit=1');
    expect(first.body.map((d) => d.name)).toEqual(['tiny-rerank-copy']);
    const next = await api.get<Dataset[]>(
      `/v1/datasets?limit=1&after=${encodeURIComponent(first.body[0]!.created_at)}`,
    );
    expect(next.body.map((d) => d.name)).toEqual(['tiny-rerank']);
    expect((await api.get('/v1/datasets/no-such-dataset')).status).toBe(404);
    expect((await api.get('/v1/datasets?after=yesterday')).status).toBe(422);
  });
});
