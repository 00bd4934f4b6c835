/** @jest-environment ./libs/inference/testing/typed-array-environment.cjs */
import { GEMM_EXACT_SEARCH as EXACT_SEARCH } from './gemm-search';
import { HNSW_SEARCH, normalizeRows, ReferenceMatrix } from './vector-search';

function randomMatrix(rows: number, dimensions: number, seed: number): Float32Array {
  let state = seed;
  const next = (): number => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  return normalizeRows(Float32Array.from({ length: rows * dimensions }, next), dimensions);
}

/** Plain brute force, independent of the library under test. */
function bruteForce(
  matrix: ReferenceMatrix,
  query: Float32Array,
  k: number,
): { refIndex: number; distance: number }[] {
  const all: { refIndex: number; distance: number }[] = [];
  for (let r = 0; r < matrix.rows; r += 1) {
    let dot = 0;
    for (let j = 0; j < matrix.dimensions; j += 1) dot += matrix.data[r * matrix.dimensions + j]! * query[j]!;
    all.push({ refIndex: r, distance: 1 - dot });
  }
  return all.sort((a, b) => a.distance - b.distance).slice(0, k);
}

describe('vector search backends', () => {
  const dimensions = 32;
  const matrix: ReferenceMatrix = { rows: 500, dimensions, data: randomMatrix(500, dimensions, 7) };
  const queries = randomMatrix(20, dimensions, 11);

  it('exact search returns the brute-force neighbours and cosine distances', async () => {
    const results = await EXACT_SEARCH.build(matrix).search(queries, 5);
    expect(results).toHaveLength(20);
    results.forEach((hits, q) => {
      const expected = bruteForce(matrix, queries.subarray(q * dimensions, (q + 1) * dimensions), 5);
      expect(hits.map((h) => h.refIndex)).toEqual(expected.map((h) => h.refIndex));
      hits.forEach((h, i) => expect(h.distance).toBeCloseTo(expected[i]!.distance, 5));
    });
  });

  it('a single query and k larger than the matrix are handled', async () => {
    const small: ReferenceMatrix = { rows: 3, dimensions, data: matrix.data.slice(0, 3 * dimensions) };
    const one = queries.slice(0, dimensions);
    for (const backend of [EXACT_SEARCH, HNSW_SEARCH]) {
      const [hits] = await backend.build(small).search(one, 10);
      expect(hits!.map((h) => h.refIndex).sort()).toEqual([0, 1, 2]);
    }
    expect(
      await EXACT_SEARCH.build({ rows: 0, dimensions, data: new Float32Array(0) }).search(one, 3),
    ).toEqual([[]]);
  });

  it('a reference row searched for itself is at distance 0 with either backend', async () => {
    for (const backend of [EXACT_SEARCH, HNSW_SEARCH]) {
      const index = backend.build(matrix);
      const [hits] = await index.search(matrix.data.slice(42 * dimensions, 43 * dimensions), 3);
      expect(hits![0]!.refIndex).toBe(42);
      expect(hits![0]!.distance).toBeCloseTo(0, 5);
    }
  });

  it('approximate search finds most exact neighbours on a small set', async () => {
    const exact = await EXACT_SEARCH.build(matrix).search(queries, 10);
    const approx = await HNSW_SEARCH.build(matrix).search(queries, 10);
    let overlap = 0;
    exact.forEach((hits, q) => {
      const found = new Set(approx[q]!.map((h) => h.refIndex));
      overlap += hits.filter((h) => found.has(h.refIndex)).length;
    });
    expect(overlap / 200).toBeGreaterThan(0.9);
  });
});

describe('blocked exact search', () => {
  it('merges the top-k of several reference blocks', async () => {
    const dimensions = 8;
    const rows = 70_000; // two GEMM blocks
    const matrix: ReferenceMatrix = { rows, dimensions, data: randomMatrix(rows, dimensions, 3) };
    const queries = randomMatrix(3, dimensions, 5);
    const results = await EXACT_SEARCH.build(matrix).search(queries, 4);
    results.forEach((hits, q) => {
      const expected = bruteForce(matrix, queries.subarray(q * dimensions, (q + 1) * dimensions), 4);
      expect(hits.map((h) => h.refIndex)).toEqual(expected.map((h) => h.refIndex));
    });
  });
});
