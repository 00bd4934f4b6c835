import { ConfusionCurve, thresholdsReached } from './cafa-curve';
import type { ScoredTerms } from './cafa-inputs';
import type { ProteinScores } from './cafa-predictions';
import type { CafaPropagation, OntologyWalker } from './cafa-propagation';
import type { CafaMetrics, CafaThresholdRow, CafaWeightedMetrics } from './cafa-types';

export interface NamespaceContext {
  walker: OntologyWalker;
  taus: Float64Array;
  scored: ScoredTerms;
  propagation: CafaPropagation;
  /** Scratch marks, one slot per term, shared by every namespace of one evaluator. */
  truthMark: Int32Array;
  knownMark: Int32Array;
  nextStamp(): number;
}

export interface NamespaceInputs {
  /** Propagated ground truth per protein (GT*), proteins in file order. */
  truth: ReadonlyMap<string, Int32Array>;
  /** Propagated known terms per protein (K*); null without a known input. */
  known: ReadonlyMap<string, Int32Array> | null;
  predictions: ReadonlyMap<string, ProteinScores>;
}

/**
 * All threshold rows of one namespace (EVALUATOR.md §2.6), one protein at a time: mark its GT* and
 * K*, weigh its evaluable ground truth, propagate its scores over their ancestor closure and feed the
 * evaluable terms (in S, not known) to the unweighted and weighted curves.
 */
export function evaluateNamespaceRows(
  context: NamespaceContext,
  inputs: NamespaceInputs,
): CafaThresholdRow[] {
  const { walker, taus, scored, propagation, truthMark, knownMark } = context;
  const { inUnweighted, weights } = scored;
  const plain = new ConfusionCurve(taus);
  const weighted = weights === null ? null : new ConfusionCurve(taus);

  for (const [protein, truth] of inputs.truth) {
    const stamp = context.nextStamp();
    for (const t of truth) truthMark[t] = stamp;
    for (const t of inputs.known?.get(protein) ?? []) knownMark[t] = stamp;

    let inPlain = false;
    let inWeighted = false;
    let truthCount = 0;
    let truthWeight = 0;
    for (const t of truth) {
      const isKnown = knownMark[t] === stamp;
      if (inUnweighted[t] === 1) {
        inPlain = true;
        if (!isKnown) truthCount++;
      }
      const w = weights?.[t] ?? 0;
      if (w > 0) {
        inWeighted = true;
        if (!isKnown) truthWeight += w;
      }
    }
    // Proteins whose GT* has no term in S are invisible to that mode (not in R).
    if (!inPlain && !inWeighted) continue;

    const scores = inputs.predictions.get(protein);
    if (scores !== undefined) {
      walker.propagate(scores.scores, propagation, (t, value) => {
        if (knownMark[t] === stamp) return;
        const reached = thresholdsReached(taus, value);
        if (reached === 0) return;
        const isTrue = truthMark[t] === stamp;
        if (inPlain && inUnweighted[t] === 1) plain.addTerm(reached, 1, isTrue);
        const w = weights?.[t] ?? 0;
        if (inWeighted && w > 0) weighted?.addTerm(reached, w, isTrue);
      });
    }
    if (inPlain) plain.closeProtein(truthCount, truthCount > 0);
    // Quirk of the reference with a known file: ne_w only counts proteins of the unweighted R.
    if (inWeighted)
      weighted?.closeProtein(truthWeight, truthWeight > 0 && (inputs.known === null || inPlain));
  }

  return Array.from(taus, (tau, i) => ({
    tau,
    ...plain.metricsAt(i),
    ...(weighted === null ? {} : suffixed(weighted.metricsAt(i))),
  }));
}

function suffixed(m: CafaMetrics): CafaWeightedMetrics {
  return {
    n_w: m.n,
    tp_w: m.tp,
    fp_w: m.fp,
    fn_w: m.fn,
    pr_w: m.pr,
    rc_w: m.rc,
    cov_w: m.cov,
    mi_w: m.mi,
    ru_w: m.ru,
    f_w: m.f,
    s_w: m.s,
    pr_micro_w: m.pr_micro,
    rc_micro_w: m.rc_micro,
    f_micro_w: m.f_micro,
  };
}
