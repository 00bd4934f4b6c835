// The human reference the prediction and evaluation benches share: GO 2022-07-01, gene2go
// 2022-09-12 annotations, 17,857 Swiss-Prot sequences with k-mer embeddings, and window A's targets.
import { join, resolve } from 'node:path';
import { canonicalizeEmbeddingConfig, md5Hex } from '@svc/domain';
import { convertTsvToGaf } from '../data/tsv-to-gaf';
import { CATEGORIES, loadWindow, readSequences, WINDOWS } from '../quality/windows';
import { BenchSession, runBenchJob } from './bench-support';

export const DATA = resolve(__dirname, '../../../shared/data');
export const OBO_2022 = join(DATA, 'go/go-basic.godb-3.16.0.2022-07-01.obo.gz');

export interface HumanReference {
  snapshotId: string;
  annotationSetId: string;
  embeddingConfigId: string;
  /** Window A's NK, LK and PK targets, in accession order. */
  targets: { identifier: string; sequence: string }[];
  /** Every human Swiss-Prot sequence, in accession order. */
  sequences: Map<string, string>;
  /** A query set of these records (owned by nobody, as a benchmark). */
  querySet(name: string, records: { identifier: string; sequence: string }[]): Promise<string>;
  /** Rows of the prediction set a job wrote. */
  rowsOf(jobId: string): Promise<number>;
  /** t1 (gene2go 2024-09-20) on the same snapshot and the NK/LK/PK holdout t0 -> t1. */
  holdout(): Promise<string>;
}

export async function setUpHumanReference(
  { infra, dir }: BenchSession,
  timed: <T>(step: string, detail: string, work: () => Promise<T>) => Promise<T>,
): Promise<HumanReference> {
  const gaf = join(dir, 'human-2022.gaf');
  await convertTsvToGaf(join(DATA, 'human/human_go.orgHsEgDb-3.16.0.gene2go-2022-09-12.tsv.gz'), gaf);
  const obo = await runBenchJob(infra, 'load_ontology_snapshot', 'svc.jobs', { obo_url: OBO_2022 });
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
  const { config } = await infra.repos.embeddings.saveConfig(canonical.config);
  await timed('reference embeddings', 'k-mer, every protein', () =>
    runBenchJob(infra, 'compute_embeddings', 'svc.embeddings', { embedding_config_id: config.id }),
  );
  const windowA = loadWindow(DATA, WINDOWS.A);
  const targets = [...new Set(CATEGORIES.flatMap((category) => [...windowA.targets[category].keys()]))]
    .sort()
    .map((accession) => ({ identifier: accession, sequence: windowA.sequences.get(accession)! }));
  return {
    snapshotId,
    annotationSetId,
    embeddingConfigId: config.id,
    targets,
    sequences: readSequences(DATA),
    async querySet(name, records) {
      const created = await infra.repos.querySets.create({
        name,
        description: 'benchmark',
        entries: records.map((r) => ({
          accession: r.identifier,
          sequence: r.sequence,
          hash: md5Hex(r.sequence),
          species: null,
          taxonomyId: null,
          geneName: null,
        })),
        ownership: { owner_user_id: null, visibility: 'owner', expiresInDays: null },
      });
      return (created as { id: string }).id;
    },
    async rowsOf(jobId) {
      return infra.repos.predictionSets.countRowsOfJob(jobId);
    },
    async holdout() {
      const gafT1 = join(dir, 'human-2024.gaf');
      await convertTsvToGaf(join(DATA, 'human/human_go.orgHsEgDb-3.20.0.gene2go-2024-09-20.tsv.gz'), gafT1);
      const t1 = await runBenchJob(infra, 'load_goa_annotations', 'svc.jobs', {
        ontology_snapshot_id: snapshotId,
        gaf_url: gafT1,
        source_version: 'gene2go-2024-09-20',
        // Ground truth against the t0 release: terms created since are dropped, as the protocol wants.
        max_unresolved_ratio: 1,
      });
      // Gene-level carry-over left out, as bench:quality does (docs/prediction.md, "Quality").
      const holdout = await runBenchJob(infra, 'generate_evaluation_set', 'svc.evaluations', {
        old_annotation_set_id: annotationSetId,
        new_annotation_set_id: t1.job.result!['annotation_set_id'],
        exclude_gene_carry_over: true,
      });
      return holdout.job.result!['evaluation_set_id'] as string;
    },
  };
}
