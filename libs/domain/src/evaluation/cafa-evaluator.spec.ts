import type { CafaEvaluatorInput } from './cafa-evaluator';
import type { CafaBestRow, CafaThresholdRow } from './cafa-types';
import { BASE_CASE, evaluateSmall, rowAt, tauAt } from '../../testing/evaluation/cafa-test-data';

// Hand-computed cases on the small ontology of testing/cafa-test-data.ts (mf: A root; B, C under A;
// D under B; E under B and part_of C). Grid: tau_29 = 0.3, tau_30 = 0.31, tau_49 = 0.5,
// tau_79 = 0.8, tau_89 = 0.9.

function expectRow(row: CafaThresholdRow | undefined, expected: Partial<CafaThresholdRow>): void {
  for (const [key, value] of Object.entries(expected)) {
    expect([key, row?.[key as keyof CafaThresholdRow]]).toEqual([key, expect.closeTo(value, 12)]);
  }
}

function expectBest(row: CafaBestRow | undefined, expected: Partial<CafaBestRow>): void {
  for (const [key, value] of Object.entries(expected)) {
    expect([key, row?.[key as keyof CafaBestRow]]).toEqual([key, expect.closeTo(value, 12)]);
  }
}

type Input = Parameters<typeof evaluateSmall>[0];

const BASE: Input = BASE_CASE;

interface RowCase {
  name: string;
  input: Input;
  rows: [number, Partial<CafaThresholdRow>][];
}

const ROW_CASES: RowCase[] = [
  {
    name: 'fill: an explicit parent score is kept below its child; ties, micro and macro',
    input: BASE,
    rows: [
      // P1 predicts {D, B, C} (2 of 3 right), P2 {E, B, C} (1 of 3 right).
      [
        0,
        {
          n: 2,
          pr: 0.5,
          rc: 1,
          f: 2 / 3,
          cov: 1,
          pr_micro: 0.5,
          rc_micro: 1,
          f_micro: 2 / 3,
          mi: 1.5,
          s: 1.5,
        },
      ],
      // 0.3 >= tau_29 = 0.3: C is still predicted for P1.
      [29, { n: 2, f: 2 / 3 }],
      [30, { n: 2, pr: 2 / 3, rc: 1, f: 0.8, f_micro: 0.75, mi: 1, ru: 0, s: 1 }],
      [49, { f: 0.8 }],
      // P2's C (0.5) drops out while its child E (0.9) stays.
      [50, { n: 2, pr: 0.5, rc: 0.5, f: 0.5, f_micro: 4 / 7, tp: 1, fp: 1, fn: 0.5, s: Math.sqrt(1.25) }],
      [80, { n: 1, pr: 0, rc: 0, f: 0, cov: 0.5 }],
      [90, { n: 0, cov: 0 }],
    ],
  },
  {
    name: 'max: a parent scores at least its best child',
    input: { ...BASE, options: { propagation: 'max' } },
    rows: [
      [50, { n: 2, pr: 2 / 3, rc: 1, f: 0.8 }],
      [80, { n: 1, pr: 1 / 3, rc: 0.5, f: 0.4, f_micro: 1 / 3 }],
    ],
  },
  {
    name: 'orphans kept: the root is scored',
    input: { ...BASE, options: { keepOrphans: true } },
    rows: [
      // P1 {D, B, C, A}: 3 of 4 right; P2 {E, B, C, A}: 2 of 4 right (C, A).
      [0, { n: 2, pr: 0.625, rc: 1, f: 1.25 / 1.625 }],
      [80, { n: 1, pr: 1 / 3, rc: 0.25 }],
    ],
  },
  {
    name: 'scores on the float grid: 0.06 misses tau_5 = 0.060000000000000005, 0.07 reaches tau_6',
    input: {
      groundTruth: [
        ['P1', 'X:D'],
        ['P2', 'X:C'],
      ],
      predictions: [
        ['P1', 'X:D', 0.06],
        ['P2', 'X:C', 0.07],
      ],
    },
    rows: [
      [4, { n: 2 }],
      [5, { n: 1 }],
      [6, { n: 1 }],
      [7, { n: 0 }],
    ],
  },
  {
    name: 'duplicates keep the highest score; alt ids map to the canonical term',
    input: {
      groundTruth: [['P1', 'X:C2']],
      predictions: [
        ['P1', 'X:C2', 0.4],
        ['P1', 'X:C', 0.9],
        ['P1', 'X:C', 0.2],
      ],
    },
    rows: [
      [89, { n: 1, pr: 1, rc: 1 }],
      [90, { n: 0 }],
    ],
  },
  {
    name: 'max_terms 1 keeps two non-zero terms in file order; a zero score takes no slot',
    input: {
      groundTruth: [['P1', 'X:D']],
      // Kept: C 0 (no slot), E 0.2, D 0.9; B 0.95 arrives with two non-zero terms and is cut.
      // C's explicit 0 counts as unscored, so under fill it takes E's 0.2.
      predictions: [
        ['P1', 'X:C', 0],
        ['P1', 'X:E', 0.2],
        ['P1', 'X:D', 0.9],
        ['P1', 'X:B', 0.95],
      ],
      options: { maxTerms: 1 },
    },
    rows: [
      [19, { n: 1, tp: 2, fp: 2 }],
      [20, { n: 1, tp: 2, fp: 0 }],
      [89, { n: 1 }],
      [93, { n: 0 }],
    ],
  },
  {
    name: 'without max_terms the same lines keep B at 0.95',
    input: {
      groundTruth: [['P1', 'X:D']],
      predictions: [
        ['P1', 'X:C', 0],
        ['P1', 'X:E', 0.2],
        ['P1', 'X:D', 0.9],
        ['P1', 'X:B', 0.95],
      ],
    },
    // tau_93 = 0.94: only B (0.95) is left; tau_94 = 0.9500000000000001 is above it.
    rows: [
      [93, { n: 1, tp: 1, fp: 0, fn: 1 }],
      [94, { n: 0 }],
    ],
  },
  {
    name: 'known terms (PK): K* excluded; an all-known protein counts in n, not in ne',
    input: {
      groundTruth: [
        ['P1', 'X:D'],
        ['P2', 'X:B'],
      ],
      // K*(P1) = {B, A}: G(P1) = {D}. K*(P2) = {B, A} = GT*(P2): G(P2) is empty.
      known: 'P1\tX:B\nP2\tX:B\n',
      predictions: [
        ['P1', 'X:D', 0.8],
        ['P1', 'X:C', 0.4],
        ['P1', 'X:B', 0.9],
        ['P2', 'X:C', 0.7],
      ],
    },
    rows: [
      [39, { n: 2, pr: 0.25, rc: 1, cov: 2, tp: 1, fp: 2, pr_micro: 1 / 3, f_micro: 0.5 }],
      [40, { n: 2, pr: 0.5, rc: 1, f: 2 / 3, cov: 2, f_micro: 2 / 3 }],
      [70, { n: 1, pr: 1, f: 1, cov: 1 }],
    ],
  },
  {
    name: 'TOI: U = U ∩ TOI, a root listed in the TOI stays out; proteins without S terms vanish',
    input: { ...BASE, toi: 'X:B\nX:D\nX:A\nX:S\n' },
    rows: [[0, { n: 1, pr: 1, rc: 1, cov: 1, fp: 0 }]],
  },
  {
    name: 'root-only ground truth is invisible without orphans, whatever it predicts',
    input: {
      groundTruth: [...BASE.groundTruth, ['P4', 'X:A']],
      predictions: [...BASE.predictions, ['P4', 'X:B', 0.9]],
    },
    rows: [[0, { n: 2, pr: 0.5, rc: 1, f: 2 / 3, cov: 1 }]],
  },
];

describe('evaluateCafa threshold rows', () => {
  it.each(ROW_CASES)('$name', ({ input, rows }) => {
    const result = evaluateSmall(input);
    for (const [index, expected] of rows)
      expectRow(rowAt(result, 'mf', index), { tau: tauAt(index), ...expected });
  });
});

const IA_TEXT = 'X:A\t0\nX:B\t2\nX:C\t1\nX:D\t0.5\nX:E\t4\n';

describe('evaluateCafa best rows and persisted keys', () => {
  it('picks the first of tied rows (lowest tau) and drops rows with no coverage', () => {
    const mf = evaluateSmall(BASE).namespaces['mf'];
    expectBest(mf?.best.fmax, { value: 0.8, tau: tauAt(30), precision: 2 / 3, recall: 1, coverage: 1, n: 2 });
    expectBest(mf?.best.f_micro, { value: 0.75, tau: tauAt(30), precision: 0.6, recall: 1, cov_max: 1 });
    expectBest(mf?.best.smin, { value: 1, tau: tauAt(30), mi: 1, ru: 0 } as Partial<CafaBestRow>);
    expect(mf).toMatchObject({
      f_micro: expect.closeTo(0.75, 12),
      fmax: expect.closeTo(0.8, 12),
      tau: tauAt(30),
    });
    expect(Object.keys(mf ?? {}).filter((k) => k.endsWith('_w'))).toEqual([]);
  });

  it('smin ignores thresholds with no coverage, where s would be lower', () => {
    // Truth B; E and C wrong. Nothing predicted above 0.5 would give s = 1, but those rows are dropped.
    const mf = evaluateSmall({
      groundTruth: [['P1', 'X:B']],
      predictions: [
        ['P1', 'X:E', 0.5],
        ['P1', 'X:C', 0.5],
        ['P1', 'X:D', 0.3],
      ],
    }).namespaces['mf'];
    expectBest(mf?.best.smin, { value: 2, tau: tauAt(30) });
  });

  it('IA-weighted metrics: precision, recall and coverage at argmax f_micro_w', () => {
    const result = evaluateSmall({ ...BASE, ia: IA_TEXT });
    // tau <= 0.3: P1 q = 3.5, tp = 2.5; P2 q = 7, tp = 1; g = 2.5 and 1.
    expectRow(rowAt(result, 'mf', 0), {
      n_w: 2,
      pr_w: 3 / 7,
      rc_w: 1,
      f_w: 0.6,
      pr_micro_w: 1 / 3,
      f_micro_w: 0.5,
    });
    expectRow(rowAt(result, 'mf', 50), { pr_w: 0.5, rc_w: 0.5, pr_micro_w: 5 / 17, rc_micro_w: 5 / 7 });
    const mf = result.namespaces['mf'];
    expect(mf?.f_micro_w).toBeCloseTo(7 / 13, 12);
    expect(mf?.fmax_w).toBeCloseTo(8 / 11, 12);
    expect(mf?.precision_w).toBeCloseTo(7 / 19, 12);
    expect(mf?.recall_w).toBeCloseTo(1, 12);
    expect(mf?.coverage_w).toBeCloseTo(1, 12);
    expect(mf?.tau).toBe(tauAt(30));
    expect(mf?.f_micro).toBeCloseTo(0.75, 12);
  });

  it.each<[string, Partial<CafaEvaluatorInput>, number]>([
    // P3's truth is the root only: outside U, inside W (IA 3). It is in the weighted R either way.
    ['without a known file ne_w counts it', {}, 1],
    ['with a known file ne_w skips proteins outside the unweighted R', { known: 'P9\tX:B\n' }, 2],
  ])('IA > 0 on a root (ia_edge): %s', (_name, extra, coverage) => {
    const result = evaluateSmall({
      ...extra,
      groundTruth: [
        ['P1', 'X:D'],
        ['P3', 'X:A'],
      ],
      predictions: [
        ['P1', 'X:D', 0.8],
        ['P3', 'X:B', 0.7],
        ['P3', 'X:A', 0.6],
      ],
      ia: 'X:A\t3\nX:B\t2\nX:C\t1\nX:D\t0.5\nX:E\t4\n',
    });
    expectRow(rowAt(result, 'mf', 49), { n_w: 2, cov_w: coverage, n: 1, cov: 1 });
  });

  it('reports only namespaces with inserted lines and a covered threshold', () => {
    const result = evaluateSmall({
      groundTruth: [
        ['P1', 'X:D'],
        ['P5', 'X:T'],
        ['P6', 'X:S'],
      ],
      // P1 has no bp truth and P7 no truth at all: ignored. P6's score reaches no threshold.
      predictions: [
        ['P1', 'X:D', 0.5],
        ['P1', 'X:T', 0.9],
        ['P7', 'X:D', 0.9],
        ['P6', 'X:S', 0.005],
      ],
    });
    expect(Object.keys(result.namespaces)).toEqual(['mf']);
    expectRow(rowAt(result, 'mf', 0), { n: 1, pr: 1, rc: 1 });
  });
});
