import { areaUnderPrCurve } from './cafa-auprc';
import type { CafaThresholdRow } from './cafa-types';
import { BASE_CASE, evaluateSmall } from '../../testing/evaluation/cafa-test-data';

/** A threshold row with only what the curve reads; `w` adds the weighted columns. */
function row(
  tau: number,
  plain: { pr: number; rc: number; cov: number },
  w?: { pr: number; rc: number; cov: number },
): CafaThresholdRow {
  const zero = { n: 0, tp: 0, fp: 0, fn: 0, mi: 0, ru: 0, f: 0, s: 0, pr_micro: 0, rc_micro: 0, f_micro: 0 };
  return {
    tau,
    ...zero,
    ...plain,
    ...(w !== undefined ? { pr_w: w.pr, rc_w: w.rc, cov_w: w.cov } : {}),
  };
}

const THREE = [
  row(0.1, { pr: 0.4, rc: 0.8, cov: 1 }),
  row(0.2, { pr: 0.6, rc: 0.5, cov: 1 }),
  row(0.3, { pr: 0.9, rc: 0.2, cov: 0.5 }),
];

describe('areaUnderPrCurve (trapezoid rule over the covered thresholds)', () => {
  it.each([
    // (0.8 - 0.5)(0.4 + 0.6)/2 + (0.5 - 0.2)(0.6 + 0.9)/2 = 0.15 + 0.225
    { name: 'three points', rows: THREE, weighted: false, expected: 0.375 },
    { name: 'row order does not matter', rows: [...THREE].reverse(), weighted: false, expected: 0.375 },
    {
      // Taken as (0, 0), the uncovered row would add (0.2 - 0)(0.9 + 0)/2 = 0.09.
      name: 'a threshold covering no protein is not a point',
      rows: [...THREE, row(0.4, { pr: 0, rc: 0, cov: 0 })],
      weighted: false,
      expected: 0.375,
    },
    {
      // Equal recall: the segment down to recall 0.2 starts at the higher-threshold point (pr 0.5):
      // 0 + (0.6 - 0.2)(0.5 + 0.7)/2; sorting by recall alone could give 0.4 (0.3 + 0.7)/2 = 0.2.
      name: 'points of equal recall keep their threshold order',
      rows: [
        row(0.1, { pr: 0.3, rc: 0.6, cov: 1 }),
        row(0.2, { pr: 0.5, rc: 0.6, cov: 1 }),
        row(0.3, { pr: 0.7, rc: 0.2, cov: 1 }),
      ],
      weighted: false,
      expected: 0.24,
    },
    { name: 'one point has no area', rows: [THREE[0]!], weighted: false, expected: 0 },
    { name: 'no rows', rows: [], weighted: false, expected: 0 },
    {
      // Weighted: (0.9 - 0.3)(0.2 + 0.7)/2 = 0.27; the unweighted columns are ignored.
      name: 'weighted reads pr_w, rc_w and cov_w',
      rows: [
        row(0.1, { pr: 0.4, rc: 0.8, cov: 1 }, { pr: 0.2, rc: 0.9, cov: 1 }),
        row(0.2, { pr: 0.6, rc: 0.5, cov: 1 }, { pr: 0.7, rc: 0.3, cov: 1 }),
        row(0.3, { pr: 0.9, rc: 0.2, cov: 1 }, { pr: 0, rc: 0, cov: 0 }),
      ],
      weighted: true,
      expected: 0.27,
    },
    { name: 'weighted without _w columns', rows: THREE, weighted: true, expected: 0 },
  ])('$name', ({ rows, weighted, expected }) =>
    expect(areaUnderPrCurve(rows, weighted)).toBeCloseTo(expected, 12),
  );
});

describe('auprc and auprc_w of the evaluator (BASE_CASE of testing/cafa-test-data.ts)', () => {
  // P1 truth D (G* = {D, B}), P2 truth C (G* = {C}); after fill P1 scores D .8, B .8, C .3 and
  // P2 scores E .9, B .9, C .5. The unweighted curve, threshold by threshold:
  //   tau <= .30: P1 {D,B,C} 2/3 right, P2 {E,B,C} 1/3 -> pr 1/2, rc 1
  //   tau <= .50: P1 {D,B} all right,   P2 {E,B,C} 1/3 -> pr 2/3, rc 1
  //   tau <= .80: P1 {D,B},             P2 {E,B} none  -> pr 1/2, rc 1/2
  //   tau <= .90: P1 nothing,           P2 {E,B} none  -> pr 0,   rc 0 (n = 1, still covered)
  //   above: nobody predicts (cov 0), no point.
  // Area: 0 + (1 - 1/2)(2/3 + 1/2)/2 + (1/2 - 0)(1/2 + 0)/2 = 7/24 + 3/24 = 5/12.
  // Weighted with IA B 1, C 2, D 3, E 4: g(P1) = 4, g(P2) = 2;
  //   tau <= .30: P1 tp 4 of 6, P2 tp 2 of 7 -> pr_w (2/3 + 2/7)/2 = 10/21, rc_w 1
  //   tau <= .50: P1 4 of 4,    P2 2 of 7    -> pr_w 9/14, rc_w 1
  //   tau <= .80: P1 4 of 4,    P2 0 of 5    -> pr_w 1/2, rc_w 1/2
  //   tau <= .90: P2 0 of 5                  -> pr_w 0, rc_w 0
  // Area: (1/2)(9/14 + 1/2)/2 + (1/2)(1/2)/2 = 2/7 + 1/8 = 23/56.
  const input = BASE_CASE;

  it('without IA: auprc only', () => {
    const mf = evaluateSmall(input).namespaces['mf'];
    expect(mf?.auprc).toBeCloseTo(5 / 12, 12);
    expect(mf?.auprc_w).toBeUndefined();
  });

  it('with IA: auprc_w from the weighted curve, auprc unchanged', () => {
    const mf = evaluateSmall({ ...input, ia: 'X:A\t0\nX:B\t1\nX:C\t2\nX:D\t3\nX:E\t4\n' }).namespaces['mf'];
    expect(mf?.auprc).toBeCloseTo(5 / 12, 12);
    expect(mf?.auprc_w).toBeCloseTo(23 / 56, 12);
  });
});
