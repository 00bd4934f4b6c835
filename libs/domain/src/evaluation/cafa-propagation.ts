import type { CafaOntology } from './cafa-ontology';

/** `fill`: an explicit non-zero score is kept as is; `max`: a term scores at least its best child. */
export type CafaPropagation = 'fill' | 'max';

/**
 * Sparse ancestor closures and score propagation over one ontology. Work per call is proportional
 * to the closure, not to the ontology: scratch arrays are sized once and reset through a generation
 * stamp, so one instance serves every protein of an evaluation.
 */
export class OntologyWalker {
  private readonly stamp: Int32Array;
  private generation = 0;
  private readonly closure: Int32Array;
  private readonly explicit: Float64Array;
  private readonly best: Float64Array;

  constructor(private readonly ontology: CafaOntology) {
    this.stamp = new Int32Array(ontology.size);
    this.closure = new Int32Array(ontology.size);
    this.explicit = new Float64Array(ontology.size);
    this.best = new Float64Array(ontology.size);
  }

  /** The terms plus all their ancestors (is_a + part_of, within the namespace), sorted ascending. */
  ancestorClosure(terms: Iterable<number>): Int32Array {
    const length = this.collect(terms);
    return this.closure.slice(0, length).sort();
  }

  /**
   * Propagates one protein's explicit scores (EVALUATOR.md §2.4) and calls `visit` once per term of
   * their ancestor closure with its propagated value, children before parents.
   */
  propagate(
    scores: ReadonlyMap<number, number>,
    mode: CafaPropagation,
    visit: (term: number, value: number) => void,
  ): void {
    const { explicit, best } = this;
    const { parentOffsets, parentIndices } = this.ontology;
    for (const [term, score] of scores) explicit[term] = score;
    const length = this.collect(scores.keys());
    const closure = this.closure.subarray(0, length).sort();
    // Parents have smaller indices than their children, so a descending walk sees every child of a
    // term before the term itself; each term pushes its value up to its parents.
    for (let i = length - 1; i >= 0; i--) {
      const term = closure[i] ?? 0;
      const own = explicit[term] ?? 0;
      const fromChildren = best[term] ?? 0;
      const value = mode === 'fill' ? (own !== 0 ? own : fromChildren) : Math.max(own, fromChildren);
      const end = parentOffsets[term + 1] ?? 0;
      for (let e = parentOffsets[term] ?? 0; e < end; e++) {
        const parent = parentIndices[e] ?? 0;
        if (value > (best[parent] ?? 0)) best[parent] = value;
      }
      visit(term, value);
    }
    for (let i = 0; i < length; i++) {
      const term = closure[i] ?? 0;
      explicit[term] = 0;
      best[term] = 0;
    }
  }

  private collect(terms: Iterable<number>): number {
    const { stamp, closure } = this;
    const { parentOffsets, parentIndices } = this.ontology;
    const generation = ++this.generation;
    let length = 0;
    for (const term of terms) {
      if (stamp[term] === generation) continue;
      stamp[term] = generation;
      closure[length++] = term;
    }
    // The closure array doubles as the work list: everything before `next` has had its parents added.
    for (let next = 0; next < length; next++) {
      const term = closure[next] ?? 0;
      const end = parentOffsets[term + 1] ?? 0;
      for (let e = parentOffsets[term] ?? 0; e < end; e++) {
        const parent = parentIndices[e] ?? 0;
        if (stamp[parent] === generation) continue;
        stamp[parent] = generation;
        closure[length++] = parent;
      }
    }
    return length;
  }
}
