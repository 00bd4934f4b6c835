import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { canonicalizeEmbeddingConfig, md5Hex, parseFasta } from '@svc/domain';
import { EmbeddingRepository, QuerySetRepository } from '@svc/persistence';
import { EMBEDDING_WORKER } from '../../apps/embedding-worker/src/worker.definition';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { PREDICTION_WORKER } from '../../apps/prediction-worker/src/worker.definition';
import { convertTsvToGaf } from '../data/tsv-to-gaf';
import { peakRssMb, runBench, runBenchJob } from './bench-support';

const DATA = resolve(__dirname, '../../../shared/data');

/**
 * `npm run bench:annotate`: sets up the full human reference (GO 2022-07-01, gene2go 2022-09-12
 * annotations, 17,857 Swiss-Prot sequences with k-mer embeddings), then times the annotation
 * pipeline for the 100 NK/LK targets of the mini holdout: query set, embeddings and prediction
 * (alignment and taxonomy features on) through the real queues. Prints seconds and proteins/s.
 */
runBench(
  'bench-annotate',
  [INGESTION_WORKER, EMBEDDING_WORKER, PREDICTION_WORKER],
  async ({ infra, dir }) => {
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

    const targets = new Set(
      readFileSync(join(DATA, 'mini/proteins.tsv'), 'utf8')
        .split('\n')
        .filter((l) => /\t(NK|LK)_target$/.test(l))
        .map((l) => l.split('\t')[0]!),
    );
    const records = parseFasta(readFileSync(join(DATA, 'mini/sequences.fasta'), 'utf8')).records.filter((r) =>
      targets.has(r.identifier),
    );
    const started = Date.now();
    const querySet = await new QuerySetRepository(infra.db).create({
      name: 'mini NK/LK targets',
      description: 'benchmark',
      entries: records.map((r) => ({
        accession: r.identifier,
        sequence: r.sequence,
        hash: md5Hex(r.sequence),
        species: null,
        taxonomyId: null,
      })),
      ownership: { owner_user_id: null, visibility: 'owner', expiresInDays: null },
    });
    const querySetId = (querySet as { id: string }).id;
    await runBenchJob(infra, 'compute_embeddings', 'svc.embeddings', {
      embedding_config_id: config.id,
      query_set_id: querySetId,
    });
    const prediction = await runBenchJob(infra, 'predict_go_terms', 'svc.predictions', {
      embedding_config_id: config.id,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: querySetId,
      limit_per_entry: 5,
    });
    const seconds = (Date.now() - started) / 1000;
    timings.push({
      step: 'annotate targets',
      seconds,
      detail: `${records.length} proteins, k=5, alignments on`,
    });
    const [count] = await infra.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM prediction p JOIN prediction_set s ON s.id = p.prediction_set_id WHERE s.job_id = $1`,
      [prediction.job.id],
    );
    console.table(timings.map((t) => ({ ...t, seconds: Number(t.seconds.toFixed(2)) })));
    process.stdout.write(
      `${JSON.stringify({
        proteins: records.length,
        seconds: Number(seconds.toFixed(2)),
        proteins_per_s: Number((records.length / seconds).toFixed(2)),
        prediction_rows: count?.n ?? 0,
        peak_rss_mb: peakRssMb(),
      })}\n`,
    );
  },
);
