import { CafaEvaluationError } from './cafa-errors';
import type { CafaOntology } from './cafa-ontology';
import { forEachTokenLine, parsePythonFloat } from './reference-text';

/** One ground-truth or known-terms pair. */
export interface CafaAnnotation {
  protein: string;
  term: string;
}

/** Per namespace index: protein -> terms, proteins in order of first appearance. */
export type TermSetsByNamespace = Map<string, Set<number>>[];

function visitAnnotations(
  source: string | Iterable<CafaAnnotation>,
  label: string,
  visit: (protein: string, term: string) => void,
): void {
  if (typeof source !== 'string') {
    for (const { protein, term } of source) visit(protein, term);
    return;
  }
  forEachTokenLine(source, 2, (tokens, count, lineNumber) => {
    // A blank line is skipped: the reference's behaviour there is not documented, and a trailing
    // empty line is common in exported files.
    if (count === 0) return;
    if (count === 1) {
      throw new CafaEvaluationError('annotation_malformed_line', `${label} line ${lineNumber} has one token`);
    }
    visit(tokens[0] ?? '', tokens[1] ?? '');
  });
}

/**
 * Ground truth and known terms (EVALUATOR.md §2.3): the first two whitespace tokens, the term resolved
 * through ids and alt ids; extra columns, header lines and obsolete or unknown terms fall out.
 */
export function readTermSets(
  ontology: CafaOntology,
  source: string | Iterable<CafaAnnotation>,
  label: string,
): TermSetsByNamespace {
  const sets: TermSetsByNamespace = ontology.namespaces.map(() => new Map<string, Set<number>>());
  visitAnnotations(source, label, (protein, term) => {
    const ref = ontology.resolve(term);
    if (ref === undefined) return;
    const byProtein = sets[ref.namespace];
    if (byProtein === undefined) return;
    let terms = byProtein.get(protein);
    if (terms === undefined) byProtein.set(protein, (terms = new Set()));
    for (const t of ref.terms) terms.add(t);
  });
  return sets;
}

/**
 * IA values (EVALUATOR.md §2.2). Every line must be exactly `<term> <float>`: a header, a blank line
 * (a trailing one included) or a third column makes the reference crash, so they throw here. A later
 * line for the same term wins, as in a dict.
 */
export function parseIaText(text: string): Map<string, number> {
  const values = new Map<string, number>();
  forEachTokenLine(text, 2, (tokens, count, lineNumber) => {
    const value = count === 2 ? parsePythonFloat(tokens[1] ?? '') : null;
    if (value === null) {
      throw new CafaEvaluationError(
        'ia_malformed_line',
        `IA line ${lineNumber} is not '<term> <number>' (${count === 0 ? 'blank' : (tokens[0] ?? '')})`,
      );
    }
    values.set(tokens[0] ?? '', value);
  });
  return values;
}

/**
 * IA per term index. Falsy values become 0, NaN survives that test but is then zeroed with the
 * infinities; alt ids are not looked up.
 */
export function iaByTerm(ontology: CafaOntology, ia: ReadonlyMap<string, number>): Float64Array {
  const weights = new Float64Array(ontology.size);
  for (const [id, value] of ia) {
    const term = ontology.indexOfCanonical(id);
    if (term !== undefined) weights[term] = Number.isFinite(value) ? value : 0;
  }
  return weights;
}

/** TOI ids: the first whitespace token of each line; blank lines carry none. */
export function parseToiText(text: string): string[] {
  const ids: string[] = [];
  forEachTokenLine(text, 1, (tokens, count) => {
    if (count > 0) ids.push(tokens[0] ?? '');
  });
  return ids;
}

/** TOI membership per term index; ids are resolved per namespace through ids and alt ids. */
export function toiByTerm(ontology: CafaOntology, ids: Iterable<string>): Uint8Array {
  const inToi = new Uint8Array(ontology.size);
  const list = [...ids];
  ontology.namespaces.forEach((_, ns) => {
    for (const id of list) for (const term of ontology.resolveInNamespace(ns, id)) inToi[term] = 1;
  });
  return inToi;
}

/** The scored term sets: U (unweighted, 0/1) and W (IA weights, 0 outside W). */
export interface ScoredTerms {
  inUnweighted: Uint8Array;
  weights: Float64Array | null;
}

/**
 * U = terms with a kept parent (or every term with orphans kept), W = terms with IA > 0; both ∩ TOI.
 * W is not orphan-filtered, as in the reference.
 */
export function scoredTerms(
  ontology: CafaOntology,
  options: { keepOrphans: boolean; inToi: Uint8Array | null; ia: Float64Array | null },
): ScoredTerms {
  const { keepOrphans, inToi, ia } = options;
  const inUnweighted = new Uint8Array(ontology.size);
  const weights = ia === null ? null : new Float64Array(ontology.size);
  for (let t = 0; t < ontology.size; t++) {
    const allowed = inToi === null || inToi[t] === 1;
    if (allowed && (keepOrphans || ontology.hasParent(t))) inUnweighted[t] = 1;
    const w = ia?.[t] ?? 0;
    if (weights !== null && allowed && w > 0) weights[t] = w;
  }
  return { inUnweighted, weights };
}
