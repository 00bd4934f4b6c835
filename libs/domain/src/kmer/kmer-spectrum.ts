import { KmerAlphabet, residueCodeTable, UNKNOWN_RESIDUE } from './kmer-alphabet';
import {
  buildKmerOrderTable,
  KmerOrderTable,
  KmerSpectrumSpec,
  kmerSpectrumSpecKey,
  kmerSpectrumSpecProblems,
  termFrequencyValue,
} from './kmer-spectrum-spec';

/**
 * Reads `sequence` into group codes (UNKNOWN_RESIDUE where no k-mer may pass); returns how many
 * positions were written into `into`, which must be at least as long as the sequence.
 */
function encodeInto(sequence: string, table: Uint8Array, into: Uint8Array): number {
  for (let i = 0; i < sequence.length; i++) {
    const char = sequence.charCodeAt(i);
    into[i] = char < 128 ? table[char]! : UNKNOWN_RESIDUE;
  }
  return sequence.length;
}

/**
 * Calls `visit` with the code of every k-mer of `codes[0..length)` that spans no unknown position,
 * in sequence order. The code reads the k-mer as a base-`letters` number, first residue most significant.
 */
function forEachKmer(
  codes: Uint8Array,
  length: number,
  k: number,
  letters: number,
  visit: (code: number) => void,
): void {
  const modulus = letters ** (k - 1);
  let code = 0;
  let run = 0;
  for (let i = 0; i < length; i++) {
    const residue = codes[i]!;
    if (residue === UNKNOWN_RESIDUE) {
      run = 0;
      code = 0;
      continue;
    }
    code = (code % modulus) * letters + residue;
    if (++run >= k) visit(code);
  }
}

/**
 * The k-mers of one order in a sequence and how often each occurs, keyed by the k-mer written in
 * the alphabet's representative letters. Positions outside the alphabet (X, '*', digits, ...) break
 * the sequence: no k-mer spans them.
 */
export function countKmers(input: {
  sequence: string;
  alphabet: KmerAlphabet;
  k: number;
}): Map<string, number> {
  const { sequence, alphabet, k } = input;
  const letters = alphabet.groups.length;
  const codes = new Uint8Array(sequence.length);
  const length = encodeInto(sequence, residueCodeTable(alphabet), codes);
  const counts = new Map<string, number>();
  forEachKmer(codes, length, k, letters, (code) => {
    let word = '';
    for (let rest = code, i = 0; i < k; i++, rest = Math.floor(rest / letters)) {
      word = (alphabet.groups[rest % letters]?.[0] ?? '?') + word;
    }
    counts.set(word, (counts.get(word) ?? 0) + 1);
  });
  return counts;
}

/**
 * Computes spectra for one spec. Holds the lookup tables and scratch buffers, so it is reused for
 * every sequence of a batch; results depend only on (sequence, spec).
 */
class KmerSpectrumEmbedder {
  private readonly letters: number;
  private readonly residueTable: Uint8Array;
  private readonly tables: KmerOrderTable[];
  private readonly counts: Uint32Array[];
  private readonly accumulator: Float64Array;
  private readonly block: Float64Array;
  private readonly blockBuckets: Int32Array;
  private readonly inBlock: Uint8Array;
  private codes = new Uint8Array(4096);
  private touched = new Int32Array(4096);

  constructor(private readonly spec: KmerSpectrumSpec) {
    const problems = kmerSpectrumSpecProblems(spec);
    if (problems.length > 0) throw new RangeError(`invalid k-mer spectrum spec: ${problems.join('; ')}`);
    this.letters = spec.alphabet.groups.length;
    this.residueTable = residueCodeTable(spec.alphabet);
    this.tables = [...spec.orders].sort((a, b) => a - b).map((k) => orderTableFor(spec, k));
    this.counts = this.tables.map((table) => new Uint32Array(table.size));
    this.accumulator = new Float64Array(spec.dimension);
    this.block = new Float64Array(spec.dimension);
    this.blockBuckets = new Int32Array(spec.dimension);
    this.inBlock = new Uint8Array(spec.dimension);
  }

  embed(sequence: string, normalize: boolean): Float32Array {
    if (this.codes.length < sequence.length) {
      this.codes = new Uint8Array(sequence.length);
      this.touched = new Int32Array(sequence.length);
    }
    const length = encodeInto(sequence, this.residueTable, this.codes);
    const acc = this.accumulator;
    acc.fill(0);
    this.tables.forEach((table, index) => this.addOrder(table, this.counts[index]!, length));
    const out = new Float32Array(this.spec.dimension);
    let squares = 0;
    for (let i = 0; i < acc.length; i++) squares += acc[i]! * acc[i]!;
    // A sequence without a single k-mer has no direction: it stays the zero vector.
    if (squares === 0) return out;
    const factor = normalize ? 1 / Math.sqrt(squares) : 1;
    for (let i = 0; i < acc.length; i++) out[i] = acc[i]! * factor;
    return out;
  }

  /** Adds one order's weighted spectrum to the accumulator, scaled to unit length when balancing. */
  private addOrder(table: KmerOrderTable, counts: Uint32Array, length: number): void {
    const { k, bucket, signedWeight } = table;
    const { codes, touched, block, blockBuckets, inBlock } = this;
    const letters = this.letters;
    const modulus = letters ** (k - 1);
    let distinct = 0;
    let total = 0;
    let code = 0;
    let run = 0;
    // Inlined forEachKmer: this loop is the hot path of the whole backend.
    for (let i = 0; i < length; i++) {
      const residue = codes[i]!;
      if (residue === UNKNOWN_RESIDUE) {
        run = 0;
        code = 0;
        continue;
      }
      code = (code % modulus) * letters + residue;
      if (++run >= k) {
        total++;
        if (counts[code]!++ === 0) touched[distinct++] = code;
      }
    }
    if (distinct === 0) return;

    const termFrequency = this.spec.termFrequency;
    let buckets = 0;
    for (let t = 0; t < distinct; t++) {
      const kmer = touched[t]!;
      const value = termFrequencyValue({ termFrequency, count: counts[kmer]! });
      counts[kmer] = 0;
      const b = bucket[kmer]!;
      if (inBlock[b] === 0) {
        inBlock[b] = 1;
        blockBuckets[buckets++] = b;
      }
      block[b] = block[b]! + value * signedWeight[kmer]!;
    }
    if (this.spec.centerOnBackground) {
      // The expectation is dense: every bucket is touched.
      const mean = table.backgroundMean;
      for (let b = 0; b < block.length; b++) {
        if (inBlock[b] === 0) {
          inBlock[b] = 1;
          blockBuckets[buckets++] = b;
        }
        block[b] = block[b]! - total * mean[b]!;
      }
    }
    let squares = 0;
    for (let j = 0; j < buckets; j++) squares += block[blockBuckets[j]!]! ** 2;
    const scale = this.spec.balanceOrders ? (squares > 0 ? 1 / Math.sqrt(squares) : 0) : 1;
    const acc = this.accumulator;
    for (let j = 0; j < buckets; j++) {
      const b = blockBuckets[j]!;
      acc[b] = acc[b]! + block[b]! * scale;
      block[b] = 0;
      inBlock[b] = 0;
    }
  }
}

const CACHE_SIZE = 8;
const embedders = new Map<string, KmerSpectrumEmbedder>();
const orderTables = new Map<string, KmerOrderTable>();

function remember<T>(cache: Map<string, T>, key: string, build: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

/** Order tables depend on fewer fields than the whole spec, so specs that differ elsewhere share them. */
function orderTableFor(spec: KmerSpectrumSpec, k: number): KmerOrderTable {
  const key = JSON.stringify([spec.alphabet.groups, k, spec.dimension, spec.weighting, spec.signedHashing]);
  return remember(orderTables, key, () => buildKmerOrderTable(spec, k));
}

/** The embedder of a spec, built once (tables up to a few MB) and kept for the next calls. */
function embedderFor(spec: KmerSpectrumSpec): KmerSpectrumEmbedder {
  return remember(embedders, kmerSpectrumSpecKey(spec), () => new KmerSpectrumEmbedder(spec));
}

/**
 * Hashed, weighted k-mer spectrum of each sequence, one vector of `spec.dimension` per sequence.
 * For each order k: count the k-mers that span no unknown position, map each count through the
 * term-frequency function, multiply by the k-mer's fixed weight (and hash sign), add it to the
 * k-mer's bucket; with `balanceOrders` the order's vector is scaled to unit length. The orders are
 * summed and, with `normalize` (default), the sum is scaled to unit length. A sequence with no
 * k-mer at all (empty, all unknown, shorter than every k) gives the zero vector.
 * Throws RangeError for an invalid spec.
 */
export function embedKmerBatch(input: {
  sequences: readonly string[];
  spec: KmerSpectrumSpec;
  normalize?: boolean;
}): Float32Array[] {
  const embedder = embedderFor(input.spec);
  const normalize = input.normalize ?? true;
  return input.sequences.map((sequence) => embedder.embed(sequence, normalize));
}

/** embedKmerBatch for one sequence. */
export function embedKmerSpectrum(input: {
  sequence: string;
  spec: KmerSpectrumSpec;
  normalize?: boolean;
}): Float32Array {
  return embedderFor(input.spec).embed(input.sequence, input.normalize ?? true);
}

/** Forgets the cached tables (they are rebuilt on the next call). */
export function clearKmerSpectrumCache(): void {
  embedders.clear();
  orderTables.clear();
}
