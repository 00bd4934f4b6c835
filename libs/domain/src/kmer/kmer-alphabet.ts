/**
 * Residue alphabets for k-mer spectra. An alphabet is a list of groups of the 20 standard amino
 * acids; every residue of a group is written as the group's index (its "letter"), so a reduced
 * alphabet makes conservative substitutions (I/L/V/M, D/E/N/Q, ...) produce the same k-mer.
 */
export interface KmerAlphabet {
  /** Stable name, part of the recipe that produced a vector. */
  name: string;
  /** Disjoint groups of standard amino acids covering all 20; the first letter represents the group. */
  groups: readonly string[];
}

export const STANDARD_AMINO_ACIDS = 'ACDEFGHIKLMNPQRSTVWY';

/** No reduction: the 20 standard amino acids. */
export const FULL20_ALPHABET: KmerAlphabet = {
  name: 'full20',
  groups: STANDARD_AMINO_ACIDS.split(''),
};

/*
 * Murphy, Wallqvist & Levy (2000), "Simplified amino acid alphabets for protein fold recognition
 * and implications for folding", Protein Engineering 13(3):149-152: groups found by clustering
 * BLOSUM50, published for several alphabet sizes.
 */

/** Murphy et al. 2000, 15 letters. */
export const MURPHY15_ALPHABET: KmerAlphabet = {
  name: 'murphy15',
  groups: ['LVIM', 'C', 'A', 'G', 'S', 'T', 'P', 'FY', 'W', 'E', 'D', 'N', 'Q', 'KR', 'H'],
};

/** Murphy et al. 2000, 10 letters. */
export const MURPHY10_ALPHABET: KmerAlphabet = {
  name: 'murphy10',
  groups: ['LVIM', 'C', 'A', 'G', 'ST', 'P', 'FYW', 'EDNQ', 'KR', 'H'],
};

/** Murphy et al. 2000, 8 letters. */
export const MURPHY8_ALPHABET: KmerAlphabet = {
  name: 'murphy8',
  groups: ['LVIMC', 'AG', 'ST', 'P', 'FYW', 'EDNQ', 'KR', 'H'],
};

export const KMER_ALPHABETS: readonly KmerAlphabet[] = [
  FULL20_ALPHABET,
  MURPHY15_ALPHABET,
  MURPHY10_ALPHABET,
  MURPHY8_ALPHABET,
];

/**
 * Non-standard letters and the standard residues they may stand for. U (selenocysteine) and
 * O (pyrrolysine) are read as the residue they are built from; an ambiguity code counts as a letter
 * only when all its candidates fall in the same group of the alphabet (B is one letter in murphy10,
 * but unknown in full20). X and every other character are unknown.
 */
const NON_STANDARD: Readonly<Record<string, string>> = { B: 'DN', Z: 'EQ', J: 'IL', U: 'C', O: 'K' };

/** Marks a position that no k-mer may span. */
export const UNKNOWN_RESIDUE = 255;

/** Problems with an alphabet definition; empty when it is usable. */
export function kmerAlphabetProblems(alphabet: KmerAlphabet): string[] {
  const problems: string[] = [];
  if (alphabet.groups.length < 2 || alphabet.groups.length > 20) {
    problems.push(`alphabet ${alphabet.name} must have 2 to 20 groups, has ${alphabet.groups.length}`);
  }
  const seen = new Set<string>();
  for (const group of alphabet.groups) {
    if (group.length === 0) problems.push(`alphabet ${alphabet.name} has an empty group`);
    for (const letter of group) {
      if (!STANDARD_AMINO_ACIDS.includes(letter))
        problems.push(`alphabet ${alphabet.name}: '${letter}' is not a standard amino acid`);
      else if (seen.has(letter)) problems.push(`alphabet ${alphabet.name}: '${letter}' is in two groups`);
      seen.add(letter);
    }
  }
  const missing = [...STANDARD_AMINO_ACIDS].filter((letter) => !seen.has(letter));
  if (missing.length > 0) problems.push(`alphabet ${alphabet.name} does not cover ${missing.join('')}`);
  return problems;
}

/**
 * A 128-entry table from character code to group index, UNKNOWN_RESIDUE for everything else.
 * Lower-case letters read as upper-case ones; characters past ASCII are looked up as unknown.
 */
export function residueCodeTable(alphabet: KmerAlphabet): Uint8Array {
  const table = new Uint8Array(128).fill(UNKNOWN_RESIDUE);
  const groupOf = new Map<string, number>();
  alphabet.groups.forEach((group, index) => {
    for (const letter of group) groupOf.set(letter, index);
  });
  const set = (letter: string, index: number): void => {
    table[letter.charCodeAt(0)] = index;
    table[letter.toLowerCase().charCodeAt(0)] = index;
  };
  for (const [letter, index] of groupOf) set(letter, index);
  for (const [letter, candidates] of Object.entries(NON_STANDARD)) {
    const indices = new Set([...candidates].map((candidate) => groupOf.get(candidate)));
    const [only] = indices;
    if (indices.size === 1 && only !== undefined) set(letter, only);
  }
  return table;
}

/**
 * The sequence in the alphabet's representative letters, '-' for an unknown position: what the
 * k-mer counter sees. Meant for tests and diagnostics; the embedding itself never builds strings.
 */
export function reduceSequence(input: { sequence: string; alphabet: KmerAlphabet }): string {
  const table = residueCodeTable(input.alphabet);
  let out = '';
  for (let i = 0; i < input.sequence.length; i++) {
    const char = input.sequence.charCodeAt(i);
    const code = char < 128 ? (table[char] ?? UNKNOWN_RESIDUE) : UNKNOWN_RESIDUE;
    out += code === UNKNOWN_RESIDUE ? '-' : (input.alphabet.groups[code]?.[0] ?? '-');
  }
  return out;
}
