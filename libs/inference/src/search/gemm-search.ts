import { onnx } from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import type { SearchHit } from '@svc/domain';
import type { ReferenceMatrix, VectorIndex, VectorSearchBackend } from './vector-index';
import { valueInfo } from '../onnx/onnx-graph';

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

/** Reference rows per GEMM call: keeps the similarity block (queries x rows) small. */
const BLOCK_ROWS = 65_536;
/** Queries per GEMM call. */
const QUERY_BATCH = 256;

/** similarities = queries · referenceᵀ (one GEMM), then the k largest per query (TopK). */
function topKModel(): Uint8Array {
  const graph: onnx.IGraphProto = {
    name: 'cosine_topk',
    input: [
      valueInfo('queries', FLOAT, ['n', 'd']),
      valueInfo('reference', FLOAT, ['m', 'd']),
      valueInfo('k', INT64, [1]),
    ],
    output: [valueInfo('values', FLOAT, ['n', 'kk']), valueInfo('indices', INT64, ['n', 'kk'])],
    node: [
      {
        opType: 'Gemm',
        input: ['queries', 'reference'],
        output: ['similarities'],
        attribute: [{ name: 'transB', type: onnx.AttributeProto.AttributeType.INT, i: 1 }],
      },
      {
        opType: 'TopK',
        input: ['similarities', 'k'],
        output: ['values', 'indices'],
        attribute: [
          { name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 },
          { name: 'largest', type: onnx.AttributeProto.AttributeType.INT, i: 1 },
          { name: 'sorted', type: onnx.AttributeProto.AttributeType.INT, i: 1 },
        ],
      },
    ],
  };
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 14 }],
      producerName: 'svc',
      graph,
    }),
  ).finish();
}

let session: Promise<ort.InferenceSession> | null = null;

function topKSession(): Promise<ort.InferenceSession> {
  session ??= ort.InferenceSession.create(topKModel(), {
    intraOpNumThreads: 2,
    graphOptimizationLevel: 'all',
  });
  return session;
}

/**
 * Exact search as blocked matrix products (onnxruntime's MLAS GEMM, multi-threaded SIMD) with a
 * TopK per block, merged across blocks. Batched queries reuse each reference block from cache,
 * which a per-query scan cannot: measured by `npm run bench:knn`.
 */
export const GEMM_EXACT_SEARCH: VectorSearchBackend = {
  name: 'numpy',
  exact: true,
  build(matrix: ReferenceMatrix): VectorIndex {
    const d = matrix.dimensions;
    const blocks: { start: number; tensor: ort.Tensor }[] = [];
    for (let start = 0; start < matrix.rows; start += BLOCK_ROWS) {
      const rows = Math.min(BLOCK_ROWS, matrix.rows - start);
      blocks.push({
        start,
        tensor: new ort.Tensor('float32', matrix.data.subarray(start * d, (start + rows) * d), [rows, d]),
      });
    }
    return {
      backend: 'numpy',
      size: matrix.rows,
      async search(queries, k) {
        const n = queries.length / d;
        const out: SearchHit[][] = Array.from({ length: n }, () => []);
        if (n === 0 || matrix.rows === 0 || k <= 0) return out;
        const run = await topKSession();
        for (let q0 = 0; q0 < n; q0 += QUERY_BATCH) {
          const qn = Math.min(QUERY_BATCH, n - q0);
          const queryTensor = new ort.Tensor('float32', queries.subarray(q0 * d, (q0 + qn) * d), [qn, d]);
          for (const block of blocks) {
            const kk = Math.min(k, block.tensor.dims[0]!);
            const result = await run.run({
              queries: queryTensor,
              reference: block.tensor,
              k: new ort.Tensor('int64', BigInt64Array.from([BigInt(kk)]), [1]),
            });
            const values = result['values']!.data as Float32Array;
            const indices = result['indices']!.data as BigInt64Array;
            for (let i = 0; i < qn; i += 1) {
              const hits = out[q0 + i]!;
              for (let j = 0; j < kk; j += 1)
                hits.push({
                  refIndex: block.start + Number(indices[i * kk + j]),
                  distance: 1 - values[i * kk + j]!,
                });
            }
          }
        }
        if (blocks.length > 1)
          for (let i = 0; i < n; i += 1) out[i] = out[i]!.sort((a, b) => a.distance - b.distance).slice(0, k);
        return out;
      },
    };
  },
};
