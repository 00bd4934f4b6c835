import { type EmbeddingPooling, poolResidues, poolSequenceEmbedding } from './residue-pooling';

const f32 = (values: number[]): Float32Array => Float32Array.from(values);

function expectClose(actual: Float32Array, expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  Array.from(actual).forEach((value, i) => expect(value).toBeCloseTo(expected[i] ?? Number.NaN, 6));
}

const RESIDUES = [
  [3, 0, -1],
  [1, 4, -3],
];
const CLS = [9, 9, 9];

describe('poolResidues', () => {
  it.each<{ name: string; residues: number[][]; pooling: EmbeddingPooling; expected: number[] }>([
    { name: 'mean', residues: RESIDUES, pooling: 'mean', expected: [2, 2, -2] },
    { name: 'max', residues: RESIDUES, pooling: 'max', expected: [3, 4, -1] },
    {
      name: 'mean_max is mean then max',
      residues: RESIDUES,
      pooling: 'mean_max',
      expected: [2, 2, -2, 3, 4, -1],
    },
    { name: 'cls ignores the residues', residues: RESIDUES, pooling: 'cls', expected: CLS },
    { name: 'cls with no residues', residues: [], pooling: 'cls', expected: CLS },
    { name: 'mean of a single residue', residues: [[5, -1, 0]], pooling: 'mean', expected: [5, -1, 0] },
    { name: 'max of a single residue', residues: [[5, -1, 0]], pooling: 'max', expected: [5, -1, 0] },
    {
      name: 'mean_max of a single residue',
      residues: [[5, -1, 0]],
      pooling: 'mean_max',
      expected: [5, -1, 0, 5, -1, 0],
    },
  ])('$name', ({ residues, pooling, expected }) => {
    expectClose(poolResidues({ residues: residues.map(f32), pooling, cls: f32(CLS) }), expected);
  });

  it.each<EmbeddingPooling>(['mean', 'max', 'mean_max'])('%s rejects an empty residue list', (pooling) => {
    expect(() => poolResidues({ residues: [], pooling })).toThrow(RangeError);
  });

  it('cls without a CLS vector is rejected', () => {
    expect(() => poolResidues({ residues: RESIDUES.map(f32), pooling: 'cls' })).toThrow(RangeError);
  });
});

describe('poolSequenceEmbedding', () => {
  const base = { pooling: 'mean' as EmbeddingPooling, normalizeResidues: false, normalize: false, scale: 1 };
  const n = (values: number[]) => values.map((v) => v / Math.hypot(...values));

  it.each<{ name: string; residues: number[][]; options: Partial<typeof base>; expected: number[] }>([
    {
      name: 'plain mean',
      residues: [
        [3, 0],
        [1, 4],
      ],
      options: {},
      expected: [2, 2],
    },
    {
      name: 'residues normalised before the mean',
      residues: [
        [3, 0],
        [0, 4],
      ],
      options: { normalizeResidues: true },
      expected: [0.5, 0.5],
    },
    {
      name: 'final normalisation',
      residues: [
        [3, 0],
        [1, 4],
      ],
      options: { normalize: true },
      expected: n([2, 2]),
    },
    {
      name: 'scale without normalisation',
      residues: [
        [3, 0],
        [1, 4],
      ],
      options: { scale: 2.5 },
      expected: [5, 5],
    },
    {
      name: 'scale is applied after normalisation',
      residues: [
        [3, 0],
        [1, 4],
      ],
      options: { normalize: true, scale: 10 },
      expected: n([2, 2]).map((v) => v * 10),
    },
    {
      name: 'a zero residue stays zero under residue normalisation',
      residues: [
        [0, 0],
        [0, 2],
      ],
      options: { normalizeResidues: true },
      expected: [0, 0.5],
    },
    {
      name: 'an all-zero sequence stays zero under both normalisations',
      residues: [
        [0, 0],
        [0, 0],
      ],
      options: { normalizeResidues: true, normalize: true, scale: 3 },
      expected: [0, 0],
    },
    {
      name: 'max after residue normalisation',
      residues: [
        [3, 4],
        [-1, 0],
      ],
      options: { pooling: 'max', normalizeResidues: true },
      expected: [0.6, 0.8],
    },
    {
      name: 'mean_max normalised as one vector',
      residues: [
        [1, 0],
        [3, 0],
      ],
      options: { pooling: 'mean_max', normalize: true },
      expected: n([2, 0, 3, 0]),
    },
    {
      name: 'cls is not a residue: residue normalisation leaves it alone',
      residues: [[1, 0]],
      options: { pooling: 'cls', normalizeResidues: true },
      expected: [6, 8],
    },
    {
      name: 'cls with final normalisation',
      residues: [[1, 0]],
      options: { pooling: 'cls', normalize: true },
      expected: [0.6, 0.8],
    },
    {
      name: 'a single residue, everything on',
      residues: [[0, -2]],
      options: { normalizeResidues: true, normalize: true, scale: 4 },
      expected: [0, -4],
    },
  ])('$name', ({ residues, options, expected }) => {
    const out = poolSequenceEmbedding({ ...base, ...options, residues: residues.map(f32), cls: f32([6, 8]) });
    expectClose(out, expected);
  });

  it('does not modify the residue vectors', () => {
    const residues = [f32([3, 4])];
    poolSequenceEmbedding({ ...base, residues, normalizeResidues: true, normalize: true, scale: 2 });
    expect(Array.from(residues[0] ?? [])).toEqual([3, 4]);
  });
});
