import { alignLocal } from './local-alignment';
import type { AlignmentOptions } from './alignment-types';

// Scores worked out by hand from BLOSUM62 (gap open 10, extend 1) and confirmed with EMBOSS
// water 6.6.0, whose choice among equal-scoring alignments the rows pin down.
const cases: {
  name: string;
  a: string;
  b: string;
  options?: AlignmentOptions;
  expected: { score: number; alignmentLength: number; identical: number; similar: number; gaps: number };
  rows?: [string, string];
}[] = [
  {
    name: 'the best-scoring segment pair (Durbin et al. example sequences)',
    a: 'HEAGAWGHEE',
    b: 'PAWHEAE',
    expected: { score: 18, alignmentLength: 5, identical: 4, similar: 4, gaps: 1 },
    rows: ['AWGHE', 'AW-HE'],
  },
  {
    name: 'a motif inside unrelated flanks',
    a: 'PPPPWCWPPPP',
    b: 'GGWCWGG',
    expected: { score: 31, alignmentLength: 3, identical: 3, similar: 3, gaps: 0 },
    rows: ['WCW', 'WCW'],
  },
  {
    name: 'no end gaps in a local alignment',
    a: 'MKWVTF',
    b: 'WVT',
    expected: { score: 20, alignmentLength: 3, identical: 3, similar: 3, gaps: 0 },
  },
  {
    name: 'an internal gap that pays for itself stays',
    a: 'MKVLWACDEFGHIK',
    b: 'MKVLWFGHIK',
    expected: { score: 45, alignmentLength: 14, identical: 10, similar: 10, gaps: 4 },
    rows: ['MKVLWACDEFGHIK', 'MKVLW----FGHIK'],
  },
  {
    name: 'with dear gaps (25, 5) only one side is kept',
    a: 'MKVLWACDEFGHIK',
    b: 'MKVLWFGHIK',
    options: { gapOpen: 25, gapExtend: 5 },
    expected: { score: 29, alignmentLength: 5, identical: 5, similar: 5, gaps: 0 },
    rows: ['MKVLW', 'MKVLW'],
  },
  {
    name: 'ties in a homopolymer: the first best cell wins',
    a: 'AAAAAAAAAAAA',
    b: 'AAAAA',
    expected: { score: 20, alignmentLength: 5, identical: 5, similar: 5, gaps: 0 },
    rows: ['AAAAA', 'AAAAA'],
  },
  {
    name: 'ties in a repeat',
    a: 'GSGSGSGSGSGSGSGS',
    b: 'GSGSGGSGS',
    expected: { score: 36, alignmentLength: 10, identical: 9, similar: 9, gaps: 1 },
    rows: ['GSGSGSGSGS', 'GSGSG-GSGS'],
  },
  {
    // In column 0 the cell above a[2]/b[0] came down a gap, so water starts row 2's gap from
    // H - 1 instead of H - 10: the gap after W/W costs 2, and the reported 54 is 8 more than the
    // columns add up to (46).
    name: "water's column-0 quirk charges a gap only an extension",
    a: 'WAWWWWAAA',
    b: 'WAWWWAAA',
    expected: { score: 54, alignmentLength: 8, identical: 7, similar: 7, gaps: 1 },
    rows: ['W-WWWAAA', 'WAWWWAAA'],
  },
  {
    name: 'no positive pair: water reports the best (negative) cell and one column',
    a: 'PP',
    b: 'WW',
    expected: { score: -4, alignmentLength: 1, identical: 0, similar: 0, gaps: 0 },
  },
  {
    name: 'a one-residue sequence reports its column score (water prints -FLT_MAX)',
    a: 'W',
    b: 'AWK',
    expected: { score: 11, alignmentLength: 1, identical: 1, similar: 1, gaps: 0 },
  },
  {
    name: 'an empty sequence',
    a: '',
    b: 'ACD',
    expected: { score: 0, alignmentLength: 0, identical: 0, similar: 0, gaps: 0 },
  },
];

describe('alignLocal', () => {
  it.each(cases)('$name', ({ a, b, options, expected, rows }) => {
    const result = alignLocal(a, b, { ...options, includeAlignment: true });
    expect(result).toMatchObject(expected);
    if (rows) expect(result.aligned).toEqual({ a: rows[0], b: rows[1] });
  });

  it('derives the ratios from the counts', () => {
    expect(alignLocal('HEAGAWGHEE', 'PAWHEAE')).toEqual({
      score: 18,
      identity: 0.8,
      similarity: 0.8,
      gapsPct: 20,
      alignmentLength: 5,
      identical: 4,
      similar: 4,
      gaps: 1,
    });
  });

  it('rejects gap penalties that cannot be held exactly', () => {
    expect(() => alignLocal('ACD', 'ACD', { gapOpen: 10.5 })).toThrow(RangeError);
  });
});
