import { CafaEvaluationError } from './cafa-errors';
import type { CafaMetrics } from './cafa-types';

/**
 * The reference's `np.arange(step, 1, step)`: tau_i = step + i * step in float64, not the double
 * nearest to the decimal literal (0.06 is 0.060000000000000005 here, 0.07 is 0.06999999999999999).
 */
export function thresholdGrid(step: number): Float64Array {
  if (!Number.isFinite(step) || step <= 0 || step >= 1) {
    throw new CafaEvaluationError('invalid_option', `th_step must lie in (0, 1), got ${step}`);
  }
  const count = Math.ceil((1 - step) / step);
  return Float64Array.from({ length: count }, (_, i) => step + i * step);
}

/**
 * How many thresholds a value reaches (predicted at tau_i iff value >= tau_i, i.e. i < result).
 * value / step lands within one slot of the answer; the two loops settle it against the exact grid
 * values, so the result is the same as a binary search at O(1) cost.
 */
export function thresholdsReached(taus: Float64Array, value: number): number {
  const count = taus.length;
  const guess = Math.floor(value / (taus[0] ?? 1));
  let reached = guess >= 0 ? Math.min(guess, count) : 0;
  while (reached < count && (taus[reached] ?? Infinity) <= value) reached++;
  while (reached > 0 && (taus[reached - 1] ?? 0) > value) reached--;
  return reached;
}

/**
 * Confusion sums of one mode (unweighted or IA-weighted) over all thresholds, fed one protein at a
 * time. A protein's predicted terms are bucketed by how many thresholds they reach and summed from
 * the top, so adding a protein costs O(terms + thresholds) and needs no sort. Where two adjacent
 * thresholds predict the same set, the sums differ by an exact + 0, so ties stay bit-identical and
 * the lowest-tau rule replicates the reference.
 */
export class ConfusionCurve {
  /** Proteins in R with a non-empty evaluable ground truth: the denominator ne. */
  evaluated = 0;
  readonly n: Float64Array;
  readonly precisionSum: Float64Array;
  readonly recallSum: Float64Array;
  readonly tp: Float64Array;
  readonly fp: Float64Array;
  readonly fn: Float64Array;
  private readonly addedWeight: Float64Array;
  private readonly addedTrue: Float64Array;

  constructor(private readonly taus: Float64Array) {
    const size = taus.length;
    this.n = new Float64Array(size);
    this.precisionSum = new Float64Array(size);
    this.recallSum = new Float64Array(size);
    this.tp = new Float64Array(size);
    this.fp = new Float64Array(size);
    this.fn = new Float64Array(size);
    this.addedWeight = new Float64Array(size);
    this.addedTrue = new Float64Array(size);
  }

  /** One evaluable term of the current protein, predicted at the first `reached` thresholds (> 0). */
  addTerm(reached: number, weight: number, isTrue: boolean): void {
    const bucket = reached - 1;
    this.addedWeight[bucket] = (this.addedWeight[bucket] ?? 0) + weight;
    if (isTrue) this.addedTrue[bucket] = (this.addedTrue[bucket] ?? 0) + weight;
  }

  /** Closes the current protein, whose evaluable ground truth weighs `truth` (g_p). */
  closeProtein(truth: number, countsInNe: boolean): void {
    if (countsInNe) this.evaluated++;
    let predicted = 0;
    let correct = 0;
    for (let i = this.taus.length - 1; i >= 0; i--) {
      predicted += this.addedWeight[i] ?? 0;
      correct += this.addedTrue[i] ?? 0;
      this.addedWeight[i] = 0;
      this.addedTrue[i] = 0;
      if (predicted > 0) {
        this.n[i] = (this.n[i] ?? 0) + 1;
        this.precisionSum[i] = (this.precisionSum[i] ?? 0) + correct / predicted;
      }
      if (truth > 0) this.recallSum[i] = (this.recallSum[i] ?? 0) + correct / truth;
      this.tp[i] = (this.tp[i] ?? 0) + correct;
      this.fp[i] = (this.fp[i] ?? 0) + (predicted - correct);
      this.fn[i] = (this.fn[i] ?? 0) + (truth - correct);
    }
  }

  /**
   * The `cafa` normalisation at threshold i. With ne = 0 the reference divides by zero; that only
   * matters for the weighted curve (an unweighted ne of 0 drops the namespace), where 0 is returned.
   */
  metricsAt(i: number): CafaMetrics {
    const ne = this.evaluated;
    const per = (x: number): number => (ne > 0 ? x / ne : 0);
    const n = this.n[i] ?? 0;
    const tp = this.tp[i] ?? 0;
    const fp = this.fp[i] ?? 0;
    const fn = this.fn[i] ?? 0;
    const pr = n > 0 ? (this.precisionSum[i] ?? 0) / n : 0;
    const rc = per(this.recallSum[i] ?? 0);
    const mi = per(fp);
    const ru = per(fn);
    const prMicro = tp + fp > 0 ? tp / (tp + fp) : 0;
    const rcMicro = tp + fn > 0 ? tp / (tp + fn) : 0;
    return {
      n,
      tp: per(tp),
      fp: mi,
      fn: ru,
      pr,
      rc,
      cov: per(n),
      mi,
      ru,
      f: harmonicMean(pr, rc),
      s: Math.sqrt(mi * mi + ru * ru),
      pr_micro: prMicro,
      rc_micro: rcMicro,
      f_micro: harmonicMean(prMicro, rcMicro),
    };
  }
}

function harmonicMean(a: number, b: number): number {
  return a + b > 0 ? (2 * a * b) / (a + b) : 0;
}
