import { verifyBand } from './bands';
import { DEFAULT_BENCHMARK_CONFIG, parseBenchmarkConfig, stageLabel } from './benchmark-config';
import { benchmarkMatrix, meanCi, MatrixResult } from './matrix';

describe('verifyBand', () => {
  it.each([
    {
      name: 'matching release and IA file',
      input: { band: 'v226', oboVersion: 'releases/2022-07-01', iaSource: '/data/IA-v226.tsv' },
      ok: true,
    },
    {
      name: 'IA given as a URI',
      input: {
        band: 'v227',
        oboVersion: 'godb-3.20.0-built-2024-09-23',
        iaSource: 'file:///x/IA-v227-go.tsv',
      },
      ok: true,
    },
    {
      name: 'another release',
      input: { band: 'v226', oboVersion: 'godb-3.20.0-built-2024-09-23', iaSource: 'IA-v226.tsv' },
      ok: false,
    },
    {
      name: "the other band's IA file",
      input: { band: 'v226', oboVersion: 'releases/2022-07-01', iaSource: 'IA-v227.tsv' },
      ok: false,
    },
    {
      name: 'no IA file',
      input: { band: 'v226', oboVersion: 'releases/2022-07-01', iaSource: null },
      ok: false,
    },
    {
      name: 'the token only in a folder name',
      input: { band: 'v226', oboVersion: 'releases/2022-07-01', iaSource: '/IA-v226/ia.tsv' },
      ok: false,
    },
    {
      name: 'an unknown band',
      input: { band: 'v999', oboVersion: 'releases/2022-07-01', iaSource: 'IA-v226.tsv' },
      ok: false,
    },
  ])('$name', ({ input, ok }) => expect(verifyBand(input).ok).toBe(ok));
});

describe('meanCi', () => {
  it.each([
    { values: [], expected: { mean: 0, ci95: 0, n: 0 } },
    { values: [0.4], expected: { mean: 0.4, ci95: 0, n: 1 } },
    // sample sd of (0.2, 0.4) = 0.14142...; 1.96 * sd / sqrt(2) = 0.196
    { values: [0.2, 0.4], expected: { mean: 0.3, ci95: 0.196, n: 2 } },
  ])('$values', ({ values, expected }) => {
    const got = meanCi(values);
    expect(got.n).toBe(expected.n);
    expect(got.mean).toBeCloseTo(expected.mean, 12);
    expect(got.ci95).toBeCloseTo(expected.ci95, 12);
  });
});

describe('parseBenchmarkConfig and stage labels', () => {
  it('a missing file gives the defaults', () =>
    expect(parseBenchmarkConfig(null)).toEqual(DEFAULT_BENCHMARK_CONFIG));
  it('keeps valid keys and defaults the malformed ones', () => {
    const config = parseBenchmarkConfig({
      baseline_scoring: 'balanced',
      hidden_stages: 'x',
      categories: ['NK'],
      stage_labels: { a: 'A', b: 3 },
    });
    expect(config).toMatchObject({
      baseline_scoring: 'balanced',
      hidden_stages: [],
      categories: ['NK'],
      stage_labels: { a: 'A' },
    });
    expect(config.aspects).toEqual(['BPO', 'MFO', 'CCO']);
  });
  it.each([
    ['knn_baseline', {}, 'Knn Baseline'],
    ['reranker', { reranker: 'LightGBM re-ranker' }, 'LightGBM re-ranker'],
    ['embedding-only', {}, 'Embedding Only'],
  ])('%s', (stage, labels, expected) =>
    expect(stageLabel({ ...DEFAULT_BENCHMARK_CONFIG, stage_labels: labels }, stage)).toBe(expected),
  );
});

describe('benchmarkMatrix', () => {
  const result = (
    stage: string | null,
    embedding: string,
    nkBpo: Record<string, number>,
    set = 's1',
  ): MatrixResult => ({
    embedding,
    embeddingLabel: embedding.toUpperCase(),
    stage,
    evaluationSetId: set,
    metrics: { NK: { BPO: nkBpo }, LK: { MFO: { fmax: 0.5 } } },
  });

  it('groups by (embedding, stage), skips results without a stage, averages each task', () => {
    const cells = benchmarkMatrix(
      [
        result('balanced', 'e1', { f_micro_w: 0.2, fmax: 0.9 }),
        result('balanced', 'e1', { f_micro_w: 0.4, fmax: 0.9 }, 's2'),
        result(null, 'e1', { f_micro_w: 1 }),
        result('reranker', 'e2', { fmax: 0.6 }),
      ],
      DEFAULT_BENCHMARK_CONFIG,
    );
    expect(cells.map((c) => [c.stage, c.embedding])).toEqual([
      ['balanced', 'e1'],
      ['reranker', 'e2'],
    ]);
    const balanced = cells[0]!;
    expect(balanced.results).toBe(2);
    expect(balanced.tasks['NK']!['BPO']!.mean).toBeCloseTo(0.3, 12);
    // LK/MFO holds only fmax: it is not mixed into this f_micro_w cell.
    expect(balanced.primary_metric).toBe('f_micro_w');
    expect(balanced.tasks['LK']).toBeUndefined();
    expect(balanced.per_task.n).toBe(1);
    expect(balanced.per_task.mean).toBeCloseTo(0.3, 12);
    expect(balanced.stage_label).toBe('Balanced');
    expect(cells[1]!.primary_metric).toBe('fmax');
  });

  it('honours hidden stages and embeddings, preferred stage order and configured tasks', () => {
    const config = parseBenchmarkConfig({
      hidden_embeddings: ['E3'],
      hidden_stages: ['x'],
      preferred_stages: ['reranker'],
      aspects: ['BPO'],
    });
    const cells = benchmarkMatrix(
      [
        result('balanced', 'e1', { f_micro_w: 0.2 }),
        result('reranker', 'e2', { f_micro_w: 0.6 }),
        result('reranker', 'e3', { f_micro_w: 0.6 }),
        result('x', 'e1', { f_micro_w: 0.6 }),
      ],
      config,
    );
    expect(cells.map((c) => c.stage)).toEqual(['reranker', 'balanced']);
    expect(cells[0]!.primary_metric).toBe('f_micro_w');
    expect(Object.keys(cells[0]!.tasks)).toEqual(['NK']);
  });
});
