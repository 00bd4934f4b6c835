import {
  BLOSUM62,
  BLOSUM62_LETTERS,
  blosum62Score,
  encodeResidues,
  SUBSTITUTION_SCORES,
  SUBSTITUTION_WIDTH,
  UNKNOWN_RESIDUE_CODE,
} from './blosum62';

describe('BLOSUM62', () => {
  it('is a symmetric 24 x 24 table', () => {
    expect(BLOSUM62).toHaveLength(24);
    BLOSUM62.forEach((row, i) => {
      expect(row).toHaveLength(24);
      row.forEach((score, j) => expect(score).toBe(BLOSUM62[j]?.[i]));
    });
  });

  it.each([
    { a: 'W', b: 'W', score: 11 },
    { a: 'C', b: 'C', score: 9 },
    { a: 'A', b: 'A', score: 4 },
    { a: 'E', b: 'K', score: 1 },
    { a: 'I', b: 'V', score: 3 },
    { a: 'W', b: 'F', score: 1 },
    { a: 'P', b: 'W', score: -4 },
    { a: 'B', b: 'D', score: 4 },
    { a: 'B', b: 'N', score: 3 },
    { a: 'Z', b: 'E', score: 4 },
    { a: 'Z', b: 'Q', score: 3 },
    { a: 'X', b: 'X', score: -1 },
    { a: 'X', b: 'S', score: 0 },
    { a: '*', b: '*', score: 1 },
    { a: '*', b: 'A', score: -4 },
    { a: 'w', b: 'W', score: 11 },
    { a: 'U', b: 'U', score: 0 },
    { a: 'J', b: 'L', score: 0 },
    { a: '-', b: 'A', score: 0 },
  ])('$a/$b scores $score', ({ a, b, score }) => {
    expect(blosum62Score(a, b)).toBe(score);
  });

  it('has a positive diagonal except for X', () => {
    const diagonal = [...BLOSUM62_LETTERS].filter((letter) => blosum62Score(letter, letter) <= 0);
    expect(diagonal).toEqual(['X']);
  });

  it('encodes residues to matrix rows, unknown letters (and non-ASCII) to the zero row', () => {
    expect([...encodeResidues('ARv*Ué')]).toEqual([0, 1, 19, 23, UNKNOWN_RESIDUE_CODE, UNKNOWN_RESIDUE_CODE]);
    const unknownRow = SUBSTITUTION_SCORES.slice(
      UNKNOWN_RESIDUE_CODE * SUBSTITUTION_WIDTH,
      (UNKNOWN_RESIDUE_CODE + 1) * SUBSTITUTION_WIDTH,
    );
    expect([...unknownRow].every((score) => score === 0)).toBe(true);
  });
});
