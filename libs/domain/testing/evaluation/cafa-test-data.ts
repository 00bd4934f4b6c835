import { createCafaEvaluator, type CafaEvaluatorInput } from '../../src/evaluation/cafa-evaluator';
import type { CafaEvaluation, CafaThresholdRow } from '../../src/evaluation/cafa-types';

/**
 * The small ontology the hand-computed cases use:
 *
 *   mf:  A (root)            bp:  R (root)
 *        B is_a A                 S is_a R
 *        C is_a A, alt X:C2       T is_a S
 *        D is_a B
 *        E is_a B, part_of C
 *
 * With orphans removed, U(mf) = {B, C, D, E} and U(bp) = {S, T}.
 */
export const SMALL_OBO = `format-version: 1.2

[Term]
id: X:A
namespace: mf

[Term]
id: X:B
namespace: mf
is_a: X:A ! a

[Term]
id: X:C
namespace: mf
alt_id: X:C2
is_a: X:A

[Term]
id: X:D
namespace: mf
is_a: X:B

[Term]
id: X:E
namespace: mf
is_a: X:B
relationship: part_of X:C ! c

[Term]
id: X:R
namespace: bp

[Term]
id: X:S
namespace: bp
is_a: X:R

[Term]
id: X:T
namespace: bp
is_a: X:S
`;

/** Tab-separated lines from rows of tokens. */
export function tsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.join('\t')).join('\n') + '\n';
}

export function evaluateSmall(
  input: Omit<CafaEvaluatorInput, 'ontology' | 'groundTruth'> & {
    groundTruth: readonly (readonly string[])[];
    predictions: readonly (readonly (string | number)[])[];
  },
): CafaEvaluation {
  const { groundTruth, predictions, ...rest } = input;
  return createCafaEvaluator({ ...rest, ontology: SMALL_OBO, groundTruth: tsv(groundTruth) }).evaluate(
    tsv(predictions),
  );
}

/** tau_i of the 0.01 grid. */
export const tauAt = (i: number): number => 0.01 + i * 0.01;

/** The row of `namespace` at grid index i (thresholds are never dropped from `rows`). */
export function rowAt(result: CafaEvaluation, namespace: string, i: number): CafaThresholdRow {
  const row = result.rows[namespace]?.[i];
  if (row === undefined) throw new Error(`no row ${i} for ${namespace}`);
  return row;
}

/**
 * The hand-computed base case: P1 truth D (G = {D, B}); P2 truth C (G = {C}). Under `fill`, P2's
 * explicit C = 0.5 is kept although its child E scores 0.9; under `max` C becomes 0.9.
 */
export const BASE_CASE: Parameters<typeof evaluateSmall>[0] = {
  groundTruth: [
    ['P1', 'X:D'],
    ['P2', 'X:C'],
  ],
  predictions: [
    ['P1', 'X:D', 0.8],
    ['P1', 'X:C', 0.3],
    ['P2', 'X:C', 0.5],
    ['P2', 'X:E', 0.9],
  ],
};
