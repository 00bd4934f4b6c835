import { type CafaAnnotation, readTermSets } from './cafa-inputs';
import type { CafaOntology } from './cafa-ontology';
import { OntologyWalker } from './cafa-propagation';

/**
 * Information accretion of every term (Clark & Radivojac 2013) from a set of annotations:
 * IA(t) = -log2 P(t | all parents of t), estimated as n(t) / n(parents(t)), where n(S) counts the
 * proteins whose propagated terms (is_a + part_of, within the namespace) hold every term of S.
 *
 * A term without parents (a root) or whose parents never co-occur gets no entry (IA 0 for the
 * evaluator); a term seen with its parents but never itself is left out too, as its IA would be
 * infinite and the evaluator sets infinities to 0 anyway.
 */
export function informationAccretion(
  ontology: CafaOntology,
  annotations: Iterable<CafaAnnotation>,
): Map<string, number> {
  const walker = new OntologyWalker(ontology);
  const { parentOffsets, parentIndices } = ontology;
  const children = childLists(ontology);
  const withTerm = new Float64Array(ontology.size);
  const withParents = new Float64Array(ontology.size);
  const member = new Uint8Array(ontology.size);
  const seen = new Int32Array(ontology.size);
  let visit = 0;

  const allParentsIn = (term: number): boolean => {
    const end = parentOffsets[term + 1] ?? 0;
    for (let e = parentOffsets[term] ?? 0; e < end; e++) {
      if (member[parentIndices[e] ?? 0] !== 1) return false;
    }
    return true;
  };

  for (const byProtein of readTermSets(ontology, annotations, 'annotations')) {
    for (const terms of byProtein.values()) {
      const closure = walker.ancestorClosure(terms);
      visit++;
      for (const term of closure) member[term] = 1;
      for (const term of closure) {
        withTerm[term] = (withTerm[term] ?? 0) + 1;
        if (ontology.hasParent(term)) {
          withParents[term] = (withParents[term] ?? 0) + 1;
          seen[term] = visit;
        }
        // Terms outside the closure whose parents are all inside it: their parents co-occur here.
        for (const child of children[term] ?? []) {
          if (member[child] === 1 || seen[child] === visit) continue;
          seen[child] = visit;
          if (allParentsIn(child)) withParents[child] = (withParents[child] ?? 0) + 1;
        }
      }
      for (const term of closure) member[term] = 0;
    }
  }

  const ia = new Map<string, number>();
  for (let term = 0; term < ontology.size; term++) {
    const n = withTerm[term] ?? 0;
    const base = withParents[term] ?? 0;
    if (n > 0 && base > 0 && ontology.hasParent(term))
      ia.set(ontology.termIds[term] ?? '', Math.log2(base / n));
  }
  return ia;
}

function childLists(ontology: CafaOntology): number[][] {
  const children: number[][] = Array.from({ length: ontology.size }, () => []);
  for (let term = 0; term < ontology.size; term++) {
    const end = ontology.parentOffsets[term + 1] ?? 0;
    for (let e = ontology.parentOffsets[term] ?? 0; e < end; e++)
      children[ontology.parentIndices[e] ?? 0]?.push(term);
  }
  return children;
}
