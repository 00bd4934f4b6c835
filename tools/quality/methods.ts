// The three predictors of the quality benchmark and their evaluation with the service's evaluator.
import {
  AssociationIndex,
  associationSourceOf,
  informedPrior,
  propagatedTruth,
  type BlendedTerm,
  type BlendModel,
  blendTerms,
  type CafaPrediction,
  createCafaEvaluator,
  type CafaEvaluator,
  type GoAspect,
  type HoldoutCategory,
  type HomologyHit,
  type TermPrior,
} from '@svc/domain';
import { HOMOLOGY_HITS } from '@svc/go-transfer';
import { ASPECTS, CATEGORIES, NAMESPACE_OF, type QualityWindow } from './windows';

/** Scores one target in one aspect: (term, score) pairs. */
export type Predictor = (target: string, aspect: GoAspect) => Iterable<readonly [string, number]>;

/**
 * Hits of a target without the target itself (a benchmark never lets a protein donate to itself),
 * the best 50 kept, as the prediction worker keeps them.
 */
export function foreignHits(hits: ReadonlyMap<string, HomologyHit[]>, target: string): HomologyHit[] {
  return (hits.get(target) ?? []).filter((hit) => hit.reference !== target).slice(0, HOMOLOGY_HITS);
}

/** Naive: the term's frequency among the reference proteins of the aspect, the same for every target. */
export function naivePredictor(window: QualityWindow, minScore = 0.01): Predictor {
  return (_target, aspect) => {
    const out: (readonly [string, number])[] = [];
    for (const [term, frequency] of window.priors[aspect].ranked) {
      if (frequency < minScore) break;
      out.push([term, frequency]);
    }
    return out;
  };
}

/** DIAMOND-kNN: per term, the best identity (pident / 100) of a hit whose protein carries it. */
export function knnPredictor(window: QualityWindow, hits: ReadonlyMap<string, HomologyHit[]>): Predictor {
  return (target, aspect) => {
    const best = new Map<string, number>();
    for (const hit of foreignHits(hits, target)) {
      for (const term of window.references.get(hit.reference)?.[aspect] ?? []) {
        if (hit.identity > (best.get(term) ?? 0)) best.set(term, hit.identity);
      }
    }
    return best;
  };
}

/**
 * The service's default: homology blended with the prior (libs/domain/src/knn/homology-blend.ts),
 * the prior informed by what is known of the target when the model has an association.
 */
export function defaultPredictor(
  window: QualityWindow,
  hits: ReadonlyMap<string, HomologyHit[]>,
  model: BlendModel,
): Predictor {
  const association = model.association;
  if (association === undefined) return blendPredictor(window, hits, model);
  const index = new AssociationIndex(associationSourceOf(window.references, window.priors), {
    maxPosting: association.max_posting,
    neighbours: association.neighbours,
  });
  return associationPredictor(window, hits, model, index, association.weights);
}

/** Homology blended with the plain prior (the default without its association). */
export function blendPredictor(
  window: QualityWindow,
  hits: ReadonlyMap<string, HomologyHit[]>,
  model: BlendModel,
): Predictor {
  return (target, aspect) =>
    blendTerms({
      hits: foreignHits(hits, target),
      termsOf: (reference) => window.references.get(reference)?.[aspect],
      prior: window.priors[aspect],
      params: model.aspects[aspect],
      minScore: model.min_score,
      ancestorsOf: window.ancestorsOf,
    }).map((term) => [term.goId, term.score] as const);
}

/** Association weights per aspect, by whether the target has known terms in that aspect (PK) or not (LK). */
export type AssociationWeights = Record<'LK' | 'PK', Record<GoAspect, number>>;

/**
 * The default with the prior informed by what is known of the target (`AssociationIndex`): a known
 * target's (t0) terms match it to reference proteins that share them, and their terms inform the prior
 * with the weight of its mode (LK: nothing known in the aspect; PK: something). NK targets, known in
 * no aspect, get the default as it is.
 */
export function associationPredictor(
  window: QualityWindow,
  hits: ReadonlyMap<string, HomologyHit[]>,
  model: BlendModel,
  index: AssociationIndex,
  weights: AssociationWeights,
): Predictor {
  // A target is scored aspect by aspect: its neighbours are found once for the three.
  let cached: { target: string; scores: ReturnType<AssociationIndex['scores']> } | null = null;
  return (target, aspect) => {
    const known = window.references.get(target);
    let prior = window.priors[aspect];
    if (known !== undefined) {
      const mode = known[aspect].length > 0 ? 'PK' : 'LK';
      const weight = weights[mode][aspect];
      if (cached?.target !== target) cached = { target, scores: index.scores(known, target) };
      const association = cached.scores[aspect];
      if (weight > 0 && association !== undefined) prior = informedPrior(prior, association, weight);
    }
    return blendedTerms(window, hits, model, target, aspect, prior).map(
      (term) => [term.goId, term.score] as const,
    );
  };
}

/**
 * The default's blend of a target's hits (itself left out) with a prior, plain or informed, as the
 * prediction worker scores it: term-aware calibration by the term's band in the plain prior.
 */
export function blendedTerms(
  window: QualityWindow,
  hits: ReadonlyMap<string, HomologyHit[]>,
  model: BlendModel,
  target: string,
  aspect: GoAspect,
  prior: TermPrior,
): BlendedTerm[] {
  return blendTerms({
    hits: foreignHits(hits, target),
    termsOf: (reference) => window.references.get(reference)?.[aspect],
    prior,
    params: model.aspects[aspect],
    minScore: model.min_score,
    specificity: window.priors[aspect],
    ancestorsOf: window.ancestorsOf,
  });
}

export type CellScores = Record<HoldoutCategory, Record<GoAspect, number>>;

/** One evaluator per category, built once per window and reused for every method. */
export function windowEvaluators(window: QualityWindow): Record<HoldoutCategory, CafaEvaluator> {
  const out = {} as Record<HoldoutCategory, CafaEvaluator>;
  for (const category of CATEGORIES) {
    out[category] = createCafaEvaluator({
      ontology: window.ontology,
      groundTruth: window.truth[category],
      known: category === 'PK' ? window.known : null,
      ia: window.ia,
    });
  }
  return out;
}

/** f_micro_w of every (category, aspect) cell. */
export function evaluatePredictor(
  window: QualityWindow,
  evaluators: Record<HoldoutCategory, CafaEvaluator>,
  predictor: Predictor,
  categories: readonly HoldoutCategory[] = CATEGORIES,
  counts?: { predictions: number; targets: number },
): CellScores {
  const out = {} as CellScores;
  for (const category of categories) {
    const predictions: CafaPrediction[] = [];
    for (const [target, aspects] of window.targets[category]) {
      for (const aspect of aspects) {
        for (const [term, score] of predictor(target, aspect)) {
          if (score > 0) predictions.push({ protein: target, term, score });
        }
      }
    }
    if (counts !== undefined) {
      counts.predictions += predictions.length;
      counts.targets += window.targets[category].size;
    }
    const result = evaluators[category].evaluate(predictions);
    out[category] = {} as Record<GoAspect, number>;
    for (const aspect of ASPECTS) {
      out[category][aspect] = result.namespaces[NAMESPACE_OF[aspect]]?.f_micro_w ?? 0;
    }
  }
  return out;
}

/**
 * Every (target, term, score) a predictor gives in the categories' aspects, labelled true when the
 * term is one of the target's new terms in that aspect or an ancestor of one (as the evaluator counts).
 */
export function labelledScores(
  window: QualityWindow,
  predictor: Predictor,
  categories: readonly HoldoutCategory[],
): Record<GoAspect, { term: string; score: number; label: boolean }[]> {
  const out: Record<GoAspect, { term: string; score: number; label: boolean }[]> = { F: [], P: [], C: [] };
  for (const category of categories) {
    const truth = propagatedTruth(
      window.truth[category].map((row) => ({ protein: row.protein, goId: row.term })),
      window.graph,
    );
    for (const [target, aspects] of window.targets[category]) {
      for (const aspect of aspects) {
        for (const [term, score] of predictor(target, aspect)) {
          out[aspect].push({
            term,
            score,
            label: window.graph.aspect(term) === aspect && truth.label(target, term),
          });
        }
      }
    }
  }
  return out;
}
