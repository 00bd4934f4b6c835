import type { GoAspect } from '../obo';

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
export interface AspectBlend {
  base: number;
  slope: number;
  vote_share: number;
  /**
   * Maps the blend to the share of such predictions that were confirmed on the fitting window
   * (isotonic, piecewise linear through the knots); absent = the blend as is.
   */
  calibration?: Calibration;
}

/** Knots of a non-decreasing piecewise-linear map of [0, 1] onto [0, 1]; `raw` strictly increasing. */
export interface Calibration {
  raw: number[];
  calibrated: number[];
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

/** The calibrated value of a raw score: linear between knots, the end knots' values outside them. */
export function calibrate(calibration: Calibration | undefined, raw: number): number {
  if (calibration === undefined) return raw;
  const { raw: xs, calibrated: ys } = calibration;
  if (xs.length === 0) return raw;
  if (raw <= xs[0]!) return ys[0]!;
  const last = xs.length - 1;
  if (raw >= xs[last]!) return ys[last]!;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= raw) lo = mid;
    else hi = mid;
  }
  const t = (raw - xs[lo]!) / (xs[hi]! - xs[lo]!);
  return clamp01(ys[lo]! + t * (ys[hi]! - ys[lo]!));
}

/**
 * Isotonic calibration from labelled scores: equal-count bins of the sorted scores, pooled
 * (pool-adjacent-violators) until their hit rates never fall as the score rises, then one knot per
 * pooled block at (mean score, hit rate), with (0, 0) and (1, last rate) as ends.
 */
export function fitCalibration(
  samples: readonly { score: number; label: boolean }[],
  bins = 20,
): Calibration {
  const sorted = [...samples].sort((a, b) => a.score - b.score);
  const blocks: { sum: number; hits: number; n: number }[] = [];
  const per = Math.max(1, Math.ceil(sorted.length / bins));
  for (let start = 0; start < sorted.length; start += per) {
    const block = { sum: 0, hits: 0, n: 0 };
    for (const sample of sorted.slice(start, start + per)) {
      block.sum += sample.score;
      block.hits += sample.label ? 1 : 0;
      block.n++;
    }
    blocks.push(block);
    // Pool while the previous block's rate is not below this one's.
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.hits / a.n < b.hits / b.n) break;
      blocks.splice(blocks.length - 2, 2, { sum: a.sum + b.sum, hits: a.hits + b.hits, n: a.n + b.n });
    }
  }
  const raw: number[] = [0];
  const calibrated: number[] = [0];
  for (const block of blocks) {
    const x = block.sum / block.n;
    const y = block.hits / block.n;
    if (x <= raw[raw.length - 1]!) {
      calibrated[calibrated.length - 1] = Math.max(calibrated[calibrated.length - 1]!, y);
      continue;
    }
    raw.push(x);
    calibrated.push(y);
  }
  const n = raw.length;
  if (raw[n - 1]! < 1) {
    // Beyond the last block the map keeps the last segment's slope: a flat end would tie every
    // high score and leave a threshold nothing to separate.
    const slope = n >= 2 ? (calibrated[n - 1]! - calibrated[n - 2]!) / (raw[n - 1]! - raw[n - 2]!) : 0;
    raw.push(1);
    calibrated.push(Math.min(1, calibrated[n - 1]! + slope * (1 - raw[n - 1]!)));
  }
  return { raw, calibrated };
}

/** The weight of the homology part for a query whose best hit in the aspect has `topIdentity`. */
export function homologyWeight(params: AspectBlend, topIdentity: number | null): number {
  return topIdentity === null ? 0 : clamp01(params.base + params.slope * topIdentity);
}

/**
 * Scores one query in one aspect. `hits` are the query's hits whose reference is annotated in the
 * aspect (self hits already removed); `termsOf` gives a reference's propagated terms in it.
 *
 * blend(t) = w * (v * share(t) + (1 - v) * identity(t)) + (1 - w) * prior(t), with w the homology
 * weight, and score(t) = calibrate(blend(t)). Each part is monotone along the ontology when the donor
 * terms and the prior are propagated (a parent is carried by every donor of its child and is at least
 * as frequent), and the calibration never decreases, so a parent never scores below its child. A
 * query without hits gets the (calibrated) prior.
 */
export function blendTerms(input: {
  hits: readonly HomologyHit[];
  termsOf: (reference: string) => readonly string[] | undefined;
  prior: TermPrior;
  params: AspectBlend;
  minScore: number;
}): BlendedTerm[] {
  const { params, prior } = input;
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
  const out: BlendedTerm[] = [];
  for (const [goId, entry] of perTerm) {
    const voteShare = totalBitscore > 0 ? entry.share / totalBitscore : 0;
    const identity = entry.best.identity;
    const p = prior.frequency.get(goId) ?? 0;
    const homology = params.vote_share * voteShare + (1 - params.vote_share) * identity;
    const score = calibrate(params.calibration, clamp01(weight * homology + (1 - weight) * p));
    if (score < input.minScore) continue;
    out.push({
      goId,
      score,
      voteShare,
      identity,
      prior: p,
      donor: entry.best,
      votes: entry.votes,
    });
  }
  if (weight < 1) {
    for (const [goId, p] of prior.ranked) {
      const score = calibrate(params.calibration, (1 - weight) * p);
      if (score < input.minScore) break;
      if (perTerm.has(goId)) continue;
      out.push({ goId, score, voteShare: 0, identity: 0, prior: p, donor: null, votes: 0 });
    }
  }
  out.sort((a, b) => b.score - a.score || (a.goId < b.goId ? -1 : 1));
  return out;
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
    const calibration = params.calibration;
    if (calibration !== undefined) {
      const { raw, calibrated } = calibration;
      const ok =
        Array.isArray(raw) &&
        Array.isArray(calibrated) &&
        raw.length === calibrated.length &&
        raw.length > 0 &&
        raw.every((x, i) => typeof x === 'number' && x >= 0 && x <= 1 && (i === 0 || x > raw[i - 1]!)) &&
        calibrated.every(
          (y, i) => typeof y === 'number' && y >= 0 && y <= 1 && (i === 0 || y >= calibrated[i - 1]!),
        );
      if (!ok) fail(`${aspect}.calibration must be increasing knots in [0, 1] with non-decreasing values`);
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
