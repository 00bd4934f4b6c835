/** Affine gap penalties, positive numbers subtracted from the score (EMBOSS -gapopen/-gapextend). */
export interface AlignmentOptions {
  /** Cost of the first position of a gap; default 10. */
  gapOpen?: number;
  /** Cost of every further position of the same gap; default 1. */
  gapExtend?: number;
  /** Also return the two aligned rows ('-' for gaps); off by default to spare the strings. */
  includeAlignment?: boolean;
}

/**
 * One pairwise alignment, counted the way EMBOSS's srspair report counts it: `alignmentLength`
 * is the number of columns (for a global alignment including the end gaps, which are free in the
 * score but still columns); `identical` columns pair the same matrix letter; `similar` columns
 * score > 0 in BLOSUM62 (identical ones included, except X against X, which scores -1); `gaps`
 * columns have a gap in either row.
 */
export interface AlignmentResult {
  score: number;
  /** identical / alignmentLength, a fraction in [0, 1]; 0 for an empty alignment. */
  identity: number;
  /** similar / alignmentLength, a fraction in [0, 1]; 0 for an empty alignment. */
  similarity: number;
  /** 100 * gaps / alignmentLength, a percentage; 0 for an empty alignment. */
  gapsPct: number;
  alignmentLength: number;
  identical: number;
  similar: number;
  gaps: number;
  /** The aligned rows, only with `includeAlignment`. */
  aligned?: { a: string; b: string };
}

export const DEFAULT_GAP_OPEN = 10;
export const DEFAULT_GAP_EXTEND = 1;

/** Scores stay exact in Int32Array cells only with integer penalties; EMBOSS's defaults are. */
export function resolveGapPenalties(options: AlignmentOptions): { gapOpen: number; gapExtend: number } {
  const gapOpen = options.gapOpen ?? DEFAULT_GAP_OPEN;
  const gapExtend = options.gapExtend ?? DEFAULT_GAP_EXTEND;
  if (!Number.isInteger(gapOpen) || gapOpen < 0 || gapOpen > 1000)
    throw new RangeError(`gapOpen must be an integer from 0 to 1000, got ${gapOpen}`);
  if (!Number.isInteger(gapExtend) || gapExtend < 0 || gapExtend > gapOpen)
    throw new RangeError(`gapExtend must be an integer from 0 to gapOpen (${gapOpen}), got ${gapExtend}`);
  return { gapOpen, gapExtend };
}
