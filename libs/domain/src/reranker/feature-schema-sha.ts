import { createHash } from 'node:crypto';

/**
 * The fingerprint that binds a re-ranker booster to the features it was trained on: sha256 (lower-case
 * hex) of the ordered feature names joined by "\n", UTF-8 encoded. The training side computes the same
 * digest into `feature_schema_sha`; a prediction worker applies the booster only when the fingerprint
 * of its active feature flags matches. Empty names and names containing a newline are refused: either
 * would let two different lists share a fingerprint ([] and [""], ["a\nb"] and ["a", "b"]).
 */
export function featureSchemaSha(featureNames: string[]): string {
  for (const name of featureNames) {
    if (name === '' || name.includes('\n')) {
      throw new RangeError(`feature name ${JSON.stringify(name)} is empty or contains a newline`);
    }
  }
  return createHash('sha256').update(featureNames.join('\n'), 'utf8').digest('hex');
}
