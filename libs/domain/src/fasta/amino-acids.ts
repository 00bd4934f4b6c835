/**
 * The 20 standard amino acids plus B (D/N), Z (E/Q), X (any), U (selenocysteine), O (pyrrolysine)
 * and J (I/L): together every letter A-Z, which is why the residue check is a plain letter check.
 */
export const AMINO_ACID_LETTERS = 'ACDEFGHIKLMNPQRSTVWYBZXUOJ';

const LETTERS_ONLY = /^[A-Za-z]*$/;
const LETTER = /^[A-Za-z]$/;

/**
 * The characters of `residues` that are not amino acid letters, each once, in order of appearance.
 * Checked before upper-casing: 'ı'.toUpperCase() is 'I' and 'ſ'.toUpperCase() is 'S', so non-ASCII
 * letters would otherwise slip through as residues.
 */
export function invalidResidueCharacters(residues: string): string {
  if (LETTERS_ONLY.test(residues)) return '';
  const seen = new Set<string>();
  for (const char of residues) {
    if (!LETTER.test(char)) seen.add(char);
  }
  return [...seen].join('');
}
