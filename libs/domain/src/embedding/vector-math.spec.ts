import { concatVectors, l2Norm, l2Normalize, maxVector, meanVector, scaleVector } from './vector-math';

const f32 = (values: number[]): Float32Array => Float32Array.from(values);
const plain = (vector: Float32Array): number[] => Array.from(vector);

describe('l2Norm', () => {
  it.each([
    { name: 'a 3-4-5 triangle', vector: [3, 4], norm: 5 },
    { name: 'a zero vector', vector: [0, 0, 0], norm: 0 },
    { name: 'an empty vector', vector: [], norm: 0 },
    { name: 'a negative entry', vector: [-2], norm: 2 },
  ])('$name', ({ vector, norm }) => expect(l2Norm(f32(vector))).toBeCloseTo(norm, 6));
});

describe('l2Normalize', () => {
  it.each([
    { name: 'scales to unit length', vector: [3, 4], expected: [0.6, 0.8] },
    { name: 'keeps a unit vector', vector: [0, -1, 0], expected: [0, -1, 0] },
    { name: 'leaves a zero vector at zero (no NaN)', vector: [0, 0], expected: [0, 0] },
    { name: 'handles a single element', vector: [-7], expected: [-1] },
    { name: 'handles an empty vector', vector: [], expected: [] },
  ])('$name', ({ vector, expected }) => {
    const out = plain(l2Normalize(f32(vector)));
    expect(out).toHaveLength(expected.length);
    out.forEach((value, i) => expect(value).toBeCloseTo(expected[i] ?? Number.NaN, 6));
  });

  it('returns a new array and leaves the input alone', () => {
    const input = f32([3, 4]);
    const out = l2Normalize(input);
    expect(out).not.toBe(input);
    expect(plain(input)).toEqual([3, 4]);
  });

  it('does not overflow for large entries', () => {
    const out = l2Normalize(f32([3e30, 4e30]));
    expect(out[0]).toBeCloseTo(0.6, 6);
    expect(out[1]).toBeCloseTo(0.8, 6);
  });
});

describe('scaleVector', () => {
  it.each([
    { vector: [1, -2, 0.5], factor: 2, expected: [2, -4, 1] },
    { vector: [1, 2], factor: 1, expected: [1, 2] },
    { vector: [1, 2], factor: 0, expected: [0, 0] },
    { vector: [], factor: 3, expected: [] },
  ])('$vector x $factor', ({ vector, factor, expected }) => {
    expect(plain(scaleVector({ vector: f32(vector), factor }))).toEqual(expected);
  });
});

describe('concatVectors', () => {
  it.each([
    { name: 'two vectors in order', vectors: [[1, 2], [3]], expected: [1, 2, 3] },
    { name: 'order is kept', vectors: [[3], [1, 2]], expected: [3, 1, 2] },
    { name: 'one vector', vectors: [[5, 6]], expected: [5, 6] },
    { name: 'nothing', vectors: [], expected: [] },
  ])('$name', ({ vectors, expected }) => expect(plain(concatVectors(vectors.map(f32)))).toEqual(expected));
});

describe('meanVector and maxVector', () => {
  it.each([
    { name: 'a single vector', vectors: [[1, -2]], mean: [1, -2], max: [1, -2] },
    {
      name: 'two vectors',
      vectors: [
        [1, -2],
        [3, -4],
      ],
      mean: [2, -3],
      max: [3, -2],
    },
    {
      name: 'all negative',
      vectors: [
        [-1, -5],
        [-3, -2],
        [-2, -9],
      ],
      mean: [-2, -16 / 3],
      max: [-1, -2],
    },
    { name: 'zero-width vectors', vectors: [[], []], mean: [], max: [] },
  ])('$name', ({ vectors, mean, max }) => {
    const meanOut = plain(meanVector(vectors.map(f32)));
    meanOut.forEach((value, i) => expect(value).toBeCloseTo(mean[i] ?? Number.NaN, 6));
    expect(meanOut).toHaveLength(mean.length);
    expect(plain(maxVector(vectors.map(f32)))).toEqual(max);
  });

  it('averages many values without float32 drift', () => {
    const vectors = Array.from({ length: 100_000 }, () => f32([0.1]));
    expect(meanVector(vectors)[0]).toBeCloseTo(0.1, 7);
  });

  it.each([
    { name: 'no vectors', vectors: [] as number[][] },
    { name: 'different lengths', vectors: [[1, 2], [1]] },
  ])('rejects $name', ({ vectors }) => {
    expect(() => meanVector(vectors.map(f32))).toThrow(RangeError);
    expect(() => maxVector(vectors.map(f32))).toThrow(RangeError);
  });
});
