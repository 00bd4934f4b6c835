/**
 * Inputs on which the reference CAFA evaluator crashes (or that it cannot express), plus our own
 * argument checks. The reference dies with a Python exception; we throw one of these instead so the
 * worker can report a clear failure.
 */
export type CafaEvaluationErrorCode =
  /** Every inserted prediction of a namespace is 0: the reference dies with IndexError. */
  | 'all_zero_scores'
  /** A TOI was given but lists no term of a namespace that has ground truth. */
  | 'toi_empty_namespace'
  /** A known-terms input was given but has no entry in a namespace that has ground truth (KeyError). */
  | 'known_missing_namespace'
  /** An IA line that is not exactly `<term> <float>`: header, blank line, extra column. */
  | 'ia_malformed_line'
  /** A ground-truth or known line with a single token. */
  | 'annotation_malformed_line'
  /** A kept prediction line whose score Python's float() would reject, or NaN. */
  | 'invalid_score'
  /** The is_a/part_of graph of a namespace has a cycle: scores cannot be propagated. */
  | 'ontology_cycle'
  /** th_step outside (0, 1), a negative or fractional max_terms. */
  | 'invalid_option';

export class CafaEvaluationError extends Error {
  constructor(
    readonly code: CafaEvaluationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CafaEvaluationError';
  }
}
