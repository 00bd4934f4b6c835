import { createHash } from 'node:crypto';
import { type BlendModel, calibrate, type GoAspect, type TermPrior, termCalibration } from '@svc/domain';
import {
  type ComposedPrior,
  composedPriorRow,
  PREDICTION_ROW_COLUMNS,
  type PredictionRow,
  type PriorTerm,
  type SetPrior,
} from '@svc/persistence';

/**
 * Prior-only rows without storing them (docs/scaling.md, "Storage"). A homology query gets, for
 * every prior term no donor carries, the row `score(t) = calibrate_band(t)((1 - w) * prior(t))`, kept
 * when it reaches the model's `min_score`, where prior(t) is the set's frequency of t, scaled by
 * `1 - a` when association informs the query's prior and t has no association of its own: a function
 * of the set's prior and of two numbers of the (protein, aspect), its homology weight `w` and its
 * association weight `a`. The set's prior is stored once, each (protein, aspect) its weights and the
 * terms it stores as rows, and the reads compose the rest (the `prediction_row` view, whose SQL
 * mirrors `composedPriorRow`).
 */

/** The weights of a (query, aspect) the blend scored. */
export interface PriorWeight {
  accession: string;
  aspect: GoAspect;
  weight: number;
  /** The association's weight in the query's informed prior; 0 for the plain prior. */
  associationWeight: number;
}

/** What a homology batch can compose: the set's prior and the weights of its (query, aspect) pairs. */
export interface PriorComposition {
  prior: SetPrior;
  weights: PriorWeight[];
}

/**
 * The set prior of a reference pool's priors under a blend model: per aspect, the terms whose
 * calibrated frequency reaches `min_score` (no other can make a prior-only row, since the weight only
 * lowers it and every map is non-decreasing), with their band's calibration map.
 */
export function setPriorOf(
  priors: Record<GoAspect, TermPrior>,
  model: BlendModel,
  goTermIdOf: (goId: string) => number | undefined,
): SetPrior {
  const terms: PriorTerm[] = [];
  for (const aspect of ['F', 'P', 'C'] as const) {
    const prior = priors[aspect];
    const calibrationOf = termCalibration(model.aspects[aspect], prior);
    for (const [goId, frequency] of prior.ranked) {
      const calibration = calibrationOf(goId) ?? null;
      if (calibrate(calibration ?? undefined, frequency) < model.min_score) continue;
      const goTermId = goTermIdOf(goId);
      if (goTermId === undefined) continue;
      terms.push({
        aspect,
        goTermId,
        goId,
        frequency,
        termFrequency: Math.round(frequency * prior.proteins),
        calibration,
      });
    }
  }
  const digest = createHash('sha256')
    .update(JSON.stringify([model.min_score, terms]))
    .digest('hex')
    .slice(0, 32);
  return { digest, minScore: model.min_score, terms };
}

/**
 * Splits a batch's rows into those to store and the (protein, aspect) pairs whose prior-only rows are
 * composed at read. A row is left out only when it is exactly the row the composition gives (every
 * column, the features, the distance as the database stores it); any other row of the pair is stored
 * and its term named, so the composition skips it. A pair whose composition would give a row the
 * batch does not have stores all its rows. A re-ranked or otherwise changed row is never left out.
 */
export function splitPriorRows(
  rows: PredictionRow[],
  composition: PriorComposition,
): { rows: PredictionRow[]; composed: ComposedPrior[] } {
  const { prior } = composition;
  const termsOf = new Map<GoAspect, PriorTerm[]>([
    ['F', []],
    ['P', []],
    ['C', []],
  ]);
  for (const term of prior.terms) termsOf.get(term.aspect)!.push(term);
  const weightOf = new Map(composition.weights.map((w) => [pairKey(w.accession, w.aspect), w]));
  const groups = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const key = pairKey(String(row.protein_accession), String(row.aspect));
    if (!weightOf.has(key)) return;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = []));
    group.push(i);
  });
  const dropped = new Uint8Array(rows.length);
  const composed: ComposedPrior[] = [];
  for (const [key, indexes] of groups) {
    const first = indexes.map((i) => rows[i]!).find(isPriorOnly);
    if (first === undefined) continue;
    const accession = String(first.protein_accession);
    const aspect = first.aspect as GoAspect;
    const { weight, associationWeight } = weightOf.get(key)!;
    const shape = {
      accession,
      queryTaxonomyId: (first.query_taxonomy_id as string | null | undefined) ?? null,
      neighbourhood: first.neighbor_vote_fraction !== null && first.neighbor_vote_fraction !== undefined,
    };
    const rowsOfTerm = new Map<number, number[]>();
    for (const i of indexes) {
      const termId = Number(rows[i]!.go_term_id);
      const list = rowsOfTerm.get(termId);
      if (list === undefined) rowsOfTerm.set(termId, [i]);
      else list.push(i);
    }
    // A prior term is composed when its one row is the composition's (with the association the row
    // names, if any); a prior term without a row must compose to nothing (below the cut).
    const matched: number[] = [];
    const associated: [number, number][] = [];
    let exact = true;
    for (const term of termsOf.get(aspect) ?? []) {
      const found = rowsOfTerm.get(term.goTermId);
      if (found === undefined) {
        if (composedPriorRow(term, { weight, associationWeight }, prior.minScore, shape) !== null)
          exact = false;
        continue;
      }
      if (found.length !== 1) continue;
      const row = rows[found[0]!]!;
      const association = (row.features as Record<string, unknown> | undefined)?.['association'];
      const weights =
        typeof association === 'number'
          ? { weight, associationWeight, association }
          : { weight, associationWeight };
      const want = composedPriorRow(term, weights, prior.minScore, shape);
      if (want === null || !sameRow(row, want)) continue;
      matched.push(found[0]!);
      rowsOfTerm.delete(term.goTermId);
      if (typeof association === 'number') associated.push([term.goTermId, association]);
    }
    if (!exact || matched.length === 0) continue;
    for (const i of matched) dropped[i] = 1;
    associated.sort((a, b) => a[0] - b[0]);
    composed.push({
      ...shape,
      aspect,
      weight,
      associationWeight,
      associatedTerms: associated.map(([term]) => term),
      associations: associated.map(([, value]) => value),
      composedRows: matched.length,
      storedTerms: [...rowsOfTerm.keys()].sort((a, b) => a - b),
    });
  }
  return { rows: rows.filter((_, i) => dropped[i] === 0), composed };
}

const pairKey = (accession: string, aspect: string): string => `${accession}\t${aspect}`;

function isPriorOnly(row: PredictionRow): boolean {
  return (row.features as Record<string, unknown> | undefined)?.['source'] === 'prior';
}

/** Every stored column equal; the distance also equal once the database rounds it to `real`. */
function sameRow(row: PredictionRow, want: PredictionRow): boolean {
  for (const { name } of PREDICTION_ROW_COLUMNS) {
    if (name === 'features') {
      if (!sameFeatures(row.features, want.features)) return false;
    } else if ((row[name] ?? null) !== (want[name] ?? null)) return false;
  }
  return !isFloat32Midpoint(Number(want.distance));
}

function sameFeatures(a: unknown, b: unknown): boolean {
  const x = (a ?? {}) as Record<string, unknown>;
  const y = (b ?? {}) as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => k in y && x[k] === y[k]);
}

/**
 * A double exactly halfway between two `real` values: the database stores the written row's text,
 * rounded once, and the composed row's double cast to `real`; only at a midpoint could the two differ,
 * so such a row is stored.
 */
export function isFloat32Midpoint(x: number): boolean {
  const near = Math.fround(x);
  if (near === x || !Number.isFinite(near)) return false;
  const floats = new Float32Array([near]);
  const bits = new Uint32Array(floats.buffer);
  bits[0] = bits[0]! + (x > near === near >= 0 ? 1 : -1);
  return (near + floats[0]!) / 2 === x;
}
