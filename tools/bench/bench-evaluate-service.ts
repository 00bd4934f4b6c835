import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { CafaNamespaceResult } from '@svc/domain';
import { predictionsTsvCopyCommand } from '@svc/persistence';
import { EVALUATION_CATEGORIES } from '@svc/use-cases';
import { freePort } from '@svc/testing';
import { EMBEDDING_WORKER } from '../../apps/embedding-worker/src/worker.definition';
import { EVALUATION_WORKER } from '../../apps/evaluation-worker/src/worker.definition';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { PREDICTION_WORKER } from '../../apps/prediction-worker/src/worker.definition';
import { BenchSession, peakRssMb, rssMbOf, runBench, runBenchJob, startApp, stopApp } from './bench-support';
import { OBO_2022, setUpHumanReference } from './human-reference';

const ROOT = resolve(__dirname, '..', '..');
const ASPECT_CODE: Record<string, string> = {
  biological_process: 'BPO',
  molecular_function: 'MFO',
  cellular_component: 'CCO',
};

/**
 * `npm run bench:evaluate-service [-- --proteins N] [--skip-exports] [--gateway-heap-mb N]`: a prediction set of N human proteins (window
 * A's 4,270 targets first, then other Swiss-Prot proteins; default 6,000, about 3 M rows) predicted
 * with the default, then
 *   service   run_cafa_evaluation through the queue (rows read back from PostgreSQL, NK/LK/PK)
 *   cli       the evaluator CLI (tools/evaluate) on the same rows written as a CAFA file (best score
 *             per protein and term, what the CAFA download gives), per category
 * and prints both times, the ratio and whether every metric is identical; then streams the set's
 * TSV, CAFA, GAF, JSON and training-data downloads through a gateway in its own process (rows/s,
 * the gateway's RSS before and at its peak) next to psql's COPY of the same columns.
 */
runBench(
  'bench-evaluate-service',
  [INGESTION_WORKER, EMBEDDING_WORKER, PREDICTION_WORKER, EVALUATION_WORKER],
  async (session) => {
    const { infra, dir } = session;
    const proteinCount = Number(option('proteins') ?? 6000);
    const human = await setUpHumanReference(session, (_step, _detail, work) => work());
    const chosen = new Set(human.targets.map((t) => t.identifier));
    const records = [...human.targets];
    for (const [identifier, sequence] of human.sequences) {
      if (records.length >= proteinCount) break;
      if (!chosen.has(identifier)) records.push({ identifier, sequence });
    }
    const querySetId = await human.querySet('evaluate-service', records.slice(0, proteinCount));
    const prediction = await runBenchJob(infra, 'predict_go_terms', 'svc.predictions', {
      embedding_config_id: human.embeddingConfigId,
      annotation_set_id: human.annotationSetId,
      ontology_snapshot_id: human.snapshotId,
      query_set_id: querySetId,
    });
    const predictionSetId = prediction.job.result!['prediction_set_id'] as string;
    const rows = await human.rowsOf(prediction.job.id);
    const evaluationSetId = await human.holdout();

    const service = await runBenchJob(infra, 'run_cafa_evaluation', 'svc.evaluations', {
      evaluation_set_id: evaluationSetId,
      prediction_set_id: predictionSetId,
    });
    const serviceMetrics = service.job.result!['metrics'] as Record<
      string,
      Record<string, Record<string, unknown>>
    >;

    // The same rows for the CLI: the ontology file, the CAFA file of the set, each category's truth.
    const obo = join(dir, 'go.obo');
    writeFileSync(obo, gunzipSync(readFileSync(OBO_2022)));
    const cafa = join(dir, 'predictions-cafa.tsv');
    // The best score per protein and term, as the CAFA download chooses it.
    const lines: string[] = [];
    for await (const { protein, terms } of infra.repos.predictionExports.bestTerms(predictionSetId, {}))
      for (const term of terms) lines.push(`${protein}\t${term.goId}\t${term.score}\n`);
    writeFileSync(cafa, lines.join(''));
    const evaluations = infra.repos.evaluations;
    const known = join(dir, 'known.tsv');
    writeFileSync(
      known,
      (await evaluations.groundTruth(evaluationSetId, 'KNOWN'))
        .map((r) => `${r.protein_accession}\t${r.go_id}\n`)
        .join(''),
    );
    let cliSeconds = 0;
    let identical = true;
    const differences: string[] = [];
    for (const category of EVALUATION_CATEGORIES) {
      const truth = await evaluations.groundTruth(evaluationSetId, category);
      if (truth.length === 0) continue;
      const gt = join(dir, `gt-${category}.tsv`);
      writeFileSync(gt, truth.map((t) => `${t.protein_accession}\t${t.go_id}\n`).join(''));
      const started = Date.now();
      const output = execFileSync(
        process.execPath,
        [
          '-r',
          join(ROOT, 'tools/register.js'),
          join(ROOT, 'tools/evaluate/evaluate.ts'),
          '--obo',
          obo,
          '--gt',
          gt,
          '--pred',
          cafa,
          ...(category === 'PK' ? ['--known', known] : []),
        ],
        { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      );
      cliSeconds += (Date.now() - started) / 1000;
      const cli = JSON.parse(output) as Record<string, CafaNamespaceResult>;
      for (const [namespace, result] of Object.entries(cli)) {
        const ours = serviceMetrics[category]?.[ASPECT_CODE[namespace] ?? namespace] ?? {};
        const theirs: Record<string, unknown> = {
          fmax: result.fmax,
          f_micro: result.f_micro,
          auprc: result.auprc,
          tau: result.tau,
          smin: result.best.smin.value,
        };
        for (const [name, value] of Object.entries(theirs)) {
          if (ours[name] !== value) {
            identical = false;
            differences.push(
              `${category} ${namespace} ${name}: service ${String(ours[name])} cli ${String(value)}`,
            );
          }
        }
      }
    }
    const exports = process.argv.includes('--skip-exports')
      ? []
      : await timeExports(session, predictionSetId, evaluationSetId);
    if (exports.length > 0) console.table(exports);
    console.table([
      { path: 'service run_cafa_evaluation', seconds: Number(service.wallSeconds.toFixed(2)) },
      { path: 'evaluator CLI on the CAFA file', seconds: Number(cliSeconds.toFixed(2)) },
    ]);
    process.stdout.write(
      `${JSON.stringify({
        proteins: Math.min(proteinCount, records.length),
        prediction_rows: rows,
        cafa_rows: lines.length,
        service_seconds: Number(service.wallSeconds.toFixed(2)),
        service_rows_per_s: Math.round(rows / service.wallSeconds),
        cli_seconds: Number(cliSeconds.toFixed(2)),
        service_vs_cli: Number((service.wallSeconds / cliSeconds).toFixed(2)),
        metrics_identical: identical,
        exports,
        differences: differences.slice(0, 10),
        peak_rss_mb: peakRssMb(),
      })}\n`,
    );
  },
);

type ExportFigure = {
  file: string;
  lines: number;
  seconds: number;
  lines_per_s: number;
  vs_copy: number | null;
  gateway_rss_before_mb: number;
  gateway_rss_peak_mb: number;
};

/**
 * Streams each download of the set through a gateway in its own process (as deployed; the client
 * here reads as fast as it can) and reports lines/s and the gateway's RSS before and at its peak,
 * sampled every 50 ms. The alternative a user would reach for, PostgreSQL's own COPY of the same
 * 32 columns to standard output (psql), is timed in the same run: the TSV's `vs_copy` is the ratio.
 */
async function timeExports(
  { world }: BenchSession,
  predictionSetId: string,
  evaluationSetId: string,
): Promise<ExportFigure[]> {
  const copy = timeCopy(world.env['SVC_DB_URL']!, predictionSetId);
  const port = await freePort();
  // --gateway-heap-mb N caps the gateway's heap: a download that held the set would fail under it.
  const heap = option('gateway-heap-mb');
  const gateway = await startApp(
    'gateway-api',
    { ...world.env, SVC_PORT: String(port) },
    'gateway listening',
    heap === undefined ? [] : [`--max-old-space-size=${Number(heap)}`],
  );
  const url = `http://127.0.0.1:${port}`;
  const out: ExportFigure[] = [
    {
      file: 'COPY (psql, same 32 columns)',
      lines: copy.lines,
      seconds: copy.seconds,
      lines_per_s: Math.round(copy.lines / copy.seconds),
      vs_copy: 1,
      gateway_rss_before_mb: 0,
      gateway_rss_peak_mb: 0,
    },
  ];
  try {
    const files = [
      'embeddings/prediction-sets/ID/predictions.tsv',
      'embeddings/prediction-sets/ID/predictions-cafa.tsv',
      'embeddings/prediction-sets/ID/predictions.gaf',
      'embeddings/prediction-sets/ID/predictions.json',
      `scoring/prediction-sets/ID/training-data.tsv?evaluation_set_id=${evaluationSetId}`,
    ];
    for (const path of files) {
      const base = rssMbOf(gateway.pid!);
      let peak = base;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMbOf(gateway.pid!));
      }, 50);
      const started = Date.now();
      const response = await fetch(`${url}/v1/${path.replace('ID', predictionSetId)}`);
      if (!response.ok || response.body === null) throw new Error(`${path}: HTTP ${response.status}`);
      // JSON holds one protein per line: its rows are its terms, counted by their go_id keys.
      const json = path.includes('.json');
      const key = Buffer.from('"go_id"');
      let lines = 0;
      let tail = Buffer.alloc(0);
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (json) {
          const text = Buffer.concat([tail, chunk]);
          for (let i = text.indexOf(key); i >= 0; i = text.indexOf(key, i + key.length)) lines += 1;
          tail = text.subarray(Math.max(0, text.length - key.length + 1));
        } else for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) lines += 1;
      }
      const seconds = (Date.now() - started) / 1000;
      clearInterval(sampler);
      const file = path.split('/').pop()!.split('?')[0]!;
      out.push({
        file,
        lines,
        seconds: Number(seconds.toFixed(2)),
        lines_per_s: Math.round(lines / seconds),
        vs_copy:
          file === 'predictions.tsv'
            ? Number((lines / seconds / (copy.lines / copy.seconds)).toFixed(2))
            : null,
        gateway_rss_before_mb: base,
        gateway_rss_peak_mb: peak,
      });
    }
  } finally {
    await stopApp(gateway);
  }
  return out;
}

/** psql's COPY of the set's TSV columns, in the downloads' order, to standard output: lines and seconds. */
function timeCopy(dbUrl: string, predictionSetId: string): { lines: number; seconds: number } {
  const started = Date.now();
  const output = execFileSync('psql', [dbUrl, '-c', predictionsTsvCopyCommand(predictionSetId)], {
    maxBuffer: 8 * 1024 * 1024 * 1024,
  });
  const seconds = (Date.now() - started) / 1000;
  let lines = 0;
  for (let i = 0; i < output.length; i += 1) if (output[i] === 10) lines += 1;
  return { lines, seconds };
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
