import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  activeFeatureNames,
  createCafaEvaluator,
  featureFlagsOf,
  featureSchemaSha,
  pairMetrics,
} from '@svc/domain';
import {
  AppProcess,
  createSuiteWorld,
  distanceStumpModel,
  embedProteinsWithKmer,
  HttpClient,
  loadTsvAnnotations,
  runJobToSuccess,
  spawnApp,
  SuiteWorld,
  testConfig,
  waitForJobEnd,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const ROOT = resolve(__dirname, '../../../..');
const DATA = resolve(ROOT, '../shared/data');
const FIXTURE_OBO = join(ROOT, 'fixtures/go-subset.2022-07-01.obo');

interface Job {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}

/** The lines of a TSV download as cells, its comment lines (`# ...`, what the rows stand on) left out. */
const lines = (text: string): string[][] =>
  text
    .split('\n')
    .filter((l) => l.length > 0 && !l.startsWith('# '))
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
  let configId: string;
  let OBO: string;

  const runJob = (path: string, body: unknown): Promise<Job> => runJobToSuccess<Job>(api, path, body);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-eval-'));
    // The tiny GO subset under the release name band v226 pins (its content is unchanged).
    OBO = join(dir, 'go-2022-07-01.obo');
    writeFileSync(
      OBO,
      readFileSync(FIXTURE_OBO, 'utf8').replace(/^data-version: .*$/m, 'data-version: releases/2022-07-01'),
    );
    const benchmarkConfig = join(dir, 'benchmark.yaml');
    writeFileSync(
      benchmarkConfig,
      'baseline_scoring: baseline-similarity\nstage_labels:\n  baseline-similarity: Baseline\n',
    );
    world = await createSuiteWorld('evaluations');
    world.env['SVC_BENCHMARK_CONFIG'] = benchmarkConfig;
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
    // The converter the README documents, run as users run it.
    const load = (file: string): Promise<string> =>
      loadTsvAnnotations(api, {
        snapshotId,
        tsv: join(DATA, 'tiny', file),
        gaf: join(dir, `${file}.gaf`),
        sourceVersion: `${file}-${randomUUID()}`,
        tolerateUnresolved: file.includes('.t1.'),
      });
    t0 = await load('annotations.t0.gene2go-2022-09-12.tsv');
    t1 = await load('annotations.t1.gene2go-2024-09-20.tsv');
    configId = await embedProteinsWithKmer(api, join(DATA, 'tiny/sequences.fasta'));
    const predicted = await runJob('/v1/embeddings/predict', {
      embedding_config_id: configId,
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
    // NK is every protein without experimental terms at t0 (the specification); the gene-level
    // carry-over is counted, and left out only when asked.
    expect(set.body.stats['gene_carry_over_excluded']).toBe(false);
    const trimmed = await runJob('/v1/annotations/evaluation-sets/generate', {
      old_annotation_set_id: t0,
      new_annotation_set_id: t1,
      exclude_gene_carry_over: true,
    });
    const trimmedStats = trimmed.result!['stats'] as Record<string, number | boolean>;
    expect(trimmedStats['gene_carry_over_excluded']).toBe(true);
    expect(trimmedStats['nk_gene_carry_over']).toBe(set.body.stats['nk_gene_carry_over']);
    expect(trimmedStats['nk_proteins']).toBe(
      set.body.stats['nk_proteins']! - (set.body.stats['nk_gene_carry_over'] as number),
    );

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
    // and the prediction rows' score, max(0, 1 - distance) (the default DIAMOND set's blend), best per pair.
    const rows = lines(
      (await api.get<string>(`/v1/embeddings/prediction-sets/${predictionSetId}/predictions.tsv`)).text,
    );
    const header = rows.shift()!;
    const [p, g, d] = ['protein_accession', 'go_id', 'distance'].map((c) => header.indexOf(c));
    expect(header).toHaveLength(32);
    const best = new Map<string, number>();
    for (const r of rows) {
      const key = `${r[p!]}\t${r[g!]}`;
      best.set(key, Math.max(best.get(key) ?? 0, Math.max(0, 1 - Number(r[d!]))));
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

  it('a run that fails while evaluating leaves no result row: not listed, not counted', async () => {
    const results = `/v1/annotations/evaluation-sets/${evaluationSetId}/results`;
    const before = await api.get<{ id: string }[]>(results);
    const countBefore = (
      await api.get<{ result_count: number }>(`/v1/annotations/evaluation-sets/${evaluationSetId}`)
    ).body.result_count;
    // A TOI file naming no term of any namespace: the evaluator refuses once it starts on a category.
    const toi = join(dir, 'toi-nothing.txt');
    writeFileSync(toi, 'GO:9999999\n');
    const queued = await api.post<{ id: string }>(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
      toi_file: toi,
    });
    expect(queued.status).toBe(201);
    const failed = await waitForJobEnd<Job>(api, queued.body.id, 60_000);
    expect({ status: failed.status, code: failed.error_code }).toEqual({
      status: 'FAILED',
      code: 'evaluation_toi_empty_namespace',
    });
    const after = await api.get<{ id: string }[]>(results);
    expect(after.body.map((r) => r.id).sort()).toEqual(before.body.map((r) => r.id).sort());
    const countAfter = (
      await api.get<{ result_count: number }>(`/v1/annotations/evaluation-sets/${evaluationSetId}`)
    ).body.result_count;
    expect(countAfter).toBe(countBefore);
  });

  it('re-rankers: import, bind in a prediction (scores reported), schema mismatch falls back, evaluate with one', async () => {
    // A one-split booster on `distance` (feature 0 of the schema without alignments).
    const names = activeFeatureNames(featureFlagsOf({ compute_alignments: false }));
    expect(names[0]).toBe('distance');
    const model = distanceStumpModel(names);
    const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
    const expectedScore = (distance: number): number => (distance <= 0.3 ? sigmoid(2) : sigmoid(-1));
    const run = {
      feature_schema_sha: featureSchemaSha(names),
      run_id: `run-${randomUUID()}`,
      metrics: { fmax: 0.4 },
    };
    const upload = (force: boolean) => {
      const form = new FormData();
      form.set('name', `stump-${run.run_id}`);
      if (force) form.set('force', 'true');
      form.set('model.txt', new Blob([model]), 'model.txt');
      form.set('spec.yaml', new Blob(['features: distance-first\n']), 'spec.yaml');
      form.set('run.json', new Blob([JSON.stringify(run)]), 'run.json');
      return fetch(`${api.baseUrl}/v1/reranker-models/import`, { method: 'POST', body: form });
    };
    const first = await upload(false);
    expect(first.status).toBe(201);
    expect((await upload(false)).status).toBe(409);
    const replaced = await upload(true);
    expect(replaced.status).toBe(201);
    const stored = (await replaced.json()) as Record<string, unknown>;
    expect(stored['artifact_uri']).toMatch(new RegExp(`^file:///.*/rerankers/${run.run_id}/model\\.txt$`));
    const byReference = await api.post<Record<string, unknown>>('/v1/reranker-models/import-by-reference', {
      artifact_uri: stored['artifact_uri'],
      spec_yaml: 'features: distance-first\n',
      run,
      name: `stump-ref-${run.run_id}`,
    });
    expect(byReference.status).toBe(201);
    const same = (r: Record<string, unknown>) => {
      const { id: _id, created_at: _c, name: _n, import_kind: _k, ...rest } = r;
      return rest;
    };
    expect(same(byReference.body)).toEqual(same(stored));
    const badModel = new FormData();
    badModel.set('model.txt', new Blob(['not a model']), 'model.txt');
    badModel.set('spec.yaml', new Blob(['x: 1']), 'spec.yaml');
    badModel.set('run.json', new Blob([JSON.stringify(run)]), 'run.json');
    expect(
      (await fetch(`${api.baseUrl}/v1/reranker-models/import`, { method: 'POST', body: badModel })).status,
    ).toBe(422);
    expect((await api.get(`/v1/scoring/rerankers/${String(stored['id'])}`)).status).toBe(200);

    const predict = (extra: Record<string, unknown>) =>
      runJob('/v1/embeddings/predict', {
        embedding_config_id: configId,
        annotation_set_id: t0,
        ontology_snapshot_id: snapshotId,
        limit_per_entry: 4,
        reranker_model_id: stored['id'],
        // The re-rankers score the embedding search's features.
        search_backend: 'numpy',
        ...extra,
      });
    const bound = await predict({ compute_alignments: false });
    const events = await api.get<{ event: string; fields: Record<string, unknown> }[]>(
      `/v1/jobs/${bound.id}/events?limit=2000`,
    );
    expect(events.body.map((e) => e.event)).toContain('predict_go_terms.reranker_bound');
    const sets = await api.get<{ id: string; job_id: string }[]>('/v1/embeddings/prediction-sets');
    const boundSet = sets.body.find((x) => x.job_id === bound.id)!.id;
    const rows = lines(
      (await api.get<string>(`/v1/embeddings/prediction-sets/${boundSet}/predictions.tsv`)).text,
    );
    const header = rows.shift()!;
    const distance = new Map(rows.map((r) => [`${r[0]} ${r[1]}`, Number(r[header.indexOf('distance')])]));
    const reported = events.body
      .filter((e) => e.event === 'predict_go_terms_batch.done')
      .flatMap(
        (e) =>
          (
            e.fields['reranker_score'] as {
              scores: { protein_accession: string; go_id: string; score: number }[];
            }
          ).scores,
      );
    expect(reported.length).toBe(rows.length);
    for (const r of reported)
      expect(r.score).toBeCloseTo(expectedScore(distance.get(`${r.protein_accession} ${r.go_id}`)!), 9);

    const mismatch = await predict({ compute_alignments: true });
    const mismatchEvents = await api.get<{ event: string; fields: Record<string, unknown> }[]>(
      `/v1/jobs/${mismatch.id}/events?limit=2000`,
    );
    expect(mismatchEvents.body.map((e) => e.event)).toContain('reranker.schema_mismatch');
    expect(
      mismatchEvents.body
        .filter((e) => e.event === 'predict_go_terms_batch.done')
        .every((e) => e.fields['reranker_score'] === null),
    ).toBe(true);

    const evaluated = await runJob(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: boundSet,
      reranker_model_id: stored['id'],
    });
    const result = (
      await api.get<
        { id: string; stage: string; metrics: Record<string, Record<string, Record<string, number>>> }[]
      >(`/v1/annotations/evaluation-sets/${evaluationSetId}/results`)
    ).body.find((r) => r.id === evaluated.result!['evaluation_result_id'])!;
    expect(result.stage).toBe('reranker');
    const nk = lines(
      (await api.get<string>(`/v1/annotations/evaluation-sets/${evaluationSetId}/ground-truth-NK.tsv`)).text,
    );
    const nkProteins = new Set(nk.map((r) => r[0]));
    const best = new Map<string, number>();
    for (const [key, d] of distance) best.set(key, Math.max(best.get(key) ?? 0, expectedScore(d)));
    const expected = createCafaEvaluator({
      ontology: readFileSync(OBO, 'utf8'),
      groundTruth: nk.map(([protein, term]) => ({ protein: protein!, term: term! })),
    }).evaluate(
      [...best]
        .map(([key, score]) => ({ protein: key.split(' ')[0]!, term: key.split(' ')[1]!, score }))
        .filter((x) => nkProteins.has(x.protein)),
    );
    const codes: Record<string, string> = {
      biological_process: 'BPO',
      molecular_function: 'MFO',
      cellular_component: 'CCO',
    };
    for (const [namespace, values] of Object.entries(expected.namespaces))
      expect(result.metrics['NK']![codes[namespace]!]!['fmax']).toBeCloseTo(values.fmax, 9);

    // rerank.tsv: the booster's score per row; training-data.tsv: 31 columns with labels; metrics agree with both.
    const reranked = lines(
      (await api.get<string>(`/v1/scoring/prediction-sets/${boundSet}/rerank.tsv`)).text,
    );
    expect(reranked.shift()).toEqual([
      'protein_accession',
      'go_id',
      'go_aspect',
      'reranker_score',
      'distance',
      'ref_protein_accession',
    ]);
    expect(reranked).toHaveLength(rows.length);
    for (const r of reranked) expect(Number(r[3])).toBeCloseTo(expectedScore(Number(r[4])), 9);
    const training = lines(
      (await api.get<string>(`/v1/scoring/prediction-sets/${boundSet}/training-data.tsv`)).text,
    );
    const trainingHeader = training.shift()!;
    expect(trainingHeader).toHaveLength(31);
    expect(trainingHeader.slice(0, 5)).toEqual(['protein_accession', 'go_id', 'aspect', 'label', 'distance']);
    expect(trainingHeader[30]).toBe('neighbor_distance_std');
    const truth = new Set<string>();
    for (const category of ['NK', 'LK', 'PK'])
      for (const [protein, term] of lines(
        (
          await api.get<string>(
            `/v1/annotations/evaluation-sets/${evaluationSetId}/ground-truth-${category}.tsv`,
          )
        ).text,
      ))
        truth.add(`${protein} ${term}`);
    for (const r of training) if (truth.has(`${r[0]} ${r[1]}`)) expect(r[3]).toBe('1');
    const deltaProteins = new Set([...truth].map((k) => k.split(' ')[0]));
    const labelled = training.filter((r) => deltaProteins.has(r[0]));
    const scoreOf = new Map(reranked.map((r) => [`${r[0]} ${r[1]}`, Number(r[3])]));
    const metrics = await api.get<{ fmax: number; auc_pr: number; pairs: number; positives: number }>(
      `/v1/scoring/prediction-sets/${boundSet}/reranker-metrics?evaluation_set_id=${evaluationSetId}`,
    );
    expect(metrics.status).toBe(200);
    expect(metrics.body.pairs).toBe(labelled.length);
    expect(metrics.body.positives).toBe(labelled.filter((r) => r[3] === '1').length);
    const independent = pairMetrics(
      labelled.map((r) => scoreOf.get(`${r[0]} ${r[1]}`)!),
      labelled.map((r) => r[3] === '1'),
    );
    expect(metrics.body.fmax).toBeCloseTo(independent.fmax, 12);
    expect(metrics.body.auc_pr).toBeCloseTo(independent.auc_pr, 12);
    const mismatchSet = (
      await api.get<{ id: string; job_id: string }[]>('/v1/embeddings/prediction-sets')
    ).body.find((x) => x.job_id === mismatch.id)!.id;
    // A feature-schema mismatch is never an error: 200 in KNN order with the rows' own scores, said in headers.
    const fallback = await api.get<string>(
      `/v1/scoring/prediction-sets/${mismatchSet}/rerank.tsv?reranker_id=${String(stored['id'])}`,
    );
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('x-reranker-fallback')).toBe('knn');
    expect(fallback.headers.get('x-svc-warning')).toMatch(
      /^reranker\.schema_mismatch: .*KNN distance order kept/,
    );
    const knn = (await api.get<string>(`/v1/embeddings/prediction-sets/${mismatchSet}/predictions.tsv`)).text;
    const knnRows = lines(knn).slice(1);
    const fallbackRows = fallback.text
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'));
    expect(fallbackRows.map((r) => `${r[0]} ${r[1]}`)).toEqual(knnRows.map((r) => `${r[0]} ${r[1]}`));
    expect(fallbackRows.every((r) => Number.isFinite(Number(r[3])))).toBe(true);
    expect((await api.delete(`/v1/scoring/rerankers/${String(byReference.body['id'])}`)).status).toBe(200);
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
      cells: {
        stage: string;
        embedding: string;
        embedding_label: string;
        per_task: { mean: number; ci95: number; n: number };
        primary_metric: string;
      }[];
    }>('/v1/benchmark/matrix');
    expect(matrix.status).toBe(200);
    const cell = matrix.body.cells.find((c) => c.stage === scoring.body.name)!;
    expect(cell.primary_metric).toBe('fmax');
    // The row is the method: a DIAMOND set's blend, an embedding backend's embedding config.
    const scored = await api.get<{
      search_backend: string;
      embedding_config_id: string;
      embedding_config_name: string;
      reference: { blend_version: string | null } | null;
    }>(`/v1/embeddings/prediction-sets/${predictionSetId}`);
    const blend = scored.body.reference?.blend_version ?? null;
    expect({ embedding: cell.embedding, label: cell.embedding_label }).toEqual(
      scored.body.search_backend === 'diamond'
        ? { embedding: `diamond:${blend}`, label: `DIAMOND, ${blend}` }
        : { embedding: scored.body.embedding_config_id, label: scored.body.embedding_config_name },
    );
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

    // Band v226 with its IA file: verified, and the weighted (_w) metrics appear.
    const terms = [...readFileSync(OBO, 'utf8').matchAll(/^id: (GO:\d{7})$/gm)].map((m) => m[1]);
    const ia = join(dir, 'IA-v226.tsv');
    writeFileSync(ia, terms.map((t, i) => `${t}\t${(i % 5) * 0.5}`).join('\n'));
    // The LAFA frame also needs the release TOI file of the band.
    const toi = join(dir, 'TOI-v226.txt');
    writeFileSync(toi, terms.join('\n') + '\n');
    const verified = await runJob(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
      band: 'v226',
      ia_file: ia,
      toi_file: toi,
      frame: 'lafa',
    });
    const verifiedEvents = await api.get<{ event: string }[]>(`/v1/jobs/${verified.id}/events?limit=500`);
    expect(verifiedEvents.body.map((e) => e.event)).toContain('run_cafa_evaluation.band_verified');
    const weighted = (verified.result!['metrics'] as Record<string, Record<string, Record<string, number>>>)[
      'NK'
    ]!;
    for (const values of Object.values(weighted)) {
      expect(typeof values['f_micro_w']).toBe('number');
      expect(typeof values['coverage_w']).toBe('number');
    }
    expect(verified.result!['frame']).toBe('lafa');

    // The benchmark config's baseline scoring config is attached to a run that names none.
    await api.post('/v1/scoring/configs', {
      name: 'baseline-similarity',
      weights: { embedding_similarity: 1 },
    });
    const baseline = await runJob(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
    });
    const baselineEvents = await api.get<{ event: string }[]>(`/v1/jobs/${baseline.id}/events?limit=500`);
    expect(baselineEvents.body.map((e) => e.event)).toContain('run_cafa_evaluation.baseline_attached');
    const labelled = await api.get<{ cells: { stage: string; stage_label: string }[] }>(
      '/v1/benchmark/matrix',
    );
    expect(labelled.body.cells.find((c) => c.stage === 'baseline-similarity')?.stage_label).toBe('Baseline');

    // The CAFA download restricted to the evaluation set's NK and LK proteins.
    const cafa = lines(
      (
        await api.get<string>(
          `/v1/embeddings/prediction-sets/${predictionSetId}/predictions-cafa.tsv?eval_id=${evaluationSetId}`,
        )
      ).text,
    );
    const delta = new Set<string | undefined>();
    for (const category of ['NK', 'LK']) {
      const truth = await api.get<string>(
        `/v1/annotations/evaluation-sets/${evaluationSetId}/ground-truth-${category}.tsv`,
      );
      for (const [protein] of lines(truth.text)) delta.add(protein);
    }
    expect(cafa.length).toBeGreaterThan(0);
    expect(cafa.every(([protein]) => delta.has(protein))).toBe(true);

    const base = `/v1/annotations/evaluation-sets/${evaluationSetId}/results`;
    const resultFolder = join(
      gateway.infra.config.storageRoot ?? gateway.infra.config.artifactsDir,
      'eval_artifacts',
      resultId,
    );
    expect(existsSync(join(resultFolder, 'nk'))).toBe(true);
    expect((await api.delete(`${base}/${resultId}`)).status).toBe(204);
    // No empty nk/, lk/, pk/ folders are left behind.
    expect(existsSync(resultFolder)).toBe(false);
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
