import type { GoAspect, RelationType } from '../obo';
import { acceptedEvidence } from './evidence-codes';

/** One annotation of an annotation set, as stored. */
export interface HoldoutAnnotation {
  protein: string;
  goId: string;
  /** A GO evidence code (IDA) or its ECO id (ECO:0000314). */
  evidence: string;
  isNot?: boolean;
  /** GAF column 4 as written ('NOT|enables'); a NOT in it counts like `isNot`. */
  qualifier?: string | null;
}

/** What the delta needs from the ontology; `GoGraph` provides it. */
export interface HoldoutOntology {
  resolve(id: string): string | null;
  isObsolete(id: string): boolean;
  aspect(id: string): GoAspect | null;
  descendants(id: string, relations?: readonly RelationType[]): string[];
}

export type HoldoutCategory = 'NK' | 'LK' | 'PK';

export interface HoldoutTerm {
  protein: string;
  goId: string;
  aspect: GoAspect;
}

export interface HoldoutStats {
  delta_proteins: number;
  delta_annotations: number;
  nk_proteins: number;
  nk_annotations: number;
  lk_proteins: number;
  lk_annotations: number;
  pk_proteins: number;
  pk_annotations: number;
  known_annotations: number;
}

export interface HoldoutDelta {
  /** Ground truth per category, sorted by protein then GO id. */
  groundTruth: Record<HoldoutCategory, HoldoutTerm[]>;
  /** Old terms of every PK (protein, aspect): the known-terms input of the PK evaluation. */
  known: HoldoutTerm[];
  stats: HoldoutStats;
}

const NOT_PROPAGATION: readonly RelationType[] = ['is_a', 'part_of'];
const ASPECTS: readonly GoAspect[] = ['F', 'P', 'C'];

type TermsByAspect = Map<GoAspect, Set<string>>;

function isNegated(a: HoldoutAnnotation): boolean {
  return a.isNot === true || (a.qualifier ?? '').split('|').some((q) => q.trim().toUpperCase() === 'NOT');
}

/**
 * The temporal-holdout split (service spec, "Evaluation semantics"): experimental annotations only;
 * NOT annotations (experimental ones, from either set) exclude their term and every descendant over
 * is_a and part_of for that protein on both sides; then, per (protein, aspect), new terms minus old
 * terms. NK: no old term in any aspect; LK: old terms elsewhere but none in this aspect; PK: old
 * terms in this aspect, which become its known terms.
 *
 * GO ids are resolved through alt ids; unknown and obsolete terms are dropped, as the evaluator
 * would drop them anyway. Terms are compared as annotated, not propagated: the evaluator propagates.
 */
export function computeHoldoutDelta(input: {
  old: Iterable<HoldoutAnnotation>;
  new: Iterable<HoldoutAnnotation>;
  ontology: HoldoutOntology;
  includeExtendedEvidence?: boolean;
}): HoldoutDelta {
  const { ontology } = input;
  const accepted = acceptedEvidence(input.includeExtendedEvidence ?? false);
  const negated = new Map<string, Set<string>>();

  const collect = (annotations: Iterable<HoldoutAnnotation>): Map<string, TermsByAspect> => {
    const byProtein = new Map<string, TermsByAspect>();
    for (const a of annotations) {
      if (!accepted.has(a.evidence.trim().toUpperCase())) continue;
      const goId = ontology.resolve(a.goId);
      const aspect = goId === null || ontology.isObsolete(goId) ? null : ontology.aspect(goId);
      if (goId === null || aspect === null) continue;
      if (isNegated(a)) {
        addTo(negated, a.protein, goId);
        continue;
      }
      let aspects = byProtein.get(a.protein);
      if (aspects === undefined) byProtein.set(a.protein, (aspects = new Map<GoAspect, Set<string>>()));
      addTo(aspects, aspect, goId);
    }
    return byProtein;
  };
  const old = collect(input.old);
  const current = collect(input.new);
  removeNegated(ontology, negated, [old, current]);

  const groundTruth: Record<HoldoutCategory, HoldoutTerm[]> = { NK: [], LK: [], PK: [] };
  const known: HoldoutTerm[] = [];
  const proteins: Record<HoldoutCategory | 'delta', Set<string>> = {
    NK: new Set(),
    LK: new Set(),
    PK: new Set(),
    delta: new Set(),
  };
  for (const [protein, aspects] of current) {
    const before = old.get(protein);
    const hadAny = before !== undefined && [...before.values()].some((terms) => terms.size > 0);
    for (const aspect of ASPECTS) {
      const earlier = before?.get(aspect) ?? new Set<string>();
      const novel = [...(aspects.get(aspect) ?? [])].filter((goId) => !earlier.has(goId));
      if (novel.length === 0) continue;
      const category: HoldoutCategory = !hadAny ? 'NK' : earlier.size === 0 ? 'LK' : 'PK';
      proteins[category].add(protein);
      proteins.delta.add(protein);
      for (const goId of novel) groundTruth[category].push({ protein, goId, aspect });
      if (category === 'PK') for (const goId of earlier) known.push({ protein, goId, aspect });
    }
  }
  for (const rows of [groundTruth.NK, groundTruth.LK, groundTruth.PK, known]) rows.sort(byProteinThenTerm);

  return {
    groundTruth,
    known,
    stats: {
      delta_proteins: proteins.delta.size,
      delta_annotations: groundTruth.NK.length + groundTruth.LK.length + groundTruth.PK.length,
      nk_proteins: proteins.NK.size,
      nk_annotations: groundTruth.NK.length,
      lk_proteins: proteins.LK.size,
      lk_annotations: groundTruth.LK.length,
      pk_proteins: proteins.PK.size,
      pk_annotations: groundTruth.PK.length,
      known_annotations: known.length,
    },
  };
}

function addTo<K>(map: Map<K, Set<string>>, key: K, value: string): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}

/** Drops each protein's NOT terms and their descendants from every side. */
function removeNegated(
  ontology: HoldoutOntology,
  negated: ReadonlyMap<string, ReadonlySet<string>>,
  sides: readonly Map<string, TermsByAspect>[],
): void {
  // Many proteins carry a NOT on the same term; its descendants are walked once.
  const descendantsOf = new Map<string, readonly string[]>();
  for (const [protein, terms] of negated) {
    const excluded = new Set<string>();
    for (const goId of terms) {
      let below = descendantsOf.get(goId);
      if (below === undefined) descendantsOf.set(goId, (below = ontology.descendants(goId, NOT_PROPAGATION)));
      excluded.add(goId);
      for (const d of below) excluded.add(d);
    }
    for (const side of sides) {
      for (const set of side.get(protein)?.values() ?? []) {
        for (const goId of set) if (excluded.has(goId)) set.delete(goId);
      }
    }
  }
}

function byProteinThenTerm(a: HoldoutTerm, b: HoldoutTerm): number {
  if (a.protein !== b.protein) return a.protein < b.protein ? -1 : 1;
  return a.goId < b.goId ? -1 : a.goId > b.goId ? 1 : 0;
}
