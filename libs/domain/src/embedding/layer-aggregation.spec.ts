import { aggregateLayers, type LayerAggregation } from './layer-aggregation';

const f32 = (values: number[]): Float32Array => Float32Array.from(values);

// Vectors of one token in layers 0 (last), 1 and 2, distinguishable by value.
const LAYER = { 0: [1, 2], 1: [10, 20], 2: [100, 200] } as const;

describe('aggregateLayers', () => {
  it.each<{ name: string; indices: (0 | 1 | 2)[]; agg: LayerAggregation; expected: number[] }>([
    { name: 'mean of one layer is that layer', indices: [1], agg: 'mean', expected: [10, 20] },
    { name: 'mean of two layers', indices: [0, 1], agg: 'mean', expected: [5.5, 11] },
    { name: 'mean of three layers', indices: [2, 0, 1], agg: 'mean', expected: [37, 74] },
    { name: 'last of one layer', indices: [2], agg: 'last', expected: [100, 200] },
    { name: 'last picks the smallest index (listed first)', indices: [0, 2], agg: 'last', expected: [1, 2] },
    { name: 'last picks the smallest index (listed last)', indices: [2, 1], agg: 'last', expected: [10, 20] },
    { name: 'last with the smallest in the middle', indices: [2, 0, 1], agg: 'last', expected: [1, 2] },
    { name: 'concat keeps the listed order', indices: [2, 0], agg: 'concat', expected: [100, 200, 1, 2] },
    { name: 'concat of three', indices: [0, 1, 2], agg: 'concat', expected: [1, 2, 10, 20, 100, 200] },
    { name: 'concat of one layer', indices: [1], agg: 'concat', expected: [10, 20] },
  ])('$name', ({ indices, agg, expected }) => {
    const out = aggregateLayers({
      layers: indices.map((i) => f32([...LAYER[i]])),
      layerIndices: indices,
      agg,
    });
    expect(Array.from(out)).toEqual(expected);
  });

  it('returns a copy for last, not the caller’s array', () => {
    const layer = f32([1, 2]);
    const out = aggregateLayers({ layers: [layer], layerIndices: [0], agg: 'last' });
    out[0] = 9;
    expect(layer[0]).toBe(1);
  });

  it.each([
    { name: 'no layers', layers: [] as number[][], indices: [] as number[] },
    { name: 'a count mismatch', layers: [[1], [2]], indices: [0] },
  ])('rejects $name', ({ layers, indices }) => {
    expect(() => aggregateLayers({ layers: layers.map(f32), layerIndices: indices, agg: 'mean' })).toThrow(
      RangeError,
    );
  });

  it('rejects layers of different widths under mean', () => {
    expect(() =>
      aggregateLayers({ layers: [f32([1, 2]), f32([1])], layerIndices: [0, 1], agg: 'mean' }),
    ).toThrow(RangeError);
  });
});
