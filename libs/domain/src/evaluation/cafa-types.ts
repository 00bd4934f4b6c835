import type { CafaPropagation } from './cafa-propagation';

export interface CafaOptions {
  /** Score propagation; the recipe uses `fill`. */
  propagation: CafaPropagation;
  /** Keep root/orphan terms in the unweighted term set; the recipe removes them. */
  keepOrphans: boolean;
  /** Threshold step: tau_i = step + i * step, i < ceil((1 - step) / step). */
  thStep: number;
  /** Quirky per-protein cap (up to maxTerms + 1 terms kept, in file order); null = unlimited. */
  maxTerms: number | null;
  /** Only the recipe's `cafa` normalisation (precision over n, the rest over ne) is implemented. */
  norm: 'cafa';
}

export const DEFAULT_CAFA_OPTIONS: Readonly<CafaOptions> = Object.freeze({
  propagation: 'fill',
  keepOrphans: false,
  thStep: 0.01,
  maxTerms: null,
  norm: 'cafa',
});

/**
 * The columns of one threshold for one mode, named as in the reference's evaluation_all.tsv.
 * tp, fp, fn, mi and ru are divided by ne; pr by n; cov = n / ne.
 */
export interface CafaMetrics {
  n: number;
  tp: number;
  fp: number;
  fn: number;
  pr: number;
  rc: number;
  cov: number;
  mi: number;
  ru: number;
  f: number;
  s: number;
  pr_micro: number;
  rc_micro: number;
  f_micro: number;
}

export type CafaWeightedMetrics = { [K in keyof CafaMetrics as `${K}_w`]: number };

/** One row of evaluation_all.tsv; the `_w` columns exist only when an IA input was given. */
export type CafaThresholdRow = { tau: number } & CafaMetrics & Partial<CafaWeightedMetrics>;

/** A best row (evaluation_best_*.tsv) reduced to what is reported. */
export interface CafaBestRow {
  value: number;
  tau: number;
  precision: number;
  recall: number;
  coverage: number;
  n: number;
  /** Highest coverage over the kept thresholds, of the same mode. */
  cov_max: number;
}

export interface CafaSminRow extends CafaBestRow {
  mi: number;
  ru: number;
}

export interface CafaBestRows {
  /** Micro-averaged F: precision/recall are pr_micro/rc_micro. */
  f_micro: CafaBestRow;
  /** Macro (protein-centric) F: precision/recall are pr/rc. */
  fmax: CafaBestRow;
  smin: CafaSminRow;
  f_micro_w?: CafaBestRow;
  fmax_w?: CafaBestRow;
}

/**
 * The persisted keys of one namespace (EVALUATOR.md §2.8) plus the best rows they come from.
 * `tau` is the threshold of the headline: argmax f_micro_w with IA, argmax f_micro without.
 */
export interface CafaNamespaceResult {
  f_micro_w?: number;
  fmax_w?: number;
  f_micro: number;
  fmax: number;
  precision_w?: number;
  recall_w?: number;
  coverage_w?: number;
  /** Area under the protein-centric precision-recall curve (cafa-auprc.ts). */
  auprc: number;
  auprc_w?: number;
  tau: number;
  best: CafaBestRows;
}

export interface CafaEvaluation {
  /** Keyed by namespace name as written in the OBO; a namespace without a result is absent. */
  namespaces: Record<string, CafaNamespaceResult>;
  /**
   * Every threshold of every reported namespace, cov == 0 rows included (best selection skips
   * them), for the evaluation_all artifact.
   */
  rows: Record<string, CafaThresholdRow[]>;
}
