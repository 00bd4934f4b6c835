import { KmerAlphabet } from './kmer-alphabet';

/**
 * Background amino-acid frequencies of Robinson & Robinson (1991), "Distribution of glutamine and
 * asparagine residues and their near neighbors in peptides and proteins", PNAS 88:8880-8884, per
 * thousand residues: the standard background of NCBI BLAST (`Robinson_prob` in blast_stat.c).
 * They are a published constant on purpose: a k-mer weight must not depend on what else is in the
 * reference database, or the same sequence would get a different vector after a data load.
 */
export const ROBINSON_BACKGROUND_PER_MILLE: Readonly<Record<string, number>> = {
  A: 78.05,
  C: 19.25,
  D: 53.64,
  E: 62.95,
  F: 38.56,
  G: 73.77,
  H: 21.99,
  I: 51.42,
  K: 57.44,
  L: 90.19,
  M: 22.43,
  N: 44.87,
  P: 52.03,
  Q: 42.64,
  R: 51.29,
  S: 71.2,
  T: 58.41,
  V: 64.41,
  W: 13.3,
  Y: 32.16,
};

/** Background probability of each group of the alphabet (sum of its members), summing to 1. */
export function groupBackgroundProbabilities(alphabet: KmerAlphabet): Float64Array {
  const perGroup = new Float64Array(alphabet.groups.length);
  let total = 0;
  alphabet.groups.forEach((group, index) => {
    for (const letter of group) {
      const value = ROBINSON_BACKGROUND_PER_MILLE[letter] ?? 0;
      perGroup[index] = (perGroup[index] ?? 0) + value;
      total += value;
    }
  });
  for (let i = 0; i < perGroup.length; i++) perGroup[i] = (perGroup[i] ?? 0) / total;
  return perGroup;
}
