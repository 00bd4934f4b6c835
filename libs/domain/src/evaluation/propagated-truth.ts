/** What labelling needs from the ontology; `GoGraph` provides it. */
export interface TruthOntology {
  resolve(id: string): string | null;
  ancestors(id: string): Iterable<string>;
}

/** Binary labels of (protein, term) pairs against a ground truth. */
export interface PropagatedTruth {
  /** True when the protein has any ground-truth term. */
  covers(protein: string): boolean;
  label(protein: string, goId: string): boolean;
}

/**
 * Labels as the evaluator counts them: a predicted term is true for a protein when it is one of the
 * protein's ground-truth terms or an is_a/part_of ancestor of one (the evaluator propagates the truth
 * the same way). Alt ids resolve to their primary term first.
 */
export function propagatedTruth(
  terms: Iterable<{ protein: string; goId: string }>,
  ontology: TruthOntology,
): PropagatedTruth {
  const truth = new Map<string, Set<string>>();
  for (const { protein, goId } of terms) {
    let set = truth.get(protein);
    if (set === undefined) truth.set(protein, (set = new Set()));
    set.add(goId);
    for (const ancestor of ontology.ancestors(goId)) set.add(ancestor);
  }
  return {
    covers: (protein) => truth.has(protein),
    label: (protein, goId) => truth.get(protein)?.has(ontology.resolve(goId) ?? goId) === true,
  };
}
