import { Index, MetricKind, ScalarKind } from 'usearch';
import { GEMM_EXACT_SEARCH } from './gemm-search';
import type { SearchHit } from '@svc/domain';
import type { VectorSearchBackend } from './vector-index';

export type { ReferenceMatrix, VectorIndex, VectorSearchBackend } from './vector-index';

const THREADS = 2;

function unpack(
  keys: BigUint64Array,
  distances: Float32Array,
  counts: BigUint64Array | null,
  queries: number,
  k: number,
): SearchHit[][] {
  const out: SearchHit[][] = [];
  for (let q = 0; q < queries; q += 1) {
    // A single query comes back as plain Matches, without per-query counts.
    const found = counts === null ? Math.min(k, keys.length) : Number(counts[q]);
    const hits: SearchHit[] = [];
    for (let j = 0; j < found; j += 1) {
      // usearch's cosine metric is 1 - cos, the distance DESIGN.md fixes.
      hits.push({ refIndex: Number(keys[q * k + j]), distance: distances[q * k + j]! });
    }
    out.push(hits);
  }
  return out;
}

/** Approximate search on a usearch HNSW graph; recall is measured by `npm run bench:knn`. */
export const HNSW_SEARCH: VectorSearchBackend = {
  name: 'hnsw',
  exact: false,
  build(matrix) {
    const index = new Index({
      dimensions: matrix.dimensions,
      metric: MetricKind.Cos,
      quantization: ScalarKind.F32,
      multi: false,
      connectivity: 16,
      expansion_add: 128,
      expansion_search: 64,
    });
    if (matrix.rows > 0) {
      const keys = new BigUint64Array(matrix.rows);
      for (let i = 0; i < matrix.rows; i += 1) keys[i] = BigInt(i);
      index.add(keys, matrix.data, THREADS);
    }
    return {
      backend: 'hnsw',
      size: matrix.rows,
      async search(queries, k) {
        const n = queries.length / matrix.dimensions;
        const kk = Math.min(k, matrix.rows);
        if (n === 0 || kk === 0) return Array.from({ length: n }, () => []);
        const found = index.search(queries, kk, THREADS) as {
          keys: BigUint64Array;
          distances: Float32Array;
          counts?: BigUint64Array;
        };
        const counts = found.counts ?? null;
        return unpack(found.keys, found.distances, counts, n, kk);
      },
    };
  },
};

export const SEARCH_BACKEND_REGISTRY: readonly VectorSearchBackend[] = [GEMM_EXACT_SEARCH, HNSW_SEARCH];

export function searchBackend(name: string): VectorSearchBackend {
  const backend = SEARCH_BACKEND_REGISTRY.find((b) => b.name === name);
  if (backend === undefined) throw new Error(`unknown search backend '${name}'`);
  return backend;
}

/** L2-normalises rows in place (zero rows stay zero); cosine search assumes unit vectors. */
export function normalizeRows(data: Float32Array, dimensions: number): Float32Array {
  for (let offset = 0; offset < data.length; offset += dimensions) {
    let norm = 0;
    for (let j = 0; j < dimensions; j += 1) norm += data[offset + j]! * data[offset + j]!;
    if (norm === 0) continue;
    const scale = 1 / Math.sqrt(norm);
    for (let j = 0; j < dimensions; j += 1) data[offset + j] = data[offset + j]! * scale;
  }
  return data;
}
