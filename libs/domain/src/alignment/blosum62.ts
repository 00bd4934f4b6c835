/**
 * BLOSUM62 (Henikoff & Henikoff 1992, PNAS 89:10915), in half-bit units, with the ambiguity codes
 * B (D/N), Z (E/Q), X (any) and the stop '*', in the row order NCBI and EMBOSS (EBLOSUM62) use.
 */
export const BLOSUM62_LETTERS = 'ARNDCQEGHILKMFPSTWYVBZX*';

// prettier-ignore
export const BLOSUM62: readonly (readonly number[])[] = [
  //A   R   N   D   C   Q   E   G   H   I   L   K   M   F   P   S   T   W   Y   V   B   Z   X   *
  [ 4, -1, -2, -2,  0, -1, -1,  0, -2, -1, -1, -1, -1, -2, -1,  1,  0, -3, -2,  0, -2, -1,  0, -4], // A
  [-1,  5,  0, -2, -3,  1,  0, -2,  0, -3, -2,  2, -1, -3, -2, -1, -1, -3, -2, -3, -1,  0, -1, -4], // R
  [-2,  0,  6,  1, -3,  0,  0,  0,  1, -3, -3,  0, -2, -3, -2,  1,  0, -4, -2, -3,  3,  0, -1, -4], // N
  [-2, -2,  1,  6, -3,  0,  2, -1, -1, -3, -4, -1, -3, -3, -1,  0, -1, -4, -3, -3,  4,  1, -1, -4], // D
  [ 0, -3, -3, -3,  9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4], // C
  [-1,  1,  0,  0, -3,  5,  2, -2,  0, -3, -2,  1,  0, -3, -1,  0, -1, -2, -1, -2,  0,  3, -1, -4], // Q
  [-1,  0,  0,  2, -4,  2,  5, -2,  0, -3, -3,  1, -2, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4], // E
  [ 0, -2,  0, -1, -3, -2, -2,  6, -2, -4, -4, -2, -3, -3, -2,  0, -2, -2, -3, -3, -1, -2, -1, -4], // G
  [-2,  0,  1, -1, -3,  0,  0, -2,  8, -3, -3, -1, -2, -1, -2, -1, -2, -2,  2, -3,  0,  0, -1, -4], // H
  [-1, -3, -3, -3, -1, -3, -3, -4, -3,  4,  2, -3,  1,  0, -3, -2, -1, -3, -1,  3, -3, -3, -1, -4], // I
  [-1, -2, -3, -4, -1, -2, -3, -4, -3,  2,  4, -2,  2,  0, -3, -2, -1, -2, -1,  1, -4, -3, -1, -4], // L
  [-1,  2,  0, -1, -3,  1,  1, -2, -1, -3, -2,  5, -1, -3, -1,  0, -1, -3, -2, -2,  0,  1, -1, -4], // K
  [-1, -1, -2, -3, -1,  0, -2, -3, -2,  1,  2, -1,  5,  0, -2, -1, -1, -1, -1,  1, -3, -1, -1, -4], // M
  [-2, -3, -3, -3, -2, -3, -3, -3, -1,  0,  0, -3,  0,  6, -4, -2, -2,  1,  3, -1, -3, -3, -1, -4], // F
  [-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4,  7, -1, -1, -4, -3, -2, -2, -1, -2, -4], // P
  [ 1, -1,  1,  0, -1,  0,  0,  0, -1, -2, -2,  0, -1, -2, -1,  4,  1, -3, -2, -2,  0,  0,  0, -4], // S
  [ 0, -1,  0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1,  1,  5, -2, -2,  0, -1, -1,  0, -4], // T
  [-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1,  1, -4, -3, -2, 11,  2, -3, -4, -3, -2, -4], // W
  [-2, -2, -2, -3, -2, -1, -2, -3,  2, -1, -1, -2, -1,  3, -3, -2, -2,  2,  7, -1, -3, -2, -1, -4], // Y
  [ 0, -3, -3, -3, -1, -2, -2, -3, -3,  3,  1, -2,  1, -1, -2, -2,  0, -3, -1,  4, -3, -2, -1, -4], // V
  [-2, -1,  3,  4, -3,  0,  1, -1,  0, -3, -4,  0, -3, -3, -2,  0, -1, -4, -3, -3,  4,  1, -1, -4], // B
  [-1,  0,  0,  1, -3,  3,  4, -2,  0, -3, -3,  1, -1, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4], // Z
  [ 0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2,  0,  0, -2, -1, -1, -1, -1, -1, -4], // X
  [-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4,  1], // *
];

/**
 * Code of every character outside the matrix (U, O, J, digits, ...). EMBOSS scores such a
 * residue 0 against anything, itself included, and never counts it as identical or similar
 * (checked with needle 6.6.0: WUUW against WUUW scores 22 with 2/4 identical).
 */
export const UNKNOWN_RESIDUE_CODE = BLOSUM62_LETTERS.length;

/** Row width of SUBSTITUTION_SCORES: the matrix letters plus the unknown code. */
export const SUBSTITUTION_WIDTH = BLOSUM62_LETTERS.length + 1;

/** ASCII code -> matrix index; lower case reads as upper case, as in EMBOSS. */
const RESIDUE_CODES: Uint8Array = (() => {
  const codes = new Uint8Array(128).fill(UNKNOWN_RESIDUE_CODE);
  for (let i = 0; i < BLOSUM62_LETTERS.length; i += 1) {
    const letter = BLOSUM62_LETTERS.charAt(i);
    codes[letter.charCodeAt(0)] = i;
    codes[letter.toLowerCase().charCodeAt(0)] = i;
  }
  return codes;
})();

/** BLOSUM62 flattened to SUBSTITUTION_WIDTH x SUBSTITUTION_WIDTH, the unknown row and column 0. */
export const SUBSTITUTION_SCORES: Int32Array = (() => {
  const scores = new Int32Array(SUBSTITUTION_WIDTH * SUBSTITUTION_WIDTH);
  BLOSUM62.forEach((row, i) => row.forEach((score, j) => (scores[i * SUBSTITUTION_WIDTH + j] = score)));
  return scores;
})();

/** Matrix indices of a sequence's residues, for the alignment inner loops. */
export function encodeResidues(sequence: string): Uint8Array {
  const codes = new Uint8Array(sequence.length);
  for (let i = 0; i < sequence.length; i += 1) {
    const char = sequence.charCodeAt(i);
    codes[i] = char < 128 ? (RESIDUE_CODES[char] ?? UNKNOWN_RESIDUE_CODE) : UNKNOWN_RESIDUE_CODE;
  }
  return codes;
}

/** BLOSUM62 score of two residue letters (case-insensitive); 0 when either is outside the matrix. */
export function blosum62Score(a: string, b: string): number {
  const [codeA = UNKNOWN_RESIDUE_CODE] = encodeResidues(a.charAt(0));
  const [codeB = UNKNOWN_RESIDUE_CODE] = encodeResidues(b.charAt(0));
  return SUBSTITUTION_SCORES[codeA * SUBSTITUTION_WIDTH + codeB] ?? 0;
}
