// Exact k-nearest-neighbour search speed: the service's exact backend against a NumPy brute force
// (python3-numpy, BLAS matrix product + argpartition) on the same synthetic unit vectors.
// Usage: npm run bench:knn -- [--rows 500000] [--dims 1024] [--queries 200] [--k 10]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GEMM_EXACT_SEARCH } from '@svc/inference';
import { randomUnitRows } from './synthetic-vectors';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '500000' },
    dims: { type: 'string', default: '1024' },
    queries: { type: 'string', default: '200' },
    k: { type: 'string', default: '10' },
  },
});
const rows = Number(values.rows);
const dims = Number(values.dims);
const queryCount = Number(values.queries);
const k = Number(values.k);

const NUMPY = `
import sys, time, numpy as np
rows, dims, nq, k = map(int, sys.argv[2:6])
ref = np.fromfile(sys.argv[1] + '/ref.f32', dtype=np.float32).reshape(rows, dims)
q = np.fromfile(sys.argv[1] + '/q.f32', dtype=np.float32).reshape(nq, dims)
t = time.perf_counter()
sims = q @ ref.T
top = np.argpartition(-sims, k, axis=1)[:, :k]
order = np.take_along_axis(sims, top, 1).argsort(axis=1)[:, ::-1]
top = np.take_along_axis(top, order, 1)
elapsed = time.perf_counter() - t
np.save(sys.argv[1] + '/top.npy', top.astype(np.int64))
print(elapsed)
`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-knn-'));
  try {
    console.log(`reference ${rows} x ${dims} float32, ${queryCount} queries, k=${k}`);
    const ref = randomUnitRows(rows, dims, 17);
    const queries = randomUnitRows(queryCount, dims, 23);
    writeFileSync(join(dir, 'ref.f32'), Buffer.from(ref.buffer, ref.byteOffset, ref.byteLength));
    writeFileSync(join(dir, 'q.f32'), Buffer.from(queries.buffer, queries.byteOffset, queries.byteLength));

    const index = GEMM_EXACT_SEARCH.build({ rows, dimensions: dims, data: ref });
    const started = process.hrtime.bigint();
    const hits = await index.search(queries, k);
    const oursSeconds = Number(process.hrtime.bigint() - started) / 1e9;

    writeFileSync(join(dir, 'bench.py'), NUMPY);
    const numpySeconds = Number(
      execFileSync(
        'python3',
        [join(dir, 'bench.py'), dir, String(rows), String(dims), String(queryCount), String(k)],
        {
          encoding: 'utf8',
        },
      ).trim(),
    );
    const top = execFileSync(
      'python3',
      ['-c', `import numpy as np; print(" ".join(map(str, np.load("${dir}/top.npy").ravel())))`],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    )
      .trim()
      .split(' ')
      .map(Number);
    let same = 0;
    hits.forEach((h, q) => {
      const expected = new Set(top.slice(q * k, (q + 1) * k));
      same += h.filter((x) => expected.has(x.refIndex)).length;
    });
    const ours = queryCount / oursSeconds;
    const numpy = queryCount / numpySeconds;
    console.log(
      `exact (onnxruntime GEMM + TopK): ${ours.toFixed(1)} queries/s (${oursSeconds.toFixed(2)} s)`,
    );
    console.log(
      `numpy brute force (BLAS):      ${numpy.toFixed(1)} queries/s (${numpySeconds.toFixed(2)} s)`,
    );
    console.log(
      `ratio ours/numpy: ${(ours / numpy).toFixed(2)}  top-${k} agreement: ${((100 * same) / (queryCount * k)).toFixed(2)}%`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
