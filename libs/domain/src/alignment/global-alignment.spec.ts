import { alignGlobal } from './global-alignment';
import type { AlignmentOptions } from './alignment-types';

// Scores worked out by hand from BLOSUM62 (gap open 10, extend 1, end gaps free) and confirmed
// with EMBOSS needle 6.6.0, whose choice among equal-scoring alignments the rows pin down.
const cases: {
  name: string;
  a: string;
  b: string;
  options?: AlignmentOptions;
  expected: { score: number; alignmentLength: number; identical: number; similar: number; gaps: number };
  rows?: [string, string];
}[] = [
  {
    name: 'identical sequences score their diagonal',
    a: 'HEAGAWGHEE',
    b: 'HEAGAWGHEE',
    expected: { score: 62, alignmentLength: 10, identical: 10, similar: 10, gaps: 0 },
  },
  {
    name: 'a conservative substitution is similar, not identical',
    a: 'ACDEF',
    b: 'ACDKF',
    expected: { score: 26, alignmentLength: 5, identical: 4, similar: 5, gaps: 0 },
  },
  {
    name: 'end gaps are free but count in the length',
    a: 'MKWVTF',
    b: 'WVT',
    expected: { score: 20, alignmentLength: 6, identical: 3, similar: 3, gaps: 3 },
    rows: ['MKWVTF', '--WVT-'],
  },
  {
    name: 'a trailing end gap',
    a: 'MKTAYIAKQRQISFVKSHFSRQ',
    b: 'MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ',
    expected: { score: 109, alignmentLength: 33, identical: 22, similar: 22, gaps: 11 },
    rows: ['MKTAYIAKQRQISFVKSHFSRQ-----------', 'MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ'],
  },
  {
    name: 'an internal gap of 4 costs 10 + 3 * 1',
    a: 'MKVLWACDEFGHIK',
    b: 'MKVLWFGHIK',
    expected: { score: 29 - 13 + 29, alignmentLength: 14, identical: 10, similar: 10, gaps: 4 },
    rows: ['MKVLWACDEFGHIK', 'MKVLW----FGHIK'],
  },
  {
    name: 'cheaper gaps (5, 2) keep the gap',
    a: 'MKVLWACDEFGHIK',
    b: 'MKVLWFGHIK',
    options: { gapOpen: 5, gapExtend: 2 },
    expected: { score: 29 - 11 + 29, alignmentLength: 14, identical: 10, similar: 10, gaps: 4 },
  },
  {
    name: 'dear gaps (25, 5) shift into a free end gap instead',
    a: 'MKVLWACDEFGHIK',
    b: 'MKVLWFGHIK',
    options: { gapOpen: 25, gapExtend: 5 },
    expected: { score: 19, alignmentLength: 14, identical: 5, similar: 5, gaps: 4 },
    rows: ['MKVLWACDEFGHIK', '----MKVLWFGHIK'],
  },
  {
    name: 'ties in a homopolymer: needle keeps the match state to the end',
    a: 'AAAAAAAAAAAA',
    b: 'AAAAA',
    expected: { score: 20, alignmentLength: 12, identical: 5, similar: 5, gaps: 7 },
    rows: ['AAAAAAAAAAAA', '-------AAAAA'],
  },
  {
    name: 'ties in a repeat',
    a: 'GSGSGSGSGSGSGSGS',
    b: 'GSGSGGSGS',
    expected: { score: 36, alignmentLength: 16, identical: 9, similar: 9, gaps: 7 },
    rows: ['GSGSGSGSGSGSGSGS', '------GSGSG-GSGS'],
  },
  {
    name: 'lower case reads as upper case',
    a: 'wcw',
    b: 'WCW',
    expected: { score: 31, alignmentLength: 3, identical: 3, similar: 3, gaps: 0 },
  },
  {
    name: 'X against X is identical but scores -1, so not similar',
    a: 'WXXW',
    b: 'WXXW',
    expected: { score: 20, alignmentLength: 4, identical: 4, similar: 2, gaps: 0 },
  },
  {
    name: 'letters outside the matrix (U) score 0 and are never identical',
    a: 'WUUW',
    b: 'WUUW',
    expected: { score: 22, alignmentLength: 4, identical: 2, similar: 2, gaps: 0 },
  },
  {
    name: 'B and Z score as in BLOSUM62',
    a: 'WBZW',
    b: 'WDEW',
    expected: { score: 11 + 4 + 4 + 11, alignmentLength: 4, identical: 2, similar: 4, gaps: 0 },
  },
  {
    name: 'a one-residue sequence: needle charges the gap before W (its quirk), score 1',
    a: 'W',
    b: 'AWK',
    expected: { score: 1, alignmentLength: 3, identical: 1, similar: 1, gaps: 2 },
    rows: ['-W-', 'AWK'],
  },
  {
    name: 'an empty sequence aligns to end gaps',
    a: '',
    b: 'ACD',
    expected: { score: 0, alignmentLength: 3, identical: 0, similar: 0, gaps: 3 },
    rows: ['---', 'ACD'],
  },
  {
    name: 'two empty sequences',
    a: '',
    b: '',
    expected: { score: 0, alignmentLength: 0, identical: 0, similar: 0, gaps: 0 },
  },
];

describe('alignGlobal', () => {
  it.each(cases)('$name', ({ a, b, options, expected, rows }) => {
    const result = alignGlobal(a, b, { ...options, includeAlignment: true });
    expect(result).toMatchObject(expected);
    if (rows) expect(result.aligned).toEqual({ a: rows[0], b: rows[1] });
  });

  it('derives the ratios from the counts', () => {
    expect(alignGlobal('MKWVTF', 'WVT')).toEqual({
      score: 20,
      identity: 0.5,
      similarity: 0.5,
      gapsPct: 50,
      alignmentLength: 6,
      identical: 3,
      similar: 3,
      gaps: 3,
    });
  });

  it('gives 0 ratios, not NaN, for an empty alignment', () => {
    expect(alignGlobal('', '')).toMatchObject({ identity: 0, similarity: 0, gapsPct: 0 });
  });

  it('is symmetric in its counts when the sequences swap', () => {
    const forward = alignGlobal('MKVLWACDEFGHIK', 'MKVLWFGHIK');
    const backward = alignGlobal('MKVLWFGHIK', 'MKVLWACDEFGHIK');
    expect(backward).toEqual(forward);
  });

  it.each([
    { options: { gapOpen: 1.5 }, message: /gapOpen must be an integer/ },
    { options: { gapOpen: -1 }, message: /gapOpen must be an integer/ },
    { options: { gapExtend: 11 }, message: /gapExtend must be an integer from 0 to gapOpen/ },
    { options: { gapExtend: 0.5 }, message: /gapExtend must be an integer/ },
  ])('rejects gap penalties $options', ({ options, message }) => {
    expect(() => alignGlobal('ACD', 'ACD', options)).toThrow(message);
  });
});
