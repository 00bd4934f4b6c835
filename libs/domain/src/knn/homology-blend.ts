import type { GoAspect } from '../obo';
import { calibrate, type CalibrationSettings, isValidCalibration, termCalibration } from './calibration';

/**
 * The default GO transfer score: homology votes blended with the term's prior (docs/prediction.md,
 * "Score"). Pure: hits, reference terms and priors come in, one score in [0, 1] per term comes out.
 */

/** One aligned reference protein of a query (DIAMOND or MMseqs2 tabular output). */
export interface HomologyHit {
  reference: string;
  /** Fraction of identical positions, in [0, 1]. */
  identity: number;
  bitscore: number;
  evalue: number;
}

/**
 * Parameters of one aspect, fitted on an older temporal window (tools/train/train-blend.ts):
 * the homology weight is `clamp(base + slope * top_identity)`, and the homology part mixes the
 * bitscore-weighted vote share (`vote_share`) with the best donor's identity (1 - `vote_share`).
 */
export interface AspectBlend extends CalibrationSettings {
  base: number;
  slope: number;
  vote_share: number;
}

export interface BlendModel {
  /** Stored with every prediction set made with it. */
  version: string;
  /**
   * Terms scoring below this are not emitted. With 0.01, the CAFA evaluator's first threshold, the
   * cut changes no evaluation: every emitted term's ancestors score at least as much and are emitted.
   */
  min_score: number;
  /**
   * The donor policy its parameters and calibration were fitted with (`donor_evidence` of
   * predict_go_terms): a calibrated score reads as a confirmation rate only for donors chosen so.
   */
  donor_evidence: 'experimental' | 'all';
  aspects: Record<GoAspect, AspectBlend>;
  /**
   * Association from what is known of a query (`AssociationIndex`, `informedPrior`): how specific a
   * term must be to match on, how many neighbours vote, and the weight of their vote in the prior per
   * aspect, by whether the query has known terms in that aspect (PK) or only in others (LK). Absent:
   * the prior is the prior.
   */
  association?: AssociationModel;
}

export interface AssociationModel {
  max_posting: number;
  neighbours: number;
  weights: Record<'LK' | 'PK', Record<GoAspect, number>>;
}

/** The prior of one aspect: every term's frequency among the reference proteins annotated in it. */
export interface TermPrior {
  /** Terms by frequency, highest first; frequencies in (0, 1]. Read in order, often not to the end. */
  ranked: Iterable<readonly [string, number]>;
  frequency: { get(term: string): number | undefined };
  proteins: number;
}

export interface BlendedTerm {
  goId: string;
  /** The calibrated score in [0, 1]. */
  score: number;
  /** Share of the hits' bitscore carried by donors of the term. */
  voteShare: number;
  /** Identity of the best donor carrying the term (0 without one). */
  identity: number;
  prior: number;
  /** The best-identity donor carrying the term, null for a prior-only term. */
  donor: HomologyHit | null;
  /** Hits carrying the term. */
  votes: number;
  /** A descendant whose (higher) score this term took, so it never scores below it. */
  liftedFrom?: string;
}

/** Builds a prior from the (propagated) terms of each reference protein of one aspect. */
export function termPrior(termsByProtein: Iterable<Iterable<string>>): TermPrior {
  const counts = new Map<string, number>();
  let proteins = 0;
  for (const terms of termsByProtein) {
    let any = false;
    for (const term of new Set(terms)) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
      any = true;
    }
    if (any) proteins++;
  }
  return termPriorOf(counts, proteins);
}

/** The prior of `proteins` annotated proteins from how many of them carry each term. */
export function termPriorOf(counts: ReadonlyMap<string, number>, proteins: number): TermPrior {
  const frequency = new Map<string, number>();
  for (const [term, count] of counts) frequency.set(term, count / proteins);
  const ranked = [...frequency].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { ranked, frequency, proteins };
}

const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));

/** The weight of the homology part for a query whose best hit in the aspect has `topIdentity`. */
export function homologyWeight(params: AspectBlend, topIdentity: number | null): number {
  return topIdentity === null ? 0 : clamp01(params.base + params.slope * topIdentity);
}

/**
 * The homology weight `w` of a query in one aspect, as `blendTerms` computes it: from the best identity
 * among the hits that carry a term in the aspect (0 without one). A term the query gets from the prior
 * alone scores `calibrate((1 - w) * prior(t))`.
 */
export function blendWeight(input: {
  hits: readonly HomologyHit[];
  termsOf: (reference: string) => readonly string[] | undefined;
  params: AspectBlend;
}): number {
  let topIdentity: number | null = null;
  for (const hit of input.hits) {
    const terms = input.termsOf(hit.reference);
    if (terms === undefined || terms.length === 0) continue;
    topIdentity = Math.max(topIdentity ?? 0, hit.identity);
  }
  return homologyWeight(input.params, topIdentity);
}

/**
 * Scores one query in one aspect. `hits` are the query's hits whose reference is annotated in the
 * aspect (self hits already removed); `termsOf` gives a reference's propagated terms in it.
 *
 * blend(t) = w * (v * share(t) + (1 - v) * identity(t)) + (1 - w) * prior(t), with w the homology
 * weight, and score(t) = calibrate(blend(t)). Each part is monotone along the ontology when the donor
 * terms and the prior are propagated (a parent is carried by every donor of its child and is at least
 * as frequent). With one calibration map, which never decreases, a parent never scores below its
 * child. With term-aware calibration the maps of two bands may cross, so every ancestor of a term
 * (`ancestorsOf`) is lifted to at least the term's score, naming the term it took it from. A query
 * without hits gets the (calibrated) prior.
 */
export function blendTerms(input: {
  hits: readonly HomologyHit[];
  termsOf: (reference: string) => readonly string[] | undefined;
  prior: TermPrior;
  params: AspectBlend;
  minScore: number;
  /**
   * The plain prior, whose frequencies place a term in its band of specificity (term-aware
   * calibration); `prior` when absent. An informed prior blends in, the band stays the term's own.
   */
  specificity?: TermPrior;
  /** A term's ancestors in the aspect, all of them (roots left out); needed by term-aware calibration. */
  ancestorsOf?: (goId: string) => Iterable<string>;
}): BlendedTerm[] {
  const { params, prior } = input;
  const byIc = params.calibration_by_ic;
  if (byIc !== undefined && input.ancestorsOf === undefined)
    throw new Error('term-aware calibration needs the ancestors of each term (ancestorsOf)');
  const calibrationOf = termCalibration(params, input.specificity ?? prior);
  // The highest of the maps: a prior term below the cut under it is below under its own map, and so
  // is every term after it (the prior is read in decreasing order).
  const ceiling = (raw: number): number =>
    byIc === undefined
      ? calibrate(params.calibration, raw)
      : Math.max(...byIc.maps.map((map) => calibrate(map, raw)));
  const perTerm = new Map<string, { share: number; best: HomologyHit; votes: number }>();
  let totalBitscore = 0;
  let topIdentity: number | null = null;
  for (const hit of input.hits) {
    const terms = input.termsOf(hit.reference);
    if (terms === undefined || terms.length === 0) continue;
    totalBitscore += hit.bitscore;
    topIdentity = Math.max(topIdentity ?? 0, hit.identity);
    for (const goId of terms) {
      const entry = perTerm.get(goId);
      if (entry === undefined) perTerm.set(goId, { share: hit.bitscore, best: hit, votes: 1 });
      else {
        entry.share += hit.bitscore;
        entry.votes++;
        if (hit.identity > entry.best.identity) entry.best = hit;
      }
    }
  }
  const weight = homologyWeight(params, topIdentity);
  /** The term as the blend scores it on its own (its calibrated blend, before any lift). */
  const scored = (goId: string): BlendedTerm => {
    const p = prior.frequency.get(goId) ?? 0;
    const entry = perTerm.get(goId);
    if (entry === undefined) {
      const score = calibrate(calibrationOf(goId), (1 - weight) * p);
      return { goId, score, voteShare: 0, identity: 0, prior: p, donor: null, votes: 0 };
    }
    const voteShare = totalBitscore > 0 ? entry.share / totalBitscore : 0;
    const identity = entry.best.identity;
    const homology = params.vote_share * voteShare + (1 - params.vote_share) * identity;
    const score = calibrate(calibrationOf(goId), clamp01(weight * homology + (1 - weight) * p));
    return { goId, score, voteShare, identity, prior: p, donor: entry.best, votes: entry.votes };
  };
  const out = new Map<string, BlendedTerm>();
  for (const goId of perTerm.keys()) {
    const term = scored(goId);
    if (term.score >= input.minScore) out.set(goId, term);
  }
  if (weight < 1) {
    for (const [goId, p] of prior.ranked) {
      if (ceiling((1 - weight) * p) < input.minScore) break;
      if (perTerm.has(goId)) continue;
      const term = scored(goId);
      if (term.score >= input.minScore) out.set(goId, term);
    }
  }
  if (byIc !== undefined) liftAncestors(out, input.ancestorsOf!, scored);
  return [...out.values()].sort((a, b) => b.score - a.score || (a.goId < b.goId ? -1 : 1));
}

/**
 * Every ancestor of an emitted term scores at least as much as it: a lifted ancestor keeps its own
 * evidence and names the term whose score it took; one below the cut on its own is emitted so.
 */
function liftAncestors(
  out: Map<string, BlendedTerm>,
  ancestorsOf: (goId: string) => Iterable<string>,
  scored: (goId: string) => BlendedTerm,
): void {
  for (const term of [...out.values()]) {
    for (const ancestor of ancestorsOf(term.goId)) {
      const current = out.get(ancestor) ?? scored(ancestor);
      if (current.score >= term.score) {
        if (!out.has(ancestor)) out.set(ancestor, current);
        continue;
      }
      out.set(ancestor, { ...current, score: term.score, liftedFrom: term.goId });
    }
  }
}

/** Checks a model read from a file: every aspect present, every number finite and in range. */
export function checkBlendModel(value: unknown): BlendModel {
  const fail = (why: string): never => {
    throw new Error(`invalid blend model: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not an object');
  const model = value as Partial<BlendModel>;
  if (typeof model.version !== 'string' || model.version === '') fail('version missing');
  if (typeof model.min_score !== 'number' || !(model.min_score >= 0 && model.min_score <= 1)) {
    fail('min_score must be in [0, 1]');
  }
  if (model.donor_evidence !== 'experimental' && model.donor_evidence !== 'all')
    fail('donor_evidence must be experimental or all (the donor policy the model was fitted with)');
  for (const aspect of ['F', 'P', 'C'] as const) {
    const params = model.aspects?.[aspect];
    if (params === undefined) return fail(`aspect ${aspect} missing`);
    for (const key of ['base', 'slope', 'vote_share'] as const) {
      if (typeof params[key] !== 'number' || !Number.isFinite(params[key]))
        fail(`${aspect}.${key} not a number`);
    }
    if (params.vote_share < 0 || params.vote_share > 1) fail(`${aspect}.vote_share must be in [0, 1]`);
    if (params.calibration !== undefined && !isValidCalibration(params.calibration))
      fail(`${aspect}.calibration must be increasing knots in [0, 1] with non-decreasing values`);
    const byIc = params.calibration_by_ic;
    if (byIc !== undefined) {
      const { bounds, maps } = byIc;
      if (
        !Array.isArray(bounds) ||
        !bounds.every(
          (b, i) => typeof b === 'number' && Number.isFinite(b) && (i === 0 || b > bounds[i - 1]!),
        )
      )
        fail(`${aspect}.calibration_by_ic.bounds must be increasing finite numbers`);
      if (!Array.isArray(maps) || maps.length !== bounds.length + 1)
        fail(`${aspect}.calibration_by_ic.maps must hold one map per band (bounds + 1)`);
      maps.forEach((map, i) => {
        if (!isValidCalibration(map))
          fail(
            `${aspect}.calibration_by_ic.maps[${i}] must be increasing knots in [0, 1] with non-decreasing values`,
          );
      });
    }
  }
  const association = model.association;
  if (association !== undefined) {
    if (!Number.isInteger(association.max_posting) || association.max_posting < 1)
      fail('association.max_posting must be a positive integer');
    if (!Number.isInteger(association.neighbours) || association.neighbours < 1)
      fail('association.neighbours must be a positive integer');
    for (const mode of ['LK', 'PK'] as const)
      for (const aspect of ['F', 'P', 'C'] as const) {
        const weight = association.weights?.[mode]?.[aspect];
        if (typeof weight !== 'number' || !(weight >= 0 && weight <= 1))
          fail(`association.weights.${mode}.${aspect} must be in [0, 1]`);
      }
  }
  return model as BlendModel;
}
