import { join, resolve } from 'node:path';
import { canonicalizeEmbeddingConfig, md5Hex } from '@svc/domain';
import { diamondSearch, ensureDiamondDatabase } from '@svc/inference';
import { EmbeddingRepository, QuerySetRepository } from '@svc/persistence';
import { HOMOLOGY_HITS, HOMOLOGY_SELF_MARGIN } from '@svc/transfer';
import { EMBEDDING_WORKER } from '../../apps/embedding-worker/src/worker.definition';
import { EVALUATION_WORKER } from '../../apps/evaluation-worker/src/worker.definition';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { PREDICTION_WORKER } from '../../apps/prediction-worker/src/worker.definition';
import { convertTsvToGaf } from '../data/tsv-to-gaf';
import { CATEGORIES, DONOR_EVIDENCE, loadWindow, WINDOWS } from '../quality/windows';
import { peakRssMb, runBench, runBenchJob } from './bench-support';

const DATA = resolve(__dirname, '../../../shared/data');

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
  async ({ infra, dir }) => {
    const targetCount = Number(option('targets') ?? 1000);
    const timings: { step: string; seconds: number; detail: string }[] = [];
    const timed = async <T>(step: string, detail: string, work: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      const result = await work();
      timings.push({ step, seconds: (Date.now() - started) / 1000, detail });
      return result;
    };
    const gaf = join(dir, 'human-2022.gaf');
    await convertTsvToGaf(join(DATA, 'human/human_go.orgHsEgDb-3.16.0.gene2go-2022-09-12.tsv.gz'), gaf);
    const obo = await runBenchJob(infra, 'load_ontology_snapshot', 'svc.jobs', {
      obo_url: join(DATA, 'go/go-basic.godb-3.16.0.2022-07-01.obo.gz'),
    });
    const snapshotId = obo.job.result!['ontology_snapshot_id'] as string;
    const set = await runBenchJob(infra, 'load_goa_annotations', 'svc.jobs', {
      ontology_snapshot_id: snapshotId,
      gaf_url: gaf,
      source_version: 'gene2go-2022-09-12',
    });
    const annotationSetId = set.job.result!['annotation_set_id'] as string;
    await timed('reference proteins', '17,857 Swiss-Prot sequences', () =>
      runBenchJob(infra, 'insert_proteins', 'svc.jobs', {
        source_url: join(DATA, 'human/human_swissprot_seqs.metastudent-2014-01.fasta.gz'),
      }),
    );
    const canonical = canonicalizeEmbeddingConfig({ model_name: 'kmer-v1', model_backend: 'kmer' });
    if ('errors' in canonical) throw new Error(canonical.errors.join('; '));
    const { config } = await new EmbeddingRepository(infra.db).saveConfig(canonical.config);
    await timed('reference embeddings', 'k-mer, every protein', () =>
      runBenchJob(infra, 'compute_embeddings', 'svc.embeddings', { embedding_config_id: config.id }),
    );

    const windowA = loadWindow(DATA, WINDOWS.A);
    const accessions = [
      ...new Set(CATEGORIES.flatMap((category) => [...windowA.targets[category].keys()])),
    ].sort();
    const records = accessions
      .slice(0, targetCount)
      .map((accession) => ({ identifier: accession, sequence: windowA.sequences.get(accession)! }));
    const querySet = async (name: string, entries: typeof records): Promise<string> => {
      const created = await new QuerySetRepository(infra.db).create({
        name,
        description: 'benchmark',
        entries: entries.map((r) => ({
          accession: r.identifier,
          sequence: r.sequence,
          hash: md5Hex(r.sequence),
          species: null,
          taxonomyId: null,
        })),
        ownership: { owner_user_id: null, visibility: 'owner', expiresInDays: null },
      });
      return (created as { id: string }).id;
    };
    const rowsOf = async (jobId: string): Promise<number> => {
      const [count] = await infra.db.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM prediction p JOIN prediction_set s ON s.id = p.prediction_set_id WHERE s.job_id = $1`,
        [jobId],
      );
      return count?.n ?? 0;
    };

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

    // Evaluating the default set through the service: t1 loaded on the same snapshot, the holdout,
    // then run_cafa_evaluation of the whole set (every row read back from the database).
    const gafT1 = join(dir, 'human-2024.gaf');
    await convertTsvToGaf(join(DATA, 'human/human_go.orgHsEgDb-3.20.0.gene2go-2024-09-20.tsv.gz'), gafT1);
    const t1 = await runBenchJob(infra, 'load_goa_annotations', 'svc.jobs', {
      ontology_snapshot_id: snapshotId,
      gaf_url: gafT1,
      source_version: 'gene2go-2024-09-20',
    });
    const holdout = await runBenchJob(infra, 'generate_evaluation_set', 'svc.evaluations', {
      old_annotation_set_id: annotationSetId,
      new_annotation_set_id: t1.job.result!['annotation_set_id'],
    });
    const evaluation = await timed('evaluate default', `run_cafa_evaluation of ${defaultRows} rows`, () =>
      runBenchJob(infra, 'run_cafa_evaluation', 'svc.evaluations', {
        evaluation_set_id: holdout.job.result!['evaluation_set_id'],
        prediction_set_id: prediction.job.result!['prediction_set_id'],
      }),
    );

    // DIAMOND alone on the same queries against the same references.
    const references = await infra.db.query<{ accession: string; sequence: string }[]>(
      `SELECT p.accession, s.sequence FROM protein p JOIN sequence s ON s.id = p.sequence_id
        WHERE EXISTS (SELECT 1 FROM protein_go_annotation a WHERE a.annotation_set_id = $1
                        AND a.protein_accession = p.accession AND NOT a.is_not
                        AND a.evidence_code = ANY($2::text[]))
        ORDER BY p.accession`,
      [annotationSetId, [...DONOR_EVIDENCE]],
    );
    const cliStarted = Date.now();
    const database = await ensureDiamondDatabase({
      dir: join(dir, 'diamond-cli'),
      references: references.map((r, i) => ({ id: `r${i}`, sequence: r.sequence })),
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
        evaluation_seconds: Number(evaluation.wallSeconds.toFixed(2)),
        evaluation_rows_per_s: Math.round(defaultRows / evaluation.wallSeconds),
        diamond_cli_seconds: Number(cliSeconds.toFixed(2)),
        default_vs_diamond_cli: Number((defaultSeconds / cliSeconds).toFixed(2)),
        previous_default_seconds_extrapolated: Number(previousExtrapolated.toFixed(1)),
        previous_rows_per_100: await rowsOf(previous.job.id),
        speedup_vs_previous_default: Number((previousExtrapolated / defaultSeconds).toFixed(2)),
        peak_rss_mb: peakRssMb(),
      })}\n`,
    );
  },
);

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
