import { groupBackgroundProbabilities, ROBINSON_BACKGROUND_PER_MILLE } from './background-frequencies';
import { FULL20_ALPHABET, MURPHY10_ALPHABET } from './kmer-alphabet';
import {
  buildKmerOrderTable,
  kmerFeature,
  KmerSpectrumSpec,
  kmerSpectrumSpecProblems,
  kmerWeight,
  termFrequencyValue,
} from './kmer-spectrum-spec';

const SPEC: KmerSpectrumSpec = {
  alphabet: FULL20_ALPHABET,
  orders: [3],
  dimension: 1024,
  termFrequency: 'raw',
  weighting: 'inverse_sqrt',
  signedHashing: true,
  balanceOrders: true,
  centerOnBackground: true,
};

describe('kmerSpectrumSpecProblems', () => {
  const cases: { name: string; changes: Partial<KmerSpectrumSpec>; problems: string[] }[] = [
    { name: 'a valid spec', changes: {}, problems: [] },
    {
      name: 'dimension not a power of two',
      changes: { dimension: 1000 },
      problems: ['dimension must be a power of two from 64 to 65536, got 1000'],
    },
    {
      name: 'dimension too small',
      changes: { dimension: 32 },
      problems: ['dimension must be a power of two from 64 to 65536, got 32'],
    },
    { name: 'no orders', changes: { orders: [] }, problems: ['orders must list at least one k'] },
    { name: 'repeated order', changes: { orders: [3, 3] }, problems: ['orders must be distinct'] },
    { name: 'k = 0', changes: { orders: [0] }, problems: ['k must be an integer from 1 to 12, got 0'] },
    {
      name: 'too many k-mers',
      changes: { orders: [6] },
      problems: ['k=6 over 20 letters has 64000000 k-mers, more than 4194304'],
    },
    {
      name: 'k=6 fits a 10-letter alphabet',
      changes: { orders: [6], alphabet: MURPHY10_ALPHABET },
      problems: [],
    },
    {
      name: 'centring without raw counts',
      changes: { termFrequency: 'sublinear' },
      problems: ['centerOnBackground needs raw term frequency'],
    },
  ];
  it.each(cases)('$name', ({ changes, problems }) => {
    expect(kmerSpectrumSpecProblems({ ...SPEC, ...changes })).toEqual(problems);
  });
});

describe('kmerFeature', () => {
  // Pinned: stored vectors depend on these buckets, so a change here needs a new recipe name.
  const cases = [
    { code: 0, k: 1, dimension: 128, bucket: 55, sign: 1 },
    { code: 1, k: 1, dimension: 128, bucket: 18, sign: -1 },
    { code: 0, k: 2, dimension: 128, bucket: 6, sign: 1 },
    { code: 1, k: 2, dimension: 128, bucket: 14, sign: 1 },
    { code: 2, k: 2, dimension: 128, bucket: 61, sign: -1 },
    { code: 3, k: 2, dimension: 128, bucket: 70, sign: 1 },
    { code: 0, k: 1, dimension: 65536, bucket: 10423, sign: 1 },
    { code: 123456, k: 3, dimension: 65536, bucket: 36107, sign: 1 },
  ];
  it.each(cases)('code $code, k $k, dimension $dimension', ({ code, k, dimension, bucket, sign }) => {
    expect(kmerFeature({ code, k, dimension })).toEqual({ bucket, sign });
  });

  it('spreads the 8000 3-mers over most of 1024 buckets with both signs', () => {
    const buckets = new Set<number>();
    let negative = 0;
    for (let code = 0; code < 8000; code++) {
      const feature = kmerFeature({ code, k: 3, dimension: 1024 });
      buckets.add(feature.bucket);
      if (feature.sign < 0) negative++;
    }
    expect(buckets.size).toBeGreaterThan(1000);
    expect(negative).toBeGreaterThan(3700);
    expect(negative).toBeLessThan(4300);
  });
});

describe('kmerWeight', () => {
  const cases = [
    { weighting: 'none' as const, probability: 0.01, expected: 1 },
    { weighting: 'surprisal' as const, probability: 0.01, expected: Math.log(100) },
    { weighting: 'surprisal' as const, probability: 1, expected: 0 },
    // ln(1 + 1/(400 * 0.01)) = ln(1.25)
    { weighting: 'expected_idf' as const, probability: 0.01, expected: Math.log(1.25) },
    { weighting: 'expected_idf' as const, probability: 0.0001, expected: Math.log(26) },
    { weighting: 'inverse_sqrt' as const, probability: 0.01, expected: 10 },
    { weighting: 'inverse_sqrt' as const, probability: 0.25, expected: 2 },
  ];
  it.each(cases)('$weighting of p=$probability is $expected', ({ weighting, probability, expected }) => {
    expect(kmerWeight({ weighting, probability })).toBeCloseTo(expected, 12);
  });
});

describe('termFrequencyValue', () => {
  const cases = [
    { termFrequency: 'raw' as const, count: 1, expected: 1 },
    { termFrequency: 'raw' as const, count: 7, expected: 7 },
    { termFrequency: 'sublinear' as const, count: 1, expected: 1 },
    { termFrequency: 'sublinear' as const, count: 3, expected: 1 + Math.log(3) },
    { termFrequency: 'binary' as const, count: 9, expected: 1 },
  ];
  it.each(cases)('$termFrequency of $count is $expected', ({ termFrequency, count, expected }) => {
    expect(termFrequencyValue({ termFrequency, count })).toBeCloseTo(expected, 12);
  });
});

describe('background probabilities', () => {
  it('Robinson frequencies sum to 1000 per mille', () => {
    const total = Object.values(ROBINSON_BACKGROUND_PER_MILLE).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1000, 9);
  });

  it('a group gets the sum of its members: murphy10 I/L/V/M', () => {
    const groups = groupBackgroundProbabilities(MURPHY10_ALPHABET);
    expect(groups[0]).toBeCloseTo((90.19 + 64.41 + 51.42 + 22.43) / 1000, 12);
    expect(groups.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});

describe('buildKmerOrderTable', () => {
  it('has one bucket and signed weight per k-mer, and the background mean of a random k-mer', () => {
    const spec: KmerSpectrumSpec = {
      ...SPEC,
      alphabet: MURPHY10_ALPHABET,
      dimension: 64,
      signedHashing: false,
      weighting: 'none',
    };
    const table = buildKmerOrderTable(spec, 2);
    expect(table.size).toBe(100);
    expect(table.bucket).toHaveLength(100);
    // Unsigned, unit weights: the background mean sums the k-mer probabilities, which sum to 1.
    expect(table.backgroundMean.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const feature = kmerFeature({ code: 57, k: 2, dimension: 64 });
    expect(table.bucket[57]).toBe(feature.bucket);
  });

  it('signs the weights with the hash sign', () => {
    const table = buildKmerOrderTable({ ...SPEC, dimension: 64, weighting: 'none' }, 1);
    for (let code = 0; code < 20; code++) {
      expect(table.signedWeight[code]).toBe(kmerFeature({ code, k: 1, dimension: 64 }).sign);
    }
  });
});
