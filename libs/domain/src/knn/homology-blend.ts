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
}

export interface BlendModel {
  /** Stored with every prediction set made with it. */
  version: string;
  /**
   * Terms scoring below this are not emitted. With 0.01, the CAFA evaluator's first threshold, the
   * cut changes no evaluation: every emitted term's ancestors score at least as much and are emitted.
   */
  min_score: number;
  aspects: Record<GoAspect, AspectBlend>;
}

/** The prior of one aspect: every term's frequency among the reference proteins annotated in it. */
export interface TermPrior {
  /** Terms by frequency, highest first; frequencies in (0, 1]. */
  ranked: readonly (readonly [string, number])[];
  frequency: ReadonlyMap<string, number>;
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
 * Scores one query in one aspect. `hits` are the query's hits whose reference is annotated in the
 * aspect (self hits already removed); `termsOf` gives a reference's propagated terms in it.
 *
 * score(t) = w * (v * share(t) + (1 - v) * identity(t)) + (1 - w) * prior(t), with w the homology
 * weight. Each part is monotone along the ontology when the donor terms and the prior are propagated
 * (a parent is carried by every donor of its child and is at least as frequent), so a parent never
 * scores below its child. A query without hits gets the prior.
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
    const score = clamp01(weight * homology + (1 - weight) * p);
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
      const score = (1 - weight) * p;
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
  for (const aspect of ['F', 'P', 'C'] as const) {
    const params = model.aspects?.[aspect];
    if (params === undefined) return fail(`aspect ${aspect} missing`);
    for (const key of ['base', 'slope', 'vote_share'] as const) {
      if (typeof params[key] !== 'number' || !Number.isFinite(params[key]))
        fail(`${aspect}.${key} not a number`);
    }
    if (params.vote_share < 0 || params.vote_share > 1) fail(`${aspect}.vote_share must be in [0, 1]`);
  }
  return model as BlendModel;
}
