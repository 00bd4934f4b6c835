import { calibrate, type Calibration, distanceOfScore, type GoAspect } from '@svc/domain';
import type { PredictionRow } from './prediction-columns';

/**
 * What a homology prediction stores instead of its prior-only rows (docs/scaling.md, "Storage"):
 * the set's prior once, and per (protein, aspect) its homology weight. The `prediction_row` view
 * composes the rows back; `composedPriorRow` is the same composition in TypeScript.
 */

/** One term of a set's prior that a prior-only row can carry. */
export interface PriorTerm {
  aspect: GoAspect;
  goTermId: number;
  goId: string;
  /** The term's frequency among the reference proteins annotated in the aspect (the plain prior). */
  frequency: number;
  /** How many reference proteins carry it (a row's `go_term_frequency`). */
  termFrequency: number;
  /** The calibration map of the term's band of specificity; null: the blend as is. */
  calibration: Calibration | null;
}

/** The prior of a prediction set: every term that reaches `minScore` at weight 0, named by a digest. */
export interface SetPrior {
  digest: string;
  minScore: number;
  terms: PriorTerm[];
}

/** A (protein, aspect) whose prior-only rows are composed at read instead of stored. */
export interface ComposedPrior {
  accession: string;
  aspect: GoAspect;
  weight: number;
  /**
   * The weight of the association in the query's prior (`informedPrior`), 0 for the plain prior: a
   * term without an association has the plain frequency scaled by `1 - associationWeight`.
   */
  associationWeight: number;
  /** The composed terms that have an association of their own, by term id, and its value. */
  associatedTerms: number[];
  associations: number[];
  /** The query's taxon its prior-only rows print (null without the taxonomy features). */
  queryTaxonomyId: string | null;
  /** The rows carry the neighbourhood features (`go_term_frequency`, `neighbor_vote_fraction`). */
  neighbourhood: boolean;
  /** Prior-only rows composed at read. */
  composedRows: number;
  /** Terms of the (protein, aspect) stored as rows: no composed row for them. */
  storedTerms: number[];
}

/**
 * The prior-only row of `term` for a (protein, aspect) of these weights, or null below the cut:
 * what the `prediction_row` view composes, in TypeScript (the writer checks the rows it leaves out
 * against it).
 */
export function composedPriorRow(
  term: PriorTerm,
  weights: { weight: number; associationWeight: number; association?: number },
  minScore: number,
  row: { accession: string; queryTaxonomyId: string | null; neighbourhood: boolean },
): PredictionRow | null {
  // The blend's (1 - w) * prior(t), with the query's informed prior (1 - a) * f(t) + a * association(t)
  // (`informedPrior`), which is f(t) itself for a = 0.
  const a = weights.associationWeight;
  const prior = a === 0 ? term.frequency : (1 - a) * term.frequency + a * (weights.association ?? 0);
  const score = calibrate(term.calibration ?? undefined, (1 - weights.weight) * prior);
  if (score < minScore) return null;
  return {
    protein_accession: row.accession,
    go_term_id: term.goTermId,
    go_id: term.goId,
    aspect: term.aspect,
    distance: distanceOfScore(score),
    query_taxonomy_id: row.queryTaxonomyId,
    vote_count: 0,
    go_term_frequency: row.neighbourhood ? term.termFrequency : null,
    neighbor_vote_fraction: row.neighbourhood ? 0 : null,
    features: {
      source: 'prior',
      vote_share: 0,
      prior: term.frequency,
      ...(weights.association !== undefined ? { association: weights.association } : {}),
    },
  };
}

/** A write message's composed prior: the set prior and the pairs of its queries. */
export interface ComposedPriorWrite {
  prior: SetPrior;
  pairs: ComposedPrior[];
}

/** The prior's terms as the tuples a write message and the insert carry (`decodeComposedPrior`'s order). */
export function priorTermTuples(terms: readonly PriorTerm[]): unknown[][] {
  return terms.map((t) => [
    t.aspect,
    t.goTermId,
    t.goId,
    t.frequency,
    t.termFrequency,
    t.calibration?.raw ?? null,
    t.calibration?.calibrated ?? null,
  ]);
}

/** The composed pairs as the tuples a write message and the insert carry (`decodeComposedPrior`'s order). */
export function composedPairTuples(pairs: readonly ComposedPrior[]): unknown[][] {
  return pairs.map((p) => [
    p.accession,
    p.aspect,
    p.weight,
    p.associationWeight,
    p.queryTaxonomyId,
    p.neighbourhood,
    p.composedRows,
    p.storedTerms,
    p.associatedTerms,
    p.associations,
  ]);
}

/** One JSON text for a write message (`composed_prior`), tuples instead of keyed objects. */
export function encodeComposedPrior(write: ComposedPriorWrite): string {
  return JSON.stringify({
    digest: write.prior.digest,
    min_score: write.prior.minScore,
    terms: priorTermTuples(write.prior.terms),
    pairs: composedPairTuples(write.pairs),
  });
}

const isAspect = (v: unknown): v is GoAspect => v === 'F' || v === 'P' || v === 'C';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isShare = (v: unknown): v is number => isNumber(v) && v >= 0 && v <= 1;
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isKnots = (v: unknown): v is number[] | null => v === null || (Array.isArray(v) && v.every(isNumber));

/** The composed prior of a write message, or why it cannot be stored. */
export function decodeComposedPrior(text: string): { value: ComposedPriorWrite } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: 'composed_prior is not JSON' };
  }
  const body = parsed as { digest?: unknown; min_score?: unknown; terms?: unknown; pairs?: unknown };
  if (typeof body !== 'object' || body === null) return { error: 'composed_prior is not an object' };
  if (typeof body.digest !== 'string' || !/^[0-9a-f]{32}$/.test(body.digest))
    return { error: 'composed_prior.digest must be 32 hex digits' };
  if (!isNumber(body.min_score) || body.min_score < 0 || body.min_score > 1)
    return { error: 'composed_prior.min_score must be in [0, 1]' };
  if (!Array.isArray(body.terms) || !Array.isArray(body.pairs))
    return { error: 'composed_prior.terms and pairs must be arrays' };
  const terms: PriorTerm[] = [];
  for (const t of body.terms as unknown[]) {
    const [aspect, goTermId, goId, frequency, termFrequency, raw, calibrated] = (
      Array.isArray(t) ? t : []
    ) as unknown[];
    if (
      !isAspect(aspect) ||
      !isCount(goTermId) ||
      typeof goId !== 'string' ||
      !isShare(frequency) ||
      !isCount(termFrequency) ||
      !isKnots(raw) ||
      !isKnots(calibrated) ||
      (raw === null) !== (calibrated === null) ||
      (raw !== null && raw.length !== calibrated!.length)
    )
      return { error: 'composed_prior.terms holds a malformed term' };
    terms.push({
      aspect,
      goTermId,
      goId,
      frequency,
      termFrequency,
      calibration: raw === null ? null : { raw, calibrated: calibrated! },
    });
  }
  const pairs: ComposedPrior[] = [];
  for (const p of body.pairs as unknown[]) {
    const [
      accession,
      aspect,
      weight,
      associationWeight,
      taxon,
      neighbourhood,
      composedRows,
      storedTerms,
      associatedTerms,
      associations,
    ] = (Array.isArray(p) ? p : []) as unknown[];
    if (
      typeof accession !== 'string' ||
      !isAspect(aspect) ||
      !isShare(weight) ||
      !isShare(associationWeight) ||
      !(taxon === null || typeof taxon === 'string') ||
      typeof neighbourhood !== 'boolean' ||
      !isCount(composedRows) ||
      !Array.isArray(storedTerms) ||
      !storedTerms.every(isCount) ||
      !Array.isArray(associatedTerms) ||
      !associatedTerms.every(isCount) ||
      !Array.isArray(associations) ||
      !associations.every(isNumber) ||
      associations.length !== associatedTerms.length
    )
      return { error: 'composed_prior.pairs holds a malformed pair' };
    pairs.push({
      accession,
      aspect,
      weight,
      associationWeight,
      queryTaxonomyId: taxon,
      neighbourhood,
      composedRows,
      storedTerms,
      associatedTerms,
      associations,
    });
  }
  return { value: { prior: { digest: body.digest, minScore: body.min_score, terms }, pairs } };
}
