import { groupBackgroundProbabilities } from './background-frequencies';
import { KmerAlphabet, kmerAlphabetProblems } from './kmer-alphabet';

/** How a k-mer's count in the sequence enters its feature value. */
export type KmerTermFrequency = 'raw' | 'sublinear' | 'binary';

/**
 * The fixed inverse-document-frequency stand-in, a function of the k-mer alone (see kmerWeight).
 * Never learned from the reference set: a sequence gets the same vector whatever the database holds.
 */
export type KmerWeighting = 'none' | 'surprisal' | 'expected_idf' | 'inverse_sqrt';

/** Everything that determines a k-mer spectrum vector. Two equal specs give bit-identical vectors. */
export interface KmerSpectrumSpec {
  alphabet: KmerAlphabet;
  /** The k values whose spectra are combined, e.g. [1, 2, 3]. */
  orders: readonly number[];
  /** Vector length, a power of two from 64 to 65536 (k-mers are hashed into it). */
  dimension: number;
  termFrequency: KmerTermFrequency;
  weighting: KmerWeighting;
  /** Feature hashing with a ±1 sign per k-mer (Weinberger et al. 2009), so collisions cancel on average. */
  signedHashing: boolean;
  /**
   * Scale each order's spectrum to unit length before summing, so every k contributes equally.
   * With one order it only makes the vector unit length whatever `normalize` says.
   */
  balanceOrders: boolean;
  /**
   * Subtract from each count what a random sequence with the same number of k-mers would have
   * (n p, Robinson background). With `inverse_sqrt` weights this is the D2* statistic of Reinert
   * et al. (2009): shared k-mers expected by chance add nothing, so long sequences no longer look
   * similar to everything. Only with raw term frequency (the expectation of a count is linear).
   */
  centerOnBackground: boolean;
}

/** Largest number of distinct k-mers of one order (alphabet size ^ k): its lookup tables stay below ~50 MB. */
export const MAX_KMER_TABLE_SIZE = 1 << 22;

/**
 * Sequence length at which `expected_idf` calls a k-mer "present in about every protein":
 * close to the median length of reviewed human proteins (~415 residues).
 */
export const EXPECTED_IDF_REFERENCE_LENGTH = 400;

/** Problems with a spec, all of them; empty when it can be used. */
export function kmerSpectrumSpecProblems(spec: KmerSpectrumSpec): string[] {
  const problems = kmerAlphabetProblems(spec.alphabet);
  const { dimension, orders } = spec;
  if (
    !Number.isInteger(dimension) ||
    dimension < 64 ||
    dimension > 65536 ||
    (dimension & (dimension - 1)) !== 0
  ) {
    problems.push(`dimension must be a power of two from 64 to 65536, got ${dimension}`);
  }
  if (orders.length === 0) problems.push('orders must list at least one k');
  if (spec.centerOnBackground && spec.termFrequency !== 'raw')
    problems.push('centerOnBackground needs raw term frequency');
  if (new Set(orders).size !== orders.length) problems.push('orders must be distinct');
  const size = spec.alphabet.groups.length;
  for (const k of orders) {
    if (!Number.isInteger(k) || k < 1 || k > 12) problems.push(`k must be an integer from 1 to 12, got ${k}`);
    else if (size >= 2 && size ** k > MAX_KMER_TABLE_SIZE) {
      problems.push(`k=${k} over ${size} letters has ${size ** k} k-mers, more than ${MAX_KMER_TABLE_SIZE}`);
    }
  }
  return problems;
}

/**
 * Position of a k-mer in the vector and the sign of its contribution: murmur3's 32-bit finaliser
 * over (code << 5 | k), where `code` is the k-mer read as a base-(alphabet size) number, first
 * residue most significant. The low bits pick the bucket, the top bit the sign. Changing this
 * function changes every stored vector: a new hash needs a new recipe name.
 */
export function kmerFeature(input: { code: number; k: number; dimension: number }): {
  bucket: number;
  sign: 1 | -1;
} {
  let h = ((input.code << 5) | input.k) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return { bucket: h & (input.dimension - 1), sign: h >>> 31 === 1 ? -1 : 1 };
}

/**
 * Weight of a k-mer from its background probability p = product of its residues' group
 * probabilities (Robinson & Robinson background):
 * - `surprisal`: -ln p, the k-mer's self-information;
 * - `expected_idf`: ln(1 + 1/(L p)) with L = EXPECTED_IDF_REFERENCE_LENGTH. L p approximates the
 *   fraction of proteins containing the k-mer, so this is IDF under a random-sequence model:
 *   about -ln(L p) for rare k-mers, about 1/(L p), i.e. close to 0, for k-mers found in every protein;
 * - `inverse_sqrt`: 1/sqrt(p), which divides a count by its standard deviation under the background
 *   (Poisson: sqrt(n p)) up to a per-sequence factor that the cosine removes.
 */
export function kmerWeight(input: { weighting: KmerWeighting; probability: number }): number {
  switch (input.weighting) {
    case 'none':
      return 1;
    case 'surprisal':
      return -Math.log(input.probability);
    case 'expected_idf':
      return Math.log1p(1 / (EXPECTED_IDF_REFERENCE_LENGTH * input.probability));
    case 'inverse_sqrt':
      return 1 / Math.sqrt(input.probability);
  }
}

/** Value of a k-mer seen `count` (≥ 1) times, before its weight. */
export function termFrequencyValue(input: { termFrequency: KmerTermFrequency; count: number }): number {
  switch (input.termFrequency) {
    case 'raw':
      return input.count;
    case 'sublinear':
      return 1 + Math.log(input.count);
    case 'binary':
      return 1;
  }
}

/** Bucket and signed weight of every k-mer of one order, indexed by k-mer code. */
export interface KmerOrderTable {
  k: number;
  /** alphabet size ^ k */
  size: number;
  bucket: Int32Array;
  signedWeight: Float64Array;
  /** The feature vector of one random k-mer: sum over k-mers of p * signed weight in their bucket. */
  backgroundMean: Float64Array;
}

export function buildKmerOrderTable(spec: KmerSpectrumSpec, k: number): KmerOrderTable {
  const letters = spec.alphabet.groups.length;
  const size = letters ** k;
  const background = groupBackgroundProbabilities(spec.alphabet);
  const bucket = new Int32Array(size);
  const signedWeight = new Float64Array(size);
  const backgroundMean = new Float64Array(spec.dimension);
  for (let code = 0; code < size; code++) {
    let probability = 1;
    for (let rest = code, i = 0; i < k; i++, rest = Math.floor(rest / letters)) {
      probability *= background[rest % letters] ?? 0;
    }
    const feature = kmerFeature({ code, k, dimension: spec.dimension });
    bucket[code] = feature.bucket;
    const weight = kmerWeight({ weighting: spec.weighting, probability });
    signedWeight[code] = spec.signedHashing ? feature.sign * weight : weight;
    backgroundMean[feature.bucket] = backgroundMean[feature.bucket]! + probability * signedWeight[code]!;
  }
  return { k, size, bucket, signedWeight, backgroundMean };
}

/** A key that is equal for specs that produce the same vectors. */
export function kmerSpectrumSpecKey(spec: KmerSpectrumSpec): string {
  return JSON.stringify([
    spec.alphabet.groups,
    spec.orders,
    spec.dimension,
    spec.termFrequency,
    spec.weighting,
    spec.signedHashing,
    spec.balanceOrders,
    spec.centerOnBackground,
  ]);
}
