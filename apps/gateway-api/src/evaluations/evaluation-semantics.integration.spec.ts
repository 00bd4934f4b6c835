import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  activeFeatureNames,
  CafaThresholdRow,
  createCafaEvaluator,
  featureFlagsOf,
  featureSchemaSha,
} from '@svc/domain';
import {
  AppProcess,
  createSuiteWorld,
  distanceStumpModel,
  embedProteinsWithKmer,
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

const FIXTURE_OBO = join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo');
const BASELINE = 'votes-baseline';
const CATEGORIES = ['NK', 'LK', 'PK'] as const;
const ASPECT_CODE: Record<string, string> = {
  biological_process: 'BPO',
  molecular_function: 'MFO',
  cellular_component: 'CCO',
};

type Job = TestJob;
type Metrics = Record<string, Record<string, Record<string, number>>>;
interface Result {
  id: string;
  scoring_config_id: string | null;
  stage: string | null;
  frame: string | null;
  metrics: Metrics;
}
interface PredictionRow {
  protein: string;
  term: string;
  aspect: string;
  distance: number;
  votes: number;
}

/** The lines of a TSV download as cells, its comment lines (`# ...`, what the rows stand on) left out. */
const lines = (text: string): string[][] =>
  text
    .split('\n')
    .filter((l) => l.length > 0 && !l.startsWith('# '))
    .map((l) => l.split('\t'));

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
/** The one-split booster of distanceStumpModel: left leaf 2 up to distance 0.3, else -1. */
const stumpScore = (distance: number): number => (distance <= 0.3 ? sigmoid(2) : sigmoid(-1));
/** A row's own score, the specification's max(0, 1 - distance). */
const ownScore = (distance: number): number => Math.max(0, 1 - distance);

describe('evaluation semantics: baseline attach rule, LAFA frame, AUPRC', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let dir: string;
  let OBO: string;
  let evaluationSetId: string;
  let predictionSetId: string;
  let rerankerId: string;
  let baselineId: string;
  let predictions: PredictionRow[];
  let truth: Record<string, { protein: string; term: string }[]>;
  let known: { protein: string; term: string }[];
  let iaFile: string;
  let toiFile: string;
  let t0SetId: string;
  let otherSnapshotSetId: string;

  const runJob = (path: string, body: unknown): Promise<Job> => runJobToSuccess<Job>(api, path, body);
  const runEvaluation = (body: Record<string, unknown>): Promise<Job> =>
    runJob(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
      ...body,
    });
  const failedEvaluation = async (body: Record<string, unknown>): Promise<Job> => {
    const queued = await api.post<{ id: string }>(`/v1/annotations/evaluation-sets/${evaluationSetId}/run`, {
      prediction_set_id: predictionSetId,
      ...body,
    });
    expect(queued.status).toBe(201);
    return waitForJobEnd<Job>(api, queued.body.id, 60_000);
  };
  const resultOf = async (job: Job): Promise<Result> => {
    const results = await api.get<Result[]>(`/v1/annotations/evaluation-sets/${evaluationSetId}/results`);
    return results.body.find((r) => r.id === job.result!['evaluation_result_id'])!;
  };
  const eventsOf = async (job: Job): Promise<string[]> =>
    (await api.get<{ event: string }[]>(`/v1/jobs/${job.id}/events?limit=500`)).body.map((e) => e.event);

  /**
   * The evaluator run by hand on the downloaded inputs: each prediction row scored by `score`, the
   * best score per (protein, term), per category its ground truth (PK with its known terms).
   */
  const expectedEvaluations = (
    score: (row: PredictionRow, category: string) => number,
    files: { ia?: string; toi?: string } = {},
  ) => {
    const out: Record<string, ReturnType<ReturnType<typeof createCafaEvaluator>['evaluate']>> = {};
    for (const category of CATEGORIES) {
      const groundTruth = truth[category]!;
      if (groundTruth.length === 0) continue;
      const proteins = new Set(groundTruth.map((t) => t.protein));
      const best = new Map<string, { protein: string; term: string; score: number }>();
      for (const row of predictions) {
        if (!proteins.has(row.protein)) continue;
        const value = score(row, category);
        const key = `${row.protein}\t${row.term}`;
        if ((best.get(key)?.score ?? -Infinity) < value)
          best.set(key, { protein: row.protein, term: row.term, score: value });
      }
      out[category] = createCafaEvaluator({
        ontology: readFileSync(OBO, 'utf8'),
        groundTruth,
        known: category === 'PK' ? known.filter((k) => proteins.has(k.protein)) : null,
        ia: files.ia ?? null,
        toi: files.toi ?? null,
      }).evaluate([...best.values()]);
    }
    return out;
  };

  const expectMetricsOf = (stored: Metrics, expected: ReturnType<typeof expectedEvaluations>): void => {
    expect(Object.keys(stored).sort()).toEqual(Object.keys(expected).sort());
    for (const [category, evaluation] of Object.entries(expected)) {
      expect(Object.keys(stored[category]!).sort()).toEqual(
        Object.keys(evaluation.namespaces)
          .map((n) => ASPECT_CODE[n])
          .sort(),
      );
      for (const [namespace, values] of Object.entries(evaluation.namespaces)) {
        const got = stored[category]![ASPECT_CODE[namespace]!]!;
        expect([category, namespace, got['fmax']]).toEqual([
          category,
          namespace,
          expect.closeTo(values.fmax, 9),
        ]);
        expect([category, namespace, got['f_micro']]).toEqual([
          category,
          namespace,
          expect.closeTo(values.f_micro, 9),
        ]);
      }
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-eval-semantics-'));
    // The tiny GO subset under the release name band v226 pins (its content is unchanged).
    OBO = join(dir, 'go-2022-07-01.obo');
    writeFileSync(
      OBO,
      readFileSync(FIXTURE_OBO, 'utf8').replace(/^data-version: .*$/m, 'data-version: releases/2022-07-01'),
    );
    const benchmarkConfig = join(dir, 'benchmark.yaml');
    writeFileSync(benchmarkConfig, `baseline_scoring: ${BASELINE}\n`);
    world = await createSuiteWorld('evaluation_semantics');
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
    const snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const load = (file: string): Promise<string> =>
      loadTsvAnnotations(api, {
        snapshotId,
        tsv: join(SHARED_DATA_DIR, 'tiny', file),
        gaf: join(dir, `${file}.gaf`),
        sourceVersion: `${file}-${randomUUID()}`,
        tolerateUnresolved: file.includes('.t1.'),
      });
    const t0 = await load('annotations.t0.gene2go-2022-09-12.tsv');
    const t1 = await load('annotations.t1.gene2go-2024-09-20.tsv');
    t0SetId = t0;
    // The same annotations against another release of the ontology: a holdout may not mix the two.
    const otherObo = join(dir, 'go-other-release.obo');
    writeFileSync(
      otherObo,
      readFileSync(FIXTURE_OBO, 'utf8').replace(/^data-version: .*$/m, 'data-version: releases/2099-01-01'),
    );
    const other = await runJob('/v1/annotations/snapshots/load', { obo_url: otherObo });
    otherSnapshotSetId = await loadTsvAnnotations(api, {
      snapshotId: other.result!['ontology_snapshot_id'] as string,
      tsv: join(SHARED_DATA_DIR, 'tiny', 'annotations.t1.gene2go-2024-09-20.tsv'),
      gaf: join(dir, 'other-release.gaf'),
      sourceVersion: `other-${randomUUID()}`,
      tolerateUnresolved: true,
    });
    const configId = await embedProteinsWithKmer(api, join(SHARED_DATA_DIR, 'tiny/sequences.fasta'));
    const predicted = await runJob('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: t0,
      ontology_snapshot_id: snapshotId,
      limit_per_entry: 5,
      compute_alignments: false,
      // The distance stump re-ranker and the 1 - d/2 baseline are about an embedding search.
      search_backend: 'numpy',
    });
    const sets = await api.get<{ id: string; job_id: string }[]>('/v1/embeddings/prediction-sets');
    predictionSetId = sets.body.find((s) => s.job_id === predicted.id)!.id;
    const generated = await runJob('/v1/annotations/evaluation-sets/generate', {
      old_annotation_set_id: t0,
      new_annotation_set_id: t1,
    });
    evaluationSetId = generated.result!['evaluation_set_id'] as string;

    // The baseline scores by neighbour votes, so using it by mistake changes the numbers.
    const baseline = await api.post<{ id: string }>('/v1/scoring/configs', {
      name: BASELINE,
      weights: { neighbor_vote_fraction: 1 },
    });
    expect(baseline.status).toBe(201);
    baselineId = baseline.body.id;

    const names = activeFeatureNames(featureFlagsOf({ compute_alignments: false }));
    const form = new FormData();
    const run = { feature_schema_sha: featureSchemaSha(names), run_id: `run-${randomUUID()}`, metrics: {} };
    form.set('name', `stump-${run.run_id}`);
    form.set('model.txt', new Blob([distanceStumpModel(names)]), 'model.txt');
    form.set('spec.yaml', new Blob(['features: distance-first\n']), 'spec.yaml');
    form.set('run.json', new Blob([JSON.stringify(run)]), 'run.json');
    const imported = await fetch(`${api.baseUrl}/v1/reranker-models/import`, { method: 'POST', body: form });
    expect(imported.status).toBe(201);
    rerankerId = ((await imported.json()) as { id: string }).id;

    // The inputs a user can download, for the independent recomputations.
    const rows = lines(
      (await api.get<string>(`/v1/embeddings/prediction-sets/${predictionSetId}/predictions.tsv`)).text,
    );
    const header = rows.shift()!;
    const [p, g, a, d, v] = [
      'protein_accession',
      'go_id',
      'go_aspect',
      'distance',
      'neighbor_vote_fraction',
    ].map((c) => header.indexOf(c));
    expect([p, g, a, d, v].every((i) => i! >= 0)).toBe(true);
    predictions = rows.map((r) => ({
      protein: r[p!]!,
      term: r[g!]!,
      aspect: r[a!]!,
      distance: Number(r[d!]),
      votes: Number(r[v!]),
    }));
    const download = async (name: string) =>
      lines((await api.get<string>(`/v1/annotations/evaluation-sets/${evaluationSetId}/${name}`)).text).map(
        ([protein, term]) => ({ protein: protein!, term: term! }),
      );
    truth = {};
    for (const category of CATEGORIES) truth[category] = await download(`ground-truth-${category}.tsv`);
    known = await download('known-terms.tsv');

    // Band v226's IA file and the release TOI file (every live term) under their canonical names.
    const terms = [...readFileSync(OBO, 'utf8').matchAll(/^id: (GO:\d{7})$/gm)].map((m) => m[1]!);
    iaFile = join(dir, 'IA-v226.tsv');
    writeFileSync(iaFile, terms.map((t, i) => `${t}\t${(i % 5) * 0.5}`).join('\n'));
    toiFile = join(dir, 'TOI-v226.txt');
    writeFileSync(toiFile, terms.join('\n') + '\n');
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deviation 1: a per-category re-ranker selection gets no baseline scoring; the other rows keep their own score', async () => {
    const job = await runEvaluation({ rerankers: { nk: { mfo: rerankerId } } });
    const result = await resultOf(job);
    expect(result.stage).toBe('reranker');
    expect(result.scoring_config_id).toBeNull();
    expect(await eventsOf(job)).not.toContain('run_cafa_evaluation.baseline_attached');
    // NK molecular-function rows are the booster's; every other row its own score, not the votes.
    expectMetricsOf(
      result.metrics,
      expectedEvaluations((row, category) =>
        category === 'NK' && row.aspect === 'F' ? stumpScore(row.distance) : ownScore(row.distance),
      ),
    );
  });

  it('deviation 1: a single re-ranker claims no scoring config and scores every row', async () => {
    const job = await runEvaluation({ reranker_model_id: rerankerId });
    const result = await resultOf(job);
    expect(result.scoring_config_id).toBeNull();
    expect(await eventsOf(job)).not.toContain('run_cafa_evaluation.baseline_attached');
    expectMetricsOf(
      result.metrics,
      expectedEvaluations((row) => stumpScore(row.distance)),
    );
  });

  it('deviation 1: a run that selects nothing still gets the configured baseline, and its numbers', async () => {
    const job = await runEvaluation({});
    const result = await resultOf(job);
    expect(result.scoring_config_id).toBe(baselineId);
    expect(result.stage).toBe(BASELINE);
    expect(await eventsOf(job)).toContain('run_cafa_evaluation.baseline_attached');
    expectMetricsOf(
      result.metrics,
      expectedEvaluations((row) => row.votes),
    );
  });

  it('deviation 2: a benchmark cell holds one metric; a result without it is left out and counted', async () => {
    const stage = `mixed-${randomUUID().slice(0, 8)}`;
    const config = await api.post<{ id: string }>('/v1/scoring/configs', {
      name: stage,
      weights: { neighbor_vote_fraction: 1 },
    });
    expect(config.status).toBe(201);
    // The same stage twice: once weighted by an IA file (f_micro_w), once not (fmax only).
    await runEvaluation({ scoring_config_id: config.body.id, ia_file: iaFile });
    await runEvaluation({ scoring_config_id: config.body.id });
    const matrix = await api.get<{
      cells: {
        stage: string;
        primary_metric: string;
        results: number;
        excluded_results: number;
        tasks: Record<string, Record<string, { mean: number }>>;
      }[];
    }>('/v1/benchmark/matrix');
    const cell = matrix.body.cells.find((c) => c.stage === stage)!;
    expect(cell).toMatchObject({ primary_metric: 'f_micro_w', results: 1, excluded_results: 1 });
    // Independent: the evaluator on the downloaded inputs with the IA file gives every task's value.
    const expected = expectedEvaluations((row) => row.votes, { ia: readFileSync(iaFile, 'utf8') });
    let compared = 0;
    for (const [category, evaluation] of Object.entries(expected)) {
      for (const [namespace, values] of Object.entries(evaluation.namespaces)) {
        const task = cell.tasks[category]?.[ASPECT_CODE[namespace]!];
        if (task === undefined) continue;
        expect([category, namespace, task.mean]).toEqual([
          category,
          namespace,
          expect.closeTo(values.f_micro_w!, 9),
        ]);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('deviation 3: a holdout of annotation sets from two ontology snapshots is refused at dispatch (422)', async () => {
    const before = await api.get<unknown[]>('/v1/jobs?operation=generate_evaluation_set&limit=500');
    const res = await api.post<{ status: number; errors: { path: string }[] }>(
      '/v1/annotations/evaluation-sets/generate',
      { old_annotation_set_id: t0SetId, new_annotation_set_id: otherSnapshotSetId },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0]!.path).toBe('new_annotation_set_id');
    const after = await api.get<unknown[]>('/v1/jobs?operation=generate_evaluation_set&limit=500');
    expect(after.body.length).toBe(before.body.length);
  });

  it('deviation 5: frame is lafa or nothing: any other value is a 422 at the route and at POST /v1/jobs', async () => {
    const route = await api.post<{ errors: { path: string }[] }>(
      `/v1/annotations/evaluation-sets/${evaluationSetId}/run`,
      { prediction_set_id: predictionSetId, frame: 'cafa5' },
    );
    expect(route.status).toBe(422);
    const jobs = await api.post('/v1/jobs', {
      operation: 'run_cafa_evaluation',
      payload: { evaluation_set_id: evaluationSetId, prediction_set_id: predictionSetId, frame: 'lafa-v2' },
    });
    expect(jobs.status).toBe(422);
  });

  it('deviation 5: frame lafa fails with lafa_frame_mismatch unless band, IA, release TOI, th_step and max_terms hold', async () => {
    const lafa = { frame: 'lafa', band: 'v226', ia_file: iaFile, toi_file: toiFile };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...lafa, band: undefined }, 'a band (v226, v227) is required'],
      [{ ...lafa, toi_file: undefined }, 'the TOI file of band v226 (TOI-v226…) is required'],
      [{ ...lafa, toi_file: OBO }, "the TOI file must be band v226's (TOI-v226…), not go-2022-07-01.obo"],
      [{ ...lafa, th_step: 0.05 }, 'th_step must be the default 0.01, not 0.05'],
      [{ ...lafa, max_terms: 20 }, 'max_terms must be unlimited (null), not 20'],
    ];
    for (const [body, problem] of cases) {
      const job = await failedEvaluation(body);
      expect([problem, job.status, job.error_code]).toEqual([problem, 'FAILED', 'lafa_frame_mismatch']);
      expect(job.error_message).toContain(problem);
    }
    // The same files and defaults without claiming the frame run as an ordinary evaluation.
    const unframed = await runEvaluation({ ia_file: iaFile, toi_file: toiFile, th_step: 0.05 });
    expect(unframed.status).toBe('SUCCEEDED');
  });

  it('deviation 5 and 6: a LAFA-comparable run succeeds; auprc and auprc_w are stored and in metrics.tsv', async () => {
    const job = await runEvaluation({
      frame: 'lafa',
      band: 'v226',
      ia_file: iaFile,
      toi_file: toiFile,
      scoring_config_id: baselineId,
    });
    expect(job.result!['frame']).toBe('lafa');
    const result = await resultOf(job);
    expect(result.frame).toBe('lafa');

    // Independent: the evaluator's per-threshold curve, integrated here with the trapezoid rule over
    // the thresholds that cover a protein, in threshold order.
    const expected = expectedEvaluations((row) => row.votes, {
      ia: readFileSync(iaFile, 'utf8'),
      toi: readFileSync(toiFile, 'utf8'),
    });
    const trapezoid = (curve: CafaThresholdRow[], weighted: boolean): number => {
      const points = curve
        .filter((r) => r.cov > 0 && (weighted ? (r.cov_w ?? 0) > 0 : true))
        .map((r): [number, number] => (weighted ? [r.rc_w ?? 0, r.pr_w ?? 0] : [r.rc, r.pr]));
      let area = 0;
      for (let i = 1; i < points.length; i++)
        area += ((points[i - 1]![0] - points[i]![0]) * (points[i - 1]![1] + points[i]![1])) / 2;
      return area;
    };
    const tsv = lines(
      (
        await api.get<string>(
          `/v1/annotations/evaluation-sets/${evaluationSetId}/results/${result.id}/metrics.tsv`,
        )
      ).text,
    );
    const tsvHeader = tsv.shift()!;
    expect(tsvHeader).toEqual(expect.arrayContaining(['auprc_w', 'auprc']));
    let compared = 0;
    for (const [category, evaluation] of Object.entries(expected)) {
      for (const [namespace, curve] of Object.entries(evaluation.rows)) {
        const aspect = ASPECT_CODE[namespace]!;
        const stored = result.metrics[category]![aspect]!;
        const line = tsv.find((r) => r[0] === category && r[1] === aspect)!;
        for (const [key, weighted] of [
          ['auprc', false],
          ['auprc_w', true],
        ] as const) {
          const area = trapezoid(curve, weighted);
          expect([category, aspect, key, stored[key]]).toEqual([
            category,
            aspect,
            key,
            expect.closeTo(area, 9),
          ]);
          expect(Number(line[tsvHeader.indexOf(key)])).toBeCloseTo(area, 9);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});
