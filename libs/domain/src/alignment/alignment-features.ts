import { alignGlobal } from './global-alignment';
import { alignLocal } from './local-alignment';
import type { AlignmentOptions } from './alignment-types';

/**
 * The alignment columns of a prediction row (DESIGN.md §3, predictions.tsv): identities and
 * similarities as fractions of the alignment length, gaps as a percentage, scores in BLOSUM62 units.
 */
export interface AlignmentFeatures {
  identity_nw: number;
  similarity_nw: number;
  alignment_score_nw: number;
  gaps_pct_nw: number;
  alignment_length_nw: number;
  identity_sw: number;
  similarity_sw: number;
  alignment_score_sw: number;
  gaps_pct_sw: number;
  alignment_length_sw: number;
  length_query: number;
  length_ref: number;
}

/** Global and local alignment of a query protein against a reference (donor) protein. */
export function computeAlignmentFeatures(input: {
  query: string;
  reference: string;
  options?: Omit<AlignmentOptions, 'includeAlignment'>;
}): AlignmentFeatures {
  const options = { ...input.options, includeAlignment: false };
  const global = alignGlobal(input.query, input.reference, options);
  const local = alignLocal(input.query, input.reference, options);
  return {
    identity_nw: global.identity,
    similarity_nw: global.similarity,
    alignment_score_nw: global.score,
    gaps_pct_nw: global.gapsPct,
    alignment_length_nw: global.alignmentLength,
    identity_sw: local.identity,
    similarity_sw: local.similarity,
    alignment_score_sw: local.score,
    gaps_pct_sw: local.gapsPct,
    alignment_length_sw: local.alignmentLength,
    length_query: input.query.length,
    length_ref: input.reference.length,
  };
}
