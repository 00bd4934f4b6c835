import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createCafaEvaluator } from '@svc/domain';
import {
  AppProcess,
  createSuiteWorld,
  HttpClient,
  spawnApp,
  SuiteWorld,
  testConfig,
  waitForJobEnd,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const ROOT = resolve(__dirname, '../../../..');
const DATA = resolve(ROOT, '../shared/data');
const OBO = join(ROOT, 'fixtures/go-subset.2022-07-01.obo');

interface Job {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}

const lines = (text: string): string[][] =>
  text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => l.split('\t'));

describe('temporal holdout evaluation on the tiny data, end to end through the real queues', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let dir: string;
  let snapshotId: string;
  let t0: string;
  let t1: string;
  let predictionSetId: string;
  let evaluationSetId: string;
  let resultId: string;

  const runJob = async (path: string, body: unknown): Promise<Job> => {
    const queued = await api.post<{ id: string }>(path, body);
    expect(queued.status).toBe(201);
    const job = await waitForJobEnd<Job>(api, queued.body.id, 120_000);
    expect(job.error_message).toBeNull();
    expect(job.status).toBe('SUCCEEDED');
    return job;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-eval-'));
    world = await createSuiteWorld('evaluations');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker', 'evaluation-worker'].map((n) =>
        spawnApp(n, world.env),
      ),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const snapshot = await runJob('/v1/annotations/snapshots/load', { obo_url: OBO });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const load = async (file: string): Promise<string> => {
      const gaf = join(dir, `${file}.gaf`);
      // The converter the README documents, run as users run it.
      execFileSync(process.execPath, [
        '-r',
        join(ROOT, 'tools/register.js'),
        join(ROOT, 'tools/data/tsv-to-gaf.ts'),
        join(DATA, 'tiny', file),
        gaf,
      ]);
      const job = await runJob('/v1/annotations/sets/load-goa', {
        ontology_snapshot_id: snapshotId,
        gaf_url: gaf,
        source_version: `${file}-${randomUUID()}`,
      });
      return job.result!['annotation_set_id'] as string;
    };
    t0 = await load('annotations.t0.gene2go-2022-09-12.tsv');
    t1 = await load('annotations.t1.gene2go-2024-09-20.tsv');
    await runJob('/v1/proteins/insert', { source_url: join(DATA, 'tiny/sequences.fasta') });
    const config = await api.post<{ id: string }>('/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
    });
    await runJob('/v1/embeddings/compute', { embedding_config_id: config.body.id });
    const predicted = await runJob('/v1/embeddings/predict', {
      embedding_config_id: config.body.id,
      annotation_set_id: t0,
      ontology_snapshot_id: snapshotId,
      limit_per_entry: 5,
      compute_alignments: false,
    });
    const sets = await api.get<{ id: string; job_id: string }[]>('/v1/embeddings/prediction-sets');
    predictionSetId = sets.body.find((s) => s.job_id === predicted.id)!.id;
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates the NK/LK/PK split with sorted ground truth; NK proteins had no t0 annotation', async () => {
    expect(
      (await api.post('/v1/annotations/evaluation-sets/generate', { old_annotation_set_id: 'x' })).status,
    ).toBe(422);
    expect(
      (
        await api.post('/v1/annotations/evaluation-sets/generate', {
          old_annotation_set_id: randomUUID(),
          new_annotation_set_id: t1,
        })
      ).status,
    ).toBe(404);
    const job = await runJob('/v1/annotations/evaluation-sets/generate', {
      old_annotation_set_id: t0,
      new_annotation_set_id: t1,
    });
    evaluationSetId = job.result!['evaluation_set_id'] as string;
    const set = await api.get<{ stats: Record<string, number> }>(
      `/v1/annotations/evaluation-sets/${evaluationSetId}`,
    );
    expect(set.status).toBe(200);
    expect(set.body.stats['nk_proteins']).toBeGreaterThan(0);
    expect(set.body.stats['lk_proteins']).toBeGreaterThan(0);

    const nk = lines(
      (await api.get<string>(`/v1/annotations/evaluation-sets/${evaluationSetId}/ground-truth-NK.tsv`)).text,
    );
    expect(new Set(nk.map((r) => r[0])).size).toBe(set.body.stats['nk_proteins']);
    expect(nk.length).toBe(set.body.stats['nk_annotations']);
    expect(nk.map((r) => r.join('\t'))).toEqual(
      [...nk]
        .sort((a, b) => (a[0] === b[0] ? (a[1]! < b[1]! ? -1 : 1) : a[0]! < b[0]! ? -1 : 1))
        .map((r) => r.join('\t')),
    );
    // NK: no experimental annotation at t0 (IC and TAS are not experimental evidence).
    const experimental = new Set(['EXP', 'IDA', 'IPI', 'IMP', 'IGI', 'IEP']);
    const oldProteins = new Set(
      readFileSync(join(DATA, 'tiny/annotations.t0.gene2go-2022-09-12.tsv'), 'utf8')
        .split('\n')
        .slice(1)
        .map((l) => l.split('\t'))
        .filter((cells) => experimental.has(cells[4] ?? ''))
        .map((cells) => cells[0]),
    );
    for (const [protein] of nk) expect(oldProteins.has(protein)).toBe(false);

    const fasta = await api.get<string>(
      `/v1/annotations/evaluation-sets/${evaluationSetId}/delta-proteins.fasta?category=nk`,
    );
    expect(fasta.status).toBe(200);
    const headers = fasta.text.split('\n').filter((l) => l.startsWith('>'));
    expect(headers.length).toBe(set.body.stats['nk_proteins']);
    expect(headers[0]).toMatch(/^>\S+ .* OS=.* OX=.* \(NK\)$/);
    expect(fasta.text.split('\n').every((l) => l.startsWith('>') || l.length <= 60)).toBe(true);
    expect(
      (await api.get(`/v1/annotations/evaluation-sets/${evaluationSetId}/delta-proteins.fasta?category=xx`))
        .status,
    ).toBe(422);
    expect((await api.get(`/v1/annotations/evaluation-sets/${evaluationSetId}/known-terms.tsv`)).status).toBe(
      200,
    );
    expect((await api.get(`/v1/annotations/evaluation-sets/${randomUUID()}`)).status).toBe(404);
  });

  it('runs a CAFA evaluation whose metrics match the evaluator run on the downloaded inputs', async () => {
    const job = await runJob(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
    });
    resultId = job.result!['evaluation_result_id'] as string;
    const events = await api.get<{ event: string }[]>(`/v1/jobs/${job.id}/events?limit=500`);
    expect(events.body.map((e) => e.event)).toContain('run_cafa_evaluation.ia_missing');
    const results = await api.get<
      { id: string; metrics: Record<string, Record<string, Record<string, number>>> }[]
    >(`/v1/annotations/evaluation-sets/${evaluationSetId}/results`);
    const result = results.body.find((r) => r.id === resultId)!;
    expect(Object.keys(result.metrics).sort()).toEqual(expect.arrayContaining(['LK', 'NK']));

    // Independent recomputation from the files a user can download: the OBO, the NK ground truth
    // and the prediction rows scored 1 - d/2 (best per pair).
    const rows = lines(
      (await api.get<string>(`/v1/embeddings/prediction-sets/${predictionSetId}/predictions.tsv`)).text,
    );
    const header = rows.shift()!;
    const [p, g, d] = ['protein_accession', 'go_id', 'distance'].map((c) => header.indexOf(c));
    const best = new Map<string, number>();
    for (const r of rows) {
      const key = `${r[p!]}\t${r[g!]}`;
      best.set(key, Math.max(best.get(key) ?? 0, 1 - Number(r[d!]) / 2));
    }
    const nk = lines(
      (await api.get<string>(`/v1/annotations/evaluation-sets/${evaluationSetId}/ground-truth-NK.tsv`)).text,
    );
    const nkProteins = new Set(nk.map((r) => r[0]));
    const expected = createCafaEvaluator({
      ontology: readFileSync(OBO, 'utf8'),
      groundTruth: nk.map(([protein, term]) => ({ protein: protein!, term: term! })),
    }).evaluate(
      [...best]
        .map(([key, score]) => ({ protein: key.split('\t')[0]!, term: key.split('\t')[1]!, score }))
        .filter((x) => nkProteins.has(x.protein)),
    );
    const codes: Record<string, string> = {
      biological_process: 'BPO',
      molecular_function: 'MFO',
      cellular_component: 'CCO',
    };
    for (const [namespace, values] of Object.entries(expected.namespaces)) {
      const stored = result.metrics['NK']![codes[namespace]!]!;
      expect(stored['fmax']).toBeCloseTo(values.fmax, 9);
      expect(stored['f_micro']).toBeCloseTo(values.f_micro, 9);
      expect(stored['f_micro_w']).toBeUndefined();
    }

    const metrics = lines(
      (
        await api.get<string>(
          `/v1/annotations/evaluation-sets/${evaluationSetId}/results/${resultId}/metrics.tsv`,
        )
      ).text,
    );
    expect(metrics[0]!.slice(0, 3)).toEqual(['setting', 'namespace', 'f_micro_w']);
    expect(metrics.length - 1).toBe(
      Object.values(result.metrics).reduce((n, a) => n + Object.keys(a).length, 0),
    );

    const zip = await fetch(
      `${api.baseUrl}/v1/annotations/evaluation-sets/${evaluationSetId}/results/${resultId}/artifacts.zip`,
    );
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toContain('application/zip');
    const file = join(dir, 'artifacts.zip');
    writeFileSync(file, Buffer.from(await zip.arrayBuffer()));
    // Read back with Python's zipfile, an independent implementation.
    const listing = JSON.parse(
      execFileSync('python3', [
        '-c',
        'import json,sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps([[i.filename, i.compress_type] for i in z.infolist()]))',
        file,
      ]).toString(),
    ) as [string, number][];
    const names = listing.map(([n]) => n);
    expect(names).toEqual(
      expect.arrayContaining(['summary.json', 'nk/evaluation_all.tsv', 'nk/ground_truth.tsv']),
    );
    expect(listing.every(([, method]) => method === 8)).toBe(true); // deflate
  });

  it('prediction-set metrics on demand, the benchmark matrix, and result deletion', async () => {
    const onDemand = await api.get<{ metrics: Record<string, unknown> }>(
      `/v1/scoring/prediction-sets/${predictionSetId}/metrics?evaluation_set_id=${evaluationSetId}`,
    );
    expect(onDemand.status).toBe(200);
    expect(Object.keys(onDemand.body.metrics)).toEqual(expect.arrayContaining(['NK', 'LK']));
    expect((await api.get(`/v1/scoring/prediction-sets/${predictionSetId}/metrics`)).status).toBe(422);

    const scoring = await api.post<{ id: string; name: string }>('/v1/scoring/configs', {
      name: `similarity-${randomUUID()}`,
      weights: { embedding_similarity: 1 },
    });
    await runJob(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
      scoring_config_id: scoring.body.id,
    });
    const matrix = await api.get<{
      cells: { stage: string; per_task: { mean: number; ci95: number; n: number }; primary_metric: string }[];
    }>('/v1/benchmark/matrix');
    expect(matrix.status).toBe(200);
    const cell = matrix.body.cells.find((c) => c.stage === scoring.body.name)!;
    expect(cell.primary_metric).toBe('fmax');
    expect(cell.per_task.n).toBeGreaterThan(0);
    // The run without a scoring config has no stage and stays out of the matrix.
    expect(matrix.body.cells.every((c) => typeof c.stage === 'string')).toBe(true);
    expect((await api.get('/v1/benchmark/embeddings')).status).toBe(200);

    const band = await api.post<{ id: string }>(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
      band: 'v227',
    });
    const failed = await waitForJobEnd<Job>(api, band.body.id, 60_000);
    expect(failed.status).toBe('FAILED');
    expect(failed.error_code).toBe('band_mismatch');

    const base = `/v1/annotations/evaluation-sets/${evaluationSetId}/results`;
    expect((await api.delete(`${base}/${resultId}`)).status).toBe(204);
    expect((await api.get(`${base}/${resultId}/metrics.tsv`)).status).toBe(404);
    expect((await api.get(`${base}/${resultId}/artifacts.zip`)).status).toBe(404);
    expect((await api.delete(`${base}/${resultId}`)).status).toBe(404);
    const removed = await api.delete<{ deleted: boolean }>(
      `/v1/annotations/evaluation-sets/${evaluationSetId}`,
    );
    expect(removed.status).toBe(200);
    expect((await api.get(`/v1/annotations/evaluation-sets/${evaluationSetId}`)).status).toBe(404);
  });
});
