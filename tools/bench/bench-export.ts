import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalizeEmbeddingConfig } from '@svc/domain';
import { DATASET_EXPORTER } from '../../apps/dataset-exporter/src/worker.definition';
import { EMBEDDING_WORKER } from '../../apps/embedding-worker/src/worker.definition';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { convertTsvToGaf } from '../data/tsv-to-gaf';
import { peakRssMb, runBench, runBenchJob } from './bench-support';

const DATA = resolve(__dirname, '../../../shared/data');
const RELEASES = [
  'human_go.orgHsEgDb-3.12.0.gene2go-2020-09-23.tsv.gz',
  'human_go.orgHsEgDb-3.16.0.gene2go-2022-09-12.tsv.gz',
  'human_go.orgHsEgDb-3.20.0.gene2go-2024-09-20.tsv.gz',
];

/**
 * `npm run bench:export [-- --alignments]`: the human reference (GO 2024-09, 17,857 Swiss-Prot
 * sequences with k-mer embeddings) and three real gene2go releases (2020-09, 2022-09, 2024-09 as
 * versions 1, 2, 3), then times export_research_dataset with train pair 1->2 and eval pair 2->3
 * through the real queue: rows, rows/s, file sizes and peak memory. Alignments are off unless
 * `--alignments` is given (they dominate the time: every row is a Needleman-Wunsch and a
 * Smith-Waterman alignment).
 */
runBench('bench-export', [INGESTION_WORKER, EMBEDDING_WORKER, DATASET_EXPORTER], async ({ infra, dir }) => {
  const alignments = process.argv.includes('--alignments');
  const obo = await runBenchJob(infra, 'load_ontology_snapshot', 'svc.jobs', {
    obo_url: join(DATA, 'go/go-basic.godb-3.20.0.built-2024-09-23.obo.gz'),
  });
  const snapshotId = obo.job.result!['ontology_snapshot_id'] as string;
  for (const [i, file] of RELEASES.entries()) {
    const gaf = join(dir, `v${i + 1}.gaf`);
    await convertTsvToGaf(join(DATA, 'human', file), gaf);
    await runBenchJob(infra, 'load_goa_annotations', 'svc.jobs', {
      ontology_snapshot_id: snapshotId,
      gaf_url: gaf,
      source_version: String(i + 1),
      // Three snapshots against the 2024 release: the older ones name terms it made obsolete.
      max_unresolved_ratio: 1,
    });
  }
  await runBenchJob(infra, 'insert_proteins', 'svc.jobs', {
    source_url: join(DATA, 'human/human_swissprot_seqs.metastudent-2014-01.fasta.gz'),
  });
  const canonical = canonicalizeEmbeddingConfig({ model_name: 'kmer-v1', model_backend: 'kmer' });
  if ('errors' in canonical) throw new Error(canonical.errors.join('; '));
  const { config } = await infra.repos.embeddings.saveConfig(canonical.config);
  await runBenchJob(infra, 'compute_embeddings', 'svc.embeddings', { embedding_config_id: config.id });

  const exported = await runBenchJob(infra, 'export_research_dataset', 'svc.training', {
    embedding_config_id: config.id,
    ontology_snapshot_id: snapshotId,
    train_versions: [1, 2],
    test_versions: [3],
    annotation_source: 'goa',
    output_name: `bench-${Date.now().toString(36)}`,
    k: 5,
    compute_alignments: alignments,
    compute_taxonomy: true,
    use_embedding_pca: true,
  });
  const result = exported.job.result!;
  const events = await infra.repos.jobEvents.named(exported.job.id, 'export_research_dataset.');
  const rows = Number(result['n_train_rows']) + Number(result['n_eval_rows']);
  const bytes = (uri: unknown): number => (typeof uri === 'string' ? statSync(fileURLToPath(uri)).size : 0);
  console.table(
    events
      .filter((e) => e.event !== 'export_research_dataset.published')
      .map((e) => ({ event: e.event.replace('export_research_dataset.', ''), ...e.fields })),
  );
  process.stdout.write(
    `${JSON.stringify({
      alignments,
      train_rows: result['n_train_rows'],
      eval_rows: result['n_eval_rows'],
      seconds: Number(exported.wallSeconds.toFixed(2)),
      rows_per_s: Math.round(rows / exported.wallSeconds),
      train_parquet_mb: Number((bytes(result['train_uri']) / 2 ** 20).toFixed(1)),
      eval_parquet_mb: Number((bytes(result['eval_uri']) / 2 ** 20).toFixed(1)),
      peak_rss_mb: peakRssMb(),
    })}\n`,
  );
});
