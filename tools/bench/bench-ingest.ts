import { join, resolve } from 'node:path';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { convertTsvToGaf } from '../data/tsv-to-gaf';
import { peakRssMb, runBench, runBenchJob } from './bench-support';

const DATA = resolve(__dirname, '../../../shared/data');
const OBO = join(DATA, 'go/go-basic.godb-3.20.0.built-2024-09-23.obo.gz');
const HUMAN = join(DATA, 'human/human_go.orgHsEgDb-3.20.0.gene2go-2024-09-20.tsv.gz');

/**
 * `npm run bench:ingest`: loads a full GO release and the full human annotation snapshot (converted
 * to GAF) through the real job runtime, broker and database, and prints seconds and rows/s.
 */
runBench('bench-ingest', [INGESTION_WORKER], async ({ infra, dir }) => {
  const run = (operation: string, payload: Record<string, unknown>) =>
    runBenchJob(infra, operation, 'svc.jobs', payload);
  const gaf = join(dir, 'human-2024.gaf');
  const converted = await convertTsvToGaf(HUMAN, gaf);
  const obo = await run('load_ontology_snapshot', { obo_url: OBO });
  const terms = obo.job.result!['term_count'] as number;
  const edges = obo.job.result!['relationship_count'] as number;
  const goa = await run('load_goa_annotations', {
    ontology_snapshot_id: obo.job.result!['ontology_snapshot_id'],
    gaf_url: gaf,
    source_version: 'gene2go-2024-09-20',
  });
  const rows = goa.job.result!['annotation_count'] as number;
  const table = [
    {
      load: 'GO release 2024-09 (OBO, gzip)',
      rows: terms + edges,
      seconds: obo.wallSeconds,
      rows_per_s: Math.round((terms + edges) / obo.wallSeconds),
    },
    {
      load: `human annotations 2024-09 (GAF, ${converted.rows} lines)`,
      rows,
      seconds: goa.wallSeconds,
      rows_per_s: Math.round(rows / goa.wallSeconds),
    },
  ];
  console.table(table);
  process.stdout.write(
    `${JSON.stringify({ results: table, peak_rss_mb: peakRssMb(), skipped: goa.job.result })}\n`,
  );
});
