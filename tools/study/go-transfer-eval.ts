// Nearest-neighbour GO transfer and protein-centric Fmax (CAFA style) for the recipe studies.
import { GoAspect, seededRandom } from '@svc/domain';
import { ASPECTS, Holdout } from './study-data';

/** Thresholds 0.01, 0.02, ..., 0.99, as index 1..99. */
const STEPS = 99;

/** Per target: how many predicted terms and how many true positives at each threshold, and |truth|. */
export interface TargetCurve {
  predicted: Uint32Array;
  correct: Uint32Array;
  truth: number;
}

export type CurvesByAspect = Record<GoAspect, TargetCurve[]>;

/** Index of the highest threshold (j / 100) a score reaches, 0 when below 0.01. */
function thresholdIndex(score: number): number {
  return Math.min(STEPS, Math.floor(score * 100 + 1e-9));
}

function curveOf(scores: Map<string, number>, truth: Set<string>): TargetCurve {
  const predicted = new Uint32Array(STEPS + 2);
  const correct = new Uint32Array(STEPS + 2);
  for (const [term, score] of scores) {
    const j = thresholdIndex(score);
    if (j < 1) continue;
    predicted[j]!++;
    if (truth.has(term)) correct[j]!++;
  }
  // Cumulate from the top: a term predicted at threshold j is predicted at every lower one.
  for (let j = STEPS - 1; j >= 1; j--) {
    predicted[j]! += predicted[j + 1]!;
    correct[j]! += correct[j + 1]!;
  }
  return { predicted, correct, truth: truth.size };
}

/**
 * Protein-centric Fmax over the given targets (indices into `curves`, repeats allowed for the
 * bootstrap): precision averaged over targets with at least one prediction at the threshold,
 * recall over all targets.
 */
export function fmax(curves: readonly TargetCurve[], sample?: readonly number[]): number {
  const members = sample ?? curves.map((_, i) => i);
  if (members.length === 0) return Number.NaN;
  let best = 0;
  for (let j = 1; j <= STEPS; j++) {
    let precisionSum = 0;
    let covered = 0;
    let recallSum = 0;
    for (const i of members) {
      const curve = curves[i]!;
      const n = curve.predicted[j]!;
      if (n > 0) {
        precisionSum += curve.correct[j]! / n;
        covered++;
      }
      recallSum += curve.correct[j]! / curve.truth;
    }
    if (covered === 0) continue;
    const precision = precisionSum / covered;
    const recall = recallSum / members.length;
    if (precision + recall > 0) best = Math.max(best, (2 * precision * recall) / (precision + recall));
  }
  return best;
}

/** Row-major matrix of vectors of one length. */
export function packVectors(vectors: readonly Float32Array[], dimension: number): Float32Array {
  const matrix = new Float32Array(vectors.length * dimension);
  vectors.forEach((vector, i) => matrix.set(vector, i * dimension));
  return matrix;
}

/** Cosine similarities (dot products of unit or zero vectors) between two sets of proteins. */
export interface SimilarityTable {
  rowOf: Map<number, number>;
  columnOf: Map<number, number>;
  columns: number;
  values: Float32Array;
}

/**
 * Similarities of every target against every reference of the holdout. Four targets share each
 * pass over a reference vector (register blocking, about three times faster than one at a time).
 */
export function similarityTable(input: {
  holdout: Holdout;
  vectors: Float32Array;
  dimension: number;
}): SimilarityTable {
  const { holdout, vectors, dimension } = input;
  const rows = [...new Set(ASPECTS.flatMap((aspect) => holdout.targets[aspect].map((t) => t.protein)))];
  const columns = [...new Set(ASPECTS.flatMap((aspect) => holdout.references[aspect].map((r) => r.protein)))];
  const n = columns.length;
  const values = new Float32Array(rows.length * n);
  const view = (protein: number): Float32Array =>
    vectors.subarray(protein * dimension, (protein + 1) * dimension);
  for (let r = 0; r < rows.length; r += 4) {
    // A short last block repeats its last target; the extra sums are not stored.
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => view(rows[Math.min(r + i, rows.length - 1)]!)) as [
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
    ];
    for (let j = 0; j < n; j++) {
      const column = view(columns[j]!);
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let k = 0; k < dimension; k++) {
        const x = column[k]!;
        s0 += a[k]! * x;
        s1 += b[k]! * x;
        s2 += c[k]! * x;
        s3 += d[k]! * x;
      }
      const sums = [s0, s1, s2, s3];
      for (let i = 0; i < 4 && r + i < rows.length; i++) values[(r + i) * n + j] = sums[i]!;
    }
  }
  return {
    rowOf: new Map(rows.map((protein, i) => [protein, i])),
    columnOf: new Map(columns.map((protein, i) => [protein, i])),
    columns: n,
    values,
  };
}

/** The `count` highest similarities with their indices, highest first; ties go to the lower index. */
function nearest(similarities: readonly number[], count: number): { index: number; similarity: number }[] {
  const best: { index: number; similarity: number }[] = [];
  similarities.forEach((similarity, index) => {
    if (best.length === count && similarity <= best[best.length - 1]!.similarity) return;
    let at = best.length;
    while (at > 0 && best[at - 1]!.similarity < similarity) at--;
    best.splice(at, 0, { index, similarity });
    if (best.length > count) best.pop();
  });
  return best;
}

/**
 * How the neighbours' terms are scored:
 * - `max`: the highest similarity (clipped at 0) among the neighbours carrying the term, as the
 *   service's prediction rows do (score = 1 - cosine distance, best reference per term);
 * - `vote`: the similarity-weighted share of the neighbours carrying it.
 */
export type TransferScoring = 'max' | 'vote';

/**
 * kNN transfer: for each target, the `neighbours` references of the aspect with the highest cosine
 * similarity. Reference term sets are propagated, so the scores are too.
 */
export function knnCurves(input: {
  holdout: Holdout;
  table: SimilarityTable;
  neighbours: number;
  scoring?: TransferScoring;
}): CurvesByAspect {
  const { holdout, table, neighbours } = input;
  const curves: CurvesByAspect = { F: [], P: [], C: [] };
  for (const aspect of ASPECTS) {
    const references = holdout.references[aspect];
    const columns = references.map((reference) => table.columnOf.get(reference.protein)!);
    for (const target of holdout.targets[aspect]) {
      const offset = table.rowOf.get(target.protein)! * table.columns;
      const ranked = nearest(
        columns.map((column) => table.values[offset + column]!),
        neighbours,
      );
      const scores = new Map<string, number>();
      let total = 0;
      for (const { index, similarity } of ranked) {
        const weight = Math.max(0, similarity);
        total += weight;
        for (const term of references[index]!.terms) {
          const current = scores.get(term) ?? 0;
          scores.set(term, input.scoring === 'vote' ? current + weight : Math.max(current, weight));
        }
      }
      if (input.scoring === 'vote' && total > 0)
        for (const [term, score] of scores) scores.set(term, score / total);
      curves[aspect].push(curveOf(scores, target.truth));
    }
  }
  return curves;
}

/** The naive predictor: a term's score is its frequency among the aspect's references, for every target. */
export function naiveCurves(holdout: Holdout): CurvesByAspect {
  const curves: CurvesByAspect = { F: [], P: [], C: [] };
  for (const aspect of ASPECTS) {
    const references = holdout.references[aspect];
    const counts = new Map<string, number>();
    for (const reference of references)
      for (const term of reference.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const scores = new Map([...counts].map(([term, count]) => [term, count / references.length]));
    curves[aspect] = holdout.targets[aspect].map((target) => curveOf(scores, target.truth));
  }
  return curves;
}

export interface Scores {
  F: number;
  P: number;
  C: number;
  mean: number;
}

export function fmaxByAspect(curves: CurvesByAspect): Scores {
  const F = fmax(curves.F);
  const P = fmax(curves.P);
  const C = fmax(curves.C);
  return { F, P, C, mean: (F + P + C) / 3 };
}

/**
 * Bootstrap over targets (resampled within each aspect) of the mean Fmax: its standard deviation,
 * and, against `baseline` (scored on the same resamples), the share of resamples where this one is
 * higher, ties counting half (null without a baseline or when every resample ties).
 */
export function bootstrapMeanFmax(input: {
  curves: CurvesByAspect;
  baseline?: CurvesByAspect;
  rounds?: number;
}): { sd: number; winShare: number | null } {
  const rounds = input.rounds ?? 200;
  const next = seededRandom(20240901);
  const values: number[] = [];
  let wins = 0;
  let ties = 0;
  for (let round = 0; round < rounds; round++) {
    let mean = 0;
    let baseMean = 0;
    for (const aspect of ASPECTS) {
      const n = input.curves[aspect].length;
      const sample = Array.from({ length: n }, () => Math.floor(next() * n));
      mean += fmax(input.curves[aspect], sample) / ASPECTS.length;
      if (input.baseline) baseMean += fmax(input.baseline[aspect], sample) / ASPECTS.length;
    }
    values.push(mean);
    if (input.baseline && mean > baseMean) wins++;
    if (input.baseline && mean === baseMean) ties++;
  }
  const average = values.reduce((a, b) => a + b, 0) / rounds;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - average) ** 2, 0) / (rounds - 1));
  return { sd, winShare: input.baseline && ties < rounds ? (wins + ties / 2) / rounds : null };
}
