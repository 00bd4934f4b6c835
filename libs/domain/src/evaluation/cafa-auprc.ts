import type { CafaThresholdRow } from './cafa-types';

/**
 * Area under the protein-centric precision-recall curve of one mode (`pr`/`rc`, or `pr_w`/`rc_w`),
 * the curve the evaluator's Fmax is read from. Points are the thresholds at which the mode covers
 * at least one protein (`cov` / `cov_w` > 0): elsewhere precision is undefined and the evaluator
 * only writes 0 for it. The curve is traced in threshold order (recall never rises with tau, so
 * this is recall order, and points of equal recall keep their place on the curve) and the area is
 * the trapezoid rule between neighbouring points over the recall range they span, with no
 * extrapolation to recall 0 or 1: the AUPR of the DeepGO papers. Fewer than two points give 0.
 * docs/decisions.md (Evaluation semantics) says why.
 */
export function areaUnderPrCurve(rows: readonly CafaThresholdRow[], weighted: boolean): number {
  const points: { tau: number; recall: number; precision: number }[] = [];
  for (const row of rows) {
    const coverage = weighted ? row.cov_w : row.cov;
    const precision = weighted ? row.pr_w : row.pr;
    const recall = weighted ? row.rc_w : row.rc;
    if (coverage === undefined || precision === undefined || recall === undefined) continue;
    if (!(coverage > 0) || !Number.isFinite(precision) || !Number.isFinite(recall)) continue;
    points.push({ tau: row.tau, recall, precision });
  }
  points.sort((a, b) => a.tau - b.tau);
  let area = 0;
  for (let i = 1; i < points.length; i++) {
    const lower = points[i - 1]!;
    const upper = points[i]!;
    area += ((lower.recall - upper.recall) * (lower.precision + upper.precision)) / 2;
  }
  return area;
}
