import { DEFAULT_BENCHMARK_CONFIG } from './benchmark-config';
import { benchmarkMatrix, MatrixResult } from './matrix';

type Tasks = Record<string, Record<string, Record<string, number>>>;

const result = (metrics: Tasks): MatrixResult => ({
  embedding: 'e1',
  embeddingLabel: 'E1',
  stage: 'balanced',
  evaluationSetId: 's1',
  metrics,
});

interface Expected {
  primary_metric: 'f_micro_w' | 'fmax';
  /** category -> aspect -> [mean, n] */
  tasks: Record<string, Record<string, [number, number]>>;
  per_task: [number, number];
  results: number;
  excluded_results: number;
}

const cases: { name: string; results: MatrixResult[]; expected: Expected | null }[] = [
  {
    // The audit's cell: the mix (0.786 + 0.852) / 2 = 0.819 labelled fmax is what must not happen.
    name: 'one result with IA and one without: the cell is f_micro_w of the IA result only',
    results: [
      result({ LK: { CCO: { f_micro_w: 0.786, fmax: 0.9 } } }),
      result({ LK: { CCO: { fmax: 0.852 } } }),
    ],
    expected: {
      primary_metric: 'f_micro_w',
      tasks: { LK: { CCO: [0.786, 1] } },
      per_task: [0.786, 1],
      results: 1,
      excluded_results: 1,
    },
  },
  {
    name: 'every result weighted: f_micro_w, never the fmax they also carry',
    results: [
      result({ NK: { BPO: { f_micro_w: 0.2, fmax: 0.9 } } }),
      result({ NK: { BPO: { f_micro_w: 0.4, fmax: 0.1 } } }),
    ],
    expected: {
      primary_metric: 'f_micro_w',
      tasks: { NK: { BPO: [0.3, 2] } },
      per_task: [0.3, 1],
      results: 2,
      excluded_results: 0,
    },
  },
  {
    name: 'no result weighted: the legacy fmax cell',
    results: [result({ NK: { MFO: { fmax: 0.5, f_micro: 0.1 } } }), result({ NK: { MFO: { fmax: 0.7 } } })],
    expected: {
      primary_metric: 'fmax',
      tasks: { NK: { MFO: [0.6, 2] } },
      per_task: [0.6, 1],
      results: 2,
      excluded_results: 0,
    },
  },
  {
    // BPO: (0.2 + 0.4) / 2 = 0.3; MFO: 0.6 from one result; per_task: (0.3 + 0.6) / 2 = 0.45.
    // The legacy result's fmax (0.9, 0.1) would have moved both means.
    name: 'several tasks: a weighted result missing a task adds nothing there; the legacy one nowhere',
    results: [
      result({ NK: { BPO: { f_micro_w: 0.2 }, MFO: { f_micro_w: 0.6 } } }),
      result({ NK: { BPO: { f_micro_w: 0.4 } } }),
      result({ NK: { BPO: { fmax: 0.9 }, MFO: { fmax: 0.1 } } }),
    ],
    expected: {
      primary_metric: 'f_micro_w',
      tasks: { NK: { BPO: [0.3, 2], MFO: [0.6, 1] } },
      per_task: [0.45, 2],
      results: 2,
      excluded_results: 1,
    },
  },
  {
    // A result still running has no metrics yet: it is excluded, not averaged as nothing.
    name: 'a result without metrics is excluded',
    results: [result({ PK: { CCO: { fmax: 0.4 } } }), result({})],
    expected: {
      primary_metric: 'fmax',
      tasks: { PK: { CCO: [0.4, 1] } },
      per_task: [0.4, 1],
      results: 1,
      excluded_results: 1,
    },
  },
  {
    name: 'no value of either metric: no cell',
    results: [result({}), result({ NK: { BPO: {} } })],
    expected: null,
  },
];

describe('benchmarkMatrix: one metric per cell', () => {
  it.each(cases)('$name', ({ results, expected }) => {
    const cells = benchmarkMatrix(results, DEFAULT_BENCHMARK_CONFIG);
    if (expected === null) {
      expect(cells).toEqual([]);
      return;
    }
    expect(cells).toHaveLength(1);
    const cell = cells[0]!;
    expect(cell.primary_metric).toBe(expected.primary_metric);
    expect(cell.results).toBe(expected.results);
    expect(cell.excluded_results).toBe(expected.excluded_results);
    const tasks = Object.fromEntries(
      Object.entries(cell.tasks).map(([category, aspects]) => [
        category,
        Object.fromEntries(Object.entries(aspects).map(([aspect, s]) => [aspect, [s.mean, s.n]])),
      ]),
    );
    expect(Object.keys(tasks)).toEqual(Object.keys(expected.tasks));
    for (const [category, aspects] of Object.entries(expected.tasks)) {
      expect(Object.keys(tasks[category]!)).toEqual(Object.keys(aspects));
      for (const [aspect, [mean, n]] of Object.entries(aspects))
        expect(tasks[category]![aspect]).toEqual([expect.closeTo(mean, 12), n]);
    }
    expect(cell.per_task.mean).toBeCloseTo(expected.per_task[0], 12);
    expect(cell.per_task.n).toBe(expected.per_task[1]);
  });
});
