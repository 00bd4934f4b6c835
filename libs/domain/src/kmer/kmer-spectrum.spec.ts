import { l2Norm } from '../embedding/vector-math';
import { FULL20_ALPHABET, KmerAlphabet, MURPHY10_ALPHABET } from './kmer-alphabet';
import { clearKmerSpectrumCache, countKmers, embedKmerBatch, embedKmerSpectrum } from './kmer-spectrum';
import { kmerFeature, KmerSpectrumSpec } from './kmer-spectrum-spec';
import { seededRandom } from '../random/seeded-random';

/** Two letters: 'A' alone and 'C' for the other 19, so vectors can be worked out by hand. */
const TWO: KmerAlphabet = { name: 'two', groups: ['A', 'CDEFGHIKLMNPQRSTVWY'] };
const P_A = 78.05 / 1000;
const P_C = 1 - P_A;

// With dimension 128, A, C, AA and AC have buckets 55, 18, 6 and 14 (kmerFeature tests pin them).
const HAND: KmerSpectrumSpec = {
  alphabet: TWO,
  orders: [1],
  dimension: 128,
  termFrequency: 'raw',
  weighting: 'none',
  signedHashing: false,
  balanceOrders: false,
  centerOnBackground: false,
};

const V1_LIKE: KmerSpectrumSpec = {
  alphabet: FULL20_ALPHABET,
  orders: [3],
  dimension: 2048,
  termFrequency: 'raw',
  weighting: 'inverse_sqrt',
  signedHashing: true,
  balanceOrders: false,
  centerOnBackground: true,
};

/** Vector of `dimension` zeros with the given entries. */
function sparse(dimension: number, entries: Record<number, number>): number[] {
  const out = new Array<number>(dimension).fill(0);
  for (const [index, value] of Object.entries(entries)) out[Number(index)] = value;
  return out;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (l2Norm(a) * l2Norm(b));
}

/** Deterministic pseudo-random protein (mulberry32). */
function randomProtein(length: number, seed: number): string {
  const next = seededRandom(seed);
  const letters = 'ACDEFGHIKLMNPQRSTVWY';
  let out = '';
  for (let i = 0; i < length; i++) out += letters[Math.floor(next() * 20)];
  return out;
}

describe('countKmers', () => {
  const cases: {
    name: string;
    sequence: string;
    alphabet: KmerAlphabet;
    k: number;
    expected: Record<string, number>;
  }[] = [
    { name: 'k=1 counts residues', sequence: 'AACA', alphabet: TWO, k: 1, expected: { A: 3, C: 1 } },
    {
      name: 'k=2 overlapping words',
      sequence: 'AACA',
      alphabet: TWO,
      k: 2,
      expected: { AA: 1, AC: 1, CA: 1 },
    },
    {
      name: 'the group letter stands for its members',
      sequence: 'AWKA',
      alphabet: TWO,
      k: 2,
      expected: { AC: 1, CC: 1, CA: 1 },
    },
    { name: 'X breaks the sequence', sequence: 'AAXAA', alphabet: TWO, k: 2, expected: { AA: 2 } },
    { name: 'lower case', sequence: 'aacA', alphabet: TWO, k: 2, expected: { AA: 1, AC: 1, CA: 1 } },
    { name: 'shorter than k', sequence: 'AC', alphabet: TWO, k: 3, expected: {} },
    { name: 'empty', sequence: '', alphabet: TWO, k: 1, expected: {} },
    { name: 'nothing left after cleaning', sequence: 'XX*-', alphabet: TWO, k: 1, expected: {} },
    { name: 'murphy10 k=1', sequence: 'MKVLR', alphabet: MURPHY10_ALPHABET, k: 1, expected: { L: 3, K: 2 } },
    {
      name: 'murphy10 reads B as its D/N group',
      sequence: 'DBN',
      alphabet: MURPHY10_ALPHABET,
      k: 3,
      expected: { EEE: 1 },
    },
    {
      name: 'full20 has no letter for B',
      sequence: 'DBN',
      alphabet: FULL20_ALPHABET,
      k: 1,
      expected: { D: 1, N: 1 },
    },
  ];
  it.each(cases)('$name', ({ sequence, alphabet, k, expected }) => {
    expect(Object.fromEntries(countKmers({ sequence, alphabet, k }))).toEqual(expected);
  });
});

describe('embedKmerSpectrum by hand (alphabet A / C, dimension 128)', () => {
  const cases: {
    name: string;
    sequence: string;
    changes: Partial<KmerSpectrumSpec>;
    normalize: boolean;
    expected: Record<number, number>;
  }[] = [
    { name: 'raw counts', sequence: 'AAC', changes: {}, normalize: false, expected: { 55: 2, 18: 1 } },
    {
      name: 'raw counts, unit length',
      sequence: 'AAC',
      changes: {},
      normalize: true,
      expected: { 55: 2 / Math.sqrt(5), 18: 1 / Math.sqrt(5) },
    },
    {
      name: 'signed hashing (C has sign -1)',
      sequence: 'AAC',
      changes: { signedHashing: true },
      normalize: false,
      expected: { 55: 2, 18: -1 },
    },
    {
      name: 'sublinear counts',
      sequence: 'AAAC',
      changes: { termFrequency: 'sublinear' },
      normalize: false,
      expected: { 55: 1 + Math.log(3), 18: 1 },
    },
    {
      name: 'binary counts',
      sequence: 'AAAC',
      changes: { termFrequency: 'binary' },
      normalize: false,
      expected: { 55: 1, 18: 1 },
    },
    {
      name: 'inverse_sqrt weight',
      sequence: 'A',
      changes: { weighting: 'inverse_sqrt' },
      normalize: false,
      expected: { 55: 1 / Math.sqrt(P_A) },
    },
    {
      name: 'surprisal weight',
      sequence: 'AC',
      changes: { weighting: 'surprisal' },
      normalize: false,
      expected: { 55: -Math.log(P_A), 18: -Math.log(P_C) },
    },
    {
      name: 'centred on the background: count minus n p',
      sequence: 'AC',
      changes: { centerOnBackground: true },
      normalize: false,
      expected: { 55: 1 - 2 * P_A, 18: 1 - 2 * P_C },
    },
    {
      name: 'k=1+2 balanced: each order unit length, then summed',
      sequence: 'AAC',
      changes: { orders: [1, 2], balanceOrders: true },
      normalize: false,
      expected: { 55: 2 / Math.sqrt(5), 18: 1 / Math.sqrt(5), 6: 1 / Math.SQRT2, 14: 1 / Math.SQRT2 },
    },
    {
      name: 'k=1+2 summed as they are',
      sequence: 'AAC',
      changes: { orders: [1, 2], balanceOrders: false },
      normalize: false,
      expected: { 55: 2, 18: 1, 6: 1, 14: 1 },
    },
    {
      name: 'X splits k-mers',
      sequence: 'AAXAA',
      changes: { orders: [2] },
      normalize: false,
      expected: { 6: 2 },
    },
  ];
  it.each(cases)('$name', ({ sequence, changes, normalize, expected }) => {
    const vector = embedKmerSpectrum({ sequence, spec: { ...HAND, ...changes }, normalize });
    const want = sparse(128, expected);
    expect(vector).toHaveLength(128);
    vector.forEach((value, i) => expect(value).toBeCloseTo(want[i]!, 6));
  });

  it('uses the buckets kmerFeature gives', () => {
    expect([0, 1].map((code) => kmerFeature({ code, k: 1, dimension: 128 }).bucket)).toEqual([55, 18]);
    expect([0, 1].map((code) => kmerFeature({ code, k: 2, dimension: 128 }).bucket)).toEqual([6, 14]);
  });
});

describe('sequences without k-mers give the zero vector', () => {
  const cases = [
    { name: 'empty', sequence: '', spec: V1_LIKE },
    { name: 'only unknown letters', sequence: 'XXXXBZ', spec: V1_LIKE },
    { name: 'stop codons and digits', sequence: '**12', spec: V1_LIKE },
    { name: 'shorter than k', sequence: 'MK', spec: V1_LIKE },
    { name: 'unknowns every second residue', sequence: 'MXKXLXV', spec: { ...V1_LIKE, orders: [2, 3] } },
  ];
  it.each(cases)('$name', ({ sequence, spec }) => {
    const vector = embedKmerSpectrum({ sequence, spec });
    expect(vector).toHaveLength(spec.dimension);
    expect(vector.every((value) => value === 0)).toBe(true);
  });
});

describe('embedKmerBatch', () => {
  const protein = randomProtein(300, 1);

  it('gives unit vectors of the spec dimension', () => {
    const [a, b] = embedKmerBatch({ sequences: [protein, 'MKTAYIAKQR'], spec: V1_LIKE });
    expect(a).toHaveLength(2048);
    expect(l2Norm(a!)).toBeCloseTo(1, 5);
    expect(l2Norm(b!)).toBeCloseTo(1, 5);
  });

  it('leaves the length alone with normalize=false', () => {
    const [raw] = embedKmerBatch({ sequences: [protein], spec: V1_LIKE, normalize: false });
    const [unit] = embedKmerBatch({ sequences: [protein], spec: V1_LIKE });
    const length = l2Norm(raw!);
    expect(length).toBeGreaterThan(1.5);
    raw!.forEach((value, i) => expect(value / length).toBeCloseTo(unit![i]!, 6));
  });

  it('is deterministic: same vector whatever else is in the batch, in any order, after a cache reset', () => {
    const other = randomProtein(500, 2);
    const [first] = embedKmerBatch({ sequences: [protein, other], spec: V1_LIKE });
    const [, second] = embedKmerBatch({ sequences: [other, protein], spec: V1_LIKE });
    clearKmerSpectrumCache();
    const third = embedKmerSpectrum({ sequence: protein, spec: V1_LIKE });
    expect(Buffer.from(second!.buffer).equals(Buffer.from(first!.buffer))).toBe(true);
    expect(Buffer.from(third.buffer).equals(Buffer.from(first!.buffer))).toBe(true);
  });

  it('reads lower case like upper case, U as C and O as K', () => {
    const [upper, lower] = embedKmerBatch({ sequences: ['MKTAYCIAKQRK', 'mktaycIAKQRk'], spec: V1_LIKE });
    const [standard, special] = embedKmerBatch({
      sequences: ['MKTAYCIAKQRK', 'MKTAYUIAKQRO'],
      spec: V1_LIKE,
    });
    expect(Array.from(lower!)).toEqual(Array.from(upper!));
    expect(Array.from(special!)).toEqual(Array.from(standard!));
  });

  it('places a point mutant closer to its parent than an unrelated protein', () => {
    const mutant = protein.replace(/./g, (residue, i: number) =>
      i % 10 === 5 ? (residue === 'A' ? 'G' : 'A') : residue,
    );
    const [parent, near, unrelated] = embedKmerBatch({
      sequences: [protein, mutant, randomProtein(300, 3)],
      spec: V1_LIKE,
    });
    const similar = cosine(parent!, near!);
    const random = cosine(parent!, unrelated!);
    expect(similar).toBeGreaterThan(0.5);
    expect(Math.abs(random)).toBeLessThan(0.15);
    expect(similar).toBeGreaterThan(random + 0.3);
  });

  it('does not make a long sequence similar to everything (background centring)', () => {
    const long = randomProtein(5000, 4);
    const [short, longVector] = embedKmerBatch({ sequences: [protein, long], spec: V1_LIKE });
    expect(Math.abs(cosine(short!, longVector!))).toBeLessThan(0.15);
  });

  it('rejects an invalid spec', () => {
    expect(() => embedKmerBatch({ sequences: ['MK'], spec: { ...V1_LIKE, dimension: 1000 } })).toThrow(
      RangeError,
    );
  });
});
