// Capacity beyond one machine: a Swiss-Prot-sized reference (570,000 proteins) as synthetic 2,048-d
// unit vectors, measured on this machine, then the spread of prediction batches over N prediction
// workers simulated with the measured batch time (KEDA scales the prediction queue per message count).
// Usage: npm run bench:scale -- [--rows 570000] [--dims 2048] [--queries 512] [--hnsw-sample 20000]
//        [--batch 500] [--proteome 20000,100000] [--workers 1,2,4,8,16]
import { parseArgs } from 'node:util';
import { GEMM_EXACT_SEARCH, HNSW_SEARCH } from '@svc/inference';
import { randomUnitRows } from './synthetic-vectors';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '570000' },
    dims: { type: 'string', default: '2048' },
    queries: { type: 'string', default: '512' },
    k: { type: 'string', default: '50' },
    'hnsw-sample': { type: 'string', default: '20000' },
    batch: { type: 'string', default: '500' },
    proteome: { type: 'string', default: '20000,100000' },
    workers: { type: 'string', default: '1,2,4,8,16' },
  },
});
const rows = Number(values.rows);
const dims = Number(values.dims);
const queryCount = Number(values.queries);
const k = Number(values.k);
const hnswSample = Number(values['hnsw-sample']);
const batchSize = Number(values.batch);
const proteomes = values.proteome.split(',').map(Number);
const workerCounts = values.workers.split(',').map(Number);

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
const seconds = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/**
 * Batches of `batchSize` queries over `workers` consumers with prefetch 1: each takes the next batch
 * when it is free (what competing consumers of one queue do). Returns the makespan in seconds.
 */
export function simulateQueue(
  batches: number,
  workers: number,
  batchSeconds: number,
  startSeconds: number,
): number {
  const free = Array.from({ length: workers }, () => startSeconds);
  for (let b = 0; b < batches; b += 1) {
    let next = 0;
    for (let w = 1; w < workers; w += 1) if (free[w]! < free[next]!) next = w;
    free[next] = free[next]! + batchSeconds;
  }
  return Math.max(...free);
}

async function main(): Promise<void> {
  console.log(`reference ${rows.toLocaleString()} x ${dims} float32 (synthetic unit vectors), k=${k}`);
  let started = process.hrtime.bigint();
  const reference = randomUnitRows(rows, dims, 17);
  const generateSeconds = seconds(started);
  const rssBefore = process.memoryUsage().rss;
  started = process.hrtime.bigint();
  const index = GEMM_EXACT_SEARCH.build({ rows, dimensions: dims, data: reference });
  const exactBuildSeconds = seconds(started);
  const queries = randomUnitRows(queryCount, dims, 23);
  await index.search(queries.subarray(0, dims), k); // the session and its threads
  started = process.hrtime.bigint();
  await index.search(queries, k);
  const exactSeconds = seconds(started);
  const exactRate = queryCount / exactSeconds;
  const rssExact = process.memoryUsage().rss;
  console.log(
    `exact (GEMM): matrix ${mb(reference.byteLength)} MB, generated in ${generateSeconds.toFixed(1)} s, ` +
      `index ${exactBuildSeconds.toFixed(2)} s, ${exactRate.toFixed(1)} queries/s, worker RSS ${mb(rssExact)} MB ` +
      `(+${mb(rssExact - rssBefore)} MB for the index)`,
  );

  // HNSW on a sample: the build is O(n log n) in practice, extrapolated to the full size.
  const sample = reference.subarray(0, hnswSample * dims);
  started = process.hrtime.bigint();
  const hnsw = HNSW_SEARCH.build({ rows: hnswSample, dimensions: dims, data: sample });
  const hnswBuildSample = seconds(started);
  started = process.hrtime.bigint();
  await hnsw.search(queries, k);
  const hnswRate = queryCount / seconds(started);
  const hnswBuildFull = hnswBuildSample * (rows / hnswSample) * (Math.log(rows) / Math.log(hnswSample));
  console.log(
    `hnsw on ${hnswSample.toLocaleString()} rows: build ${hnswBuildSample.toFixed(1)} s, ${hnswRate.toFixed(0)} queries/s; ` +
      `build of ${rows.toLocaleString()} extrapolated (n log n): ${(hnswBuildFull / 60).toFixed(0)} min`,
  );

  // Prediction batches over N workers: each worker loads the index once (startup), then takes batches.
  const batchSeconds = batchSize / exactRate;
  const startup = generateSeconds + exactBuildSeconds;
  console.log(
    `\nKEDA simulation: batches of ${batchSize} queries at ${batchSeconds.toFixed(1)} s each (exact search only; ` +
      `term transfer and writes excluded), worker start ${startup.toFixed(0)} s (index load)`,
  );
  console.log(['proteome', ...workerCounts.map((w) => `${w} worker${w > 1 ? 's' : ''}`)].join('\t'));
  for (const proteome of proteomes) {
    const batches = Math.ceil(proteome / batchSize);
    const cells = workerCounts.map((w) => {
      const makespan = simulateQueue(batches, w, batchSeconds, startup);
      return `${(makespan / 60).toFixed(1)} min`;
    });
    console.log([proteome.toLocaleString(), ...cells].join('\t'));
  }
}

if (require.main === module) void main();
