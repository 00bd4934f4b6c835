import { areaUnderPrCurve } from './cafa-auprc';
import type { CafaBestRow, CafaBestRows, CafaNamespaceResult, CafaThresholdRow } from './cafa-types';

type Column = keyof CafaThresholdRow;

/**
 * First row with the highest (or lowest) value: pandas idxmax/idxmin over rows in tau order, so
 * ties go to the lowest tau. Comparison is exact on purpose (EVALUATOR.md §3).
 */
function pickRow(rows: readonly CafaThresholdRow[], column: Column, lowest: boolean): CafaThresholdRow {
  let best = rows[0] as CafaThresholdRow;
  for (const row of rows) {
    const value = row[column] ?? Number.NaN;
    const current = best[column] ?? Number.NaN;
    if (lowest ? value < current : value > current) best = row;
  }
  return best;
}

function coverageMax(rows: readonly CafaThresholdRow[], column: 'cov' | 'cov_w'): number {
  return rows.reduce((max, row) => Math.max(max, row[column] ?? 0), 0);
}

function plainBest(row: CafaThresholdRow, micro: boolean, covMax: number): CafaBestRow {
  return {
    value: micro ? row.f_micro : row.f,
    tau: row.tau,
    precision: micro ? row.pr_micro : row.pr,
    recall: micro ? row.rc_micro : row.rc,
    coverage: row.cov,
    n: row.n,
    cov_max: covMax,
  };
}

function weightedBest(row: CafaThresholdRow, micro: boolean, covMax: number): CafaBestRow {
  return {
    value: (micro ? row.f_micro_w : row.f_w) ?? 0,
    tau: row.tau,
    precision: (micro ? row.pr_micro_w : row.pr_w) ?? 0,
    recall: (micro ? row.rc_micro_w : row.rc_w) ?? 0,
    coverage: row.cov_w ?? 0,
    n: row.n_w ?? 0,
    cov_max: covMax,
  };
}

/**
 * Best rows and persisted keys of one namespace (EVALUATOR.md §2.7-2.8), or null when no row is
 * left once rows with unweighted coverage 0 (or NaN) are dropped.
 */
export function summariseNamespace(
  rows: readonly CafaThresholdRow[],
  weighted: boolean,
): CafaNamespaceResult | null {
  const kept = rows.filter((row) => row.cov > 0);
  if (kept.length === 0) return null;
  const covMax = coverageMax(kept, 'cov');
  const fMicro = plainBest(pickRow(kept, 'f_micro', false), true, covMax);
  const fmax = plainBest(pickRow(kept, 'f', false), false, covMax);
  const sminRow = pickRow(kept, 's', true);
  const best: CafaBestRows = {
    f_micro: fMicro,
    fmax,
    smin: { ...plainBest(sminRow, false, covMax), value: sminRow.s, mi: sminRow.mi, ru: sminRow.ru },
  };
  const auprc = areaUnderPrCurve(kept, false);
  if (!weighted) return { f_micro: fMicro.value, fmax: fmax.value, auprc, tau: fMicro.tau, best };

  const covMaxW = coverageMax(kept, 'cov_w');
  const fMicroW = weightedBest(pickRow(kept, 'f_micro_w', false), true, covMaxW);
  const fmaxW = weightedBest(pickRow(kept, 'f_w', false), false, covMaxW);
  return {
    f_micro_w: fMicroW.value,
    fmax_w: fmaxW.value,
    f_micro: fMicro.value,
    fmax: fmax.value,
    precision_w: fMicroW.precision,
    recall_w: fMicroW.recall,
    coverage_w: fMicroW.coverage,
    auprc,
    auprc_w: areaUnderPrCurve(kept, true),
    tau: fMicroW.tau,
    best: { ...best, f_micro_w: fMicroW, fmax_w: fmaxW },
  };
}
