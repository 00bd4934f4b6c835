import { join } from 'node:path';
import { diamondSearch, ensureDiamondDatabase } from '@svc/inference';
import { HOMOLOGY_HITS, HOMOLOGY_SELF_MARGIN } from '@svc/go-transfer';
import { EMBEDDING_WORKER } from '../../apps/embedding-worker/src/worker.definition';
import { EVALUATION_WORKER } from '../../apps/evaluation-worker/src/worker.definition';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { PREDICTION_WORKER } from '../../apps/prediction-worker/src/worker.definition';
import { peakRssMb, runBench, runBenchJob } from './bench-support';
import { setUpHumanReference } from './human-reference';

/**
 * `npm run bench:annotate [-- --targets N]`: sets up the full human reference (GO 2022-07-01,
 * gene2go 2022-09-12 annotations, 17,857 Swiss-Prot sequences with k-mer embeddings), then times
 * prediction through the real queues for N query proteins (default 1,000: window A's NK, LK and PK
 * targets of bench:quality, in accession order):
 *   default       predict_go_terms as a user gets it (DIAMOND, homology blend, no alignments)
 *   diamond-cli   DIAMOND itself on the same queries (makedb + blastp --sensitive), the floor
 *   previous      the previous default (k-mer embedding search with NW/SW alignments) on the first
 *                 100 queries, per protein, extrapolated to N
 * and the service evaluation of the default set (t1 gene2go 2024-09-20 on the same snapshot).
 * and prints seconds, proteins/s and the ratios.
 */
runBench(
  'bench-annotate',
  [INGESTION_WORKER, EMBEDDING_WORKER, PREDICTION_WORKER, EVALUATION_WORKER],
  async ({ infra, dir, world }) => {
    const targetCount = Number(option('targets') ?? 1000);
    const timings: { step: string; seconds: number; detail: string }[] = [];
    const timed = async <T>(step: string, detail: string, work: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      const result = await work();
      timings.push({ step, seconds: (Date.now() - started) / 1000, detail });
      return result;
    };
    const human = await setUpHumanReference({ infra, dir, world }, timed);
    const { snapshotId, annotationSetId, querySet, rowsOf } = human;
    const config = { id: human.embeddingConfigId };
    const records = human.targets.slice(0, targetCount);

    // The default, as a user gets it: no backend, no flags.
    const defaultSet = await querySet('default', records);
    const prediction = await timed('default', `${records.length} proteins, DIAMOND + blend`, () =>
      runBenchJob(infra, 'predict_go_terms', 'svc.predictions', {
        embedding_config_id: config.id,
        annotation_set_id: annotationSetId,
        ontology_snapshot_id: snapshotId,
        query_set_id: defaultSet,
      }),
    );
    const defaultSeconds = prediction.wallSeconds;
    const defaultRows = await rowsOf(prediction.job.id);
    // Where the default's time went: its batch steps (search, blend, features) against the whole run.
    const batches = await infra.repos.jobEvents.named(prediction.job.id, 'predict_go_terms_batch.done');
    const batchSeconds = batches.reduce((sum, e) => sum + Number(e.fields['seconds'] ?? 0), 0);

    // Evaluating the default set through the service: t1 loaded on the same snapshot, the holdout,
    // then run_cafa_evaluation of the whole set (every row read back from the database).
    const evaluationSetId = await human.holdout();
    const evaluation = await timed('evaluate default', `run_cafa_evaluation of ${defaultRows} rows`, () =>
      runBenchJob(infra, 'run_cafa_evaluation', 'svc.evaluations', {
        evaluation_set_id: evaluationSetId,
        prediction_set_id: prediction.job.result!['prediction_set_id'],
      }),
    );

    // DIAMOND alone on the same queries against the same references.
    // The donors the default searches: proteins with experimental annotations in the reference set.
    const { sequences: referenceSequences } = await infra.repos.referencePools.loadSequencePool({
      annotationSetId,
      donorEvidence: 'experimental',
    });
    const cliStarted = Date.now();
    const database = await ensureDiamondDatabase({
      dir: join(dir, 'diamond-cli'),
      references: referenceSequences.map((sequence, i) => ({ id: `r${i}`, sequence })),
    });
    await diamondSearch({
      database,
      queries: records.map((r, i) => ({ id: `q${i}`, sequence: r.sequence })),
      options: { maxTargetSeqs: HOMOLOGY_HITS + HOMOLOGY_SELF_MARGIN },
    });
    const cliSeconds = (Date.now() - cliStarted) / 1000;
    timings.push({
      step: 'diamond-cli',
      seconds: cliSeconds,
      detail: `makedb + blastp --sensitive, ${records.length} queries`,
    });

    // The previous default on the first 100: embeddings, then the k-mer search with alignments.
    const sample = records.slice(0, Math.min(100, records.length));
    const previousSet = await querySet('previous default', sample);
    const previousStarted = Date.now();
    await runBenchJob(infra, 'compute_embeddings', 'svc.embeddings', {
      embedding_config_id: config.id,
      query_set_id: previousSet,
    });
    const previous = await runBenchJob(infra, 'predict_go_terms', 'svc.predictions', {
      embedding_config_id: config.id,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: previousSet,
      limit_per_entry: 5,
      search_backend: 'numpy',
      compute_alignments: true,
    });
    const previousSeconds = (Date.now() - previousStarted) / 1000;
    timings.push({
      step: 'previous',
      seconds: previousSeconds,
      detail: `${sample.length} proteins, k-mer k=5, alignments on`,
    });
    const previousExtrapolated = (previousSeconds / sample.length) * records.length;

    console.table(timings.map((t) => ({ ...t, seconds: Number(t.seconds.toFixed(2)) })));
    process.stdout.write(
      `${JSON.stringify({
        proteins: records.length,
        default_seconds: Number(defaultSeconds.toFixed(2)),
        default_proteins_per_s: Number((records.length / defaultSeconds).toFixed(2)),
        default_rows: defaultRows,
        default_batches: batches.length,
        default_batch_step_seconds: Number(batchSeconds.toFixed(2)),
        evaluation_seconds: Number(evaluation.wallSeconds.toFixed(2)),
        evaluation_rows_per_s: Math.round(defaultRows / evaluation.wallSeconds),
        diamond_cli_seconds: Number(cliSeconds.toFixed(2)),
        default_vs_diamond_cli: Number((defaultSeconds / cliSeconds).toFixed(2)),
        previous_default_seconds_extrapolated: Number(previousExtrapolated.toFixed(1)),
        previous_rows_per_100: await rowsOf(previous.job.id),
        speedup_vs_previous_default: Number((previousExtrapolated / defaultSeconds).toFixed(2)),
        peak_rss_mb: peakRssMb(),
        evaluation_fmax_or_f_micro_w: headlineMetrics(evaluation.job.result?.['metrics']),
      })}\n`,
    );
  },
);

/** f_micro_w (else fmax) per category and aspect of an evaluation's metrics, to three places. */
function headlineMetrics(metrics: unknown): Record<string, Record<string, number | null>> {
  const out: Record<string, Record<string, number | null>> = {};
  for (const [category, aspects] of Object.entries(
    (metrics ?? {}) as Record<string, Record<string, Record<string, unknown>>>,
  )) {
    const row: Record<string, number | null> = {};
    for (const [aspect, values] of Object.entries(aspects)) {
      const value = values['f_micro_w'] ?? values['fmax'];
      row[aspect] = typeof value === 'number' ? Number(value.toFixed(3)) : null;
    }
    out[category] = row;
  }
  return out;
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
