import { join } from 'node:path';
import { ExportResearchDatasetPayload } from '@svc/contracts';
import { featureSchemaSha, fitPca, PcaModel, projectPca } from '@svc/domain';
import { JobContext } from '@svc/jobs';
import { Repositories } from '@svc/persistence';
import { sourcePolicyOf } from '@svc/platform';
import { transferBatch, TransferSettings } from '@svc/go-transfer';
import { DatasetColumn, datasetColumns, DatasetRow, DatasetTableWriter } from '../dataset-table';
import { PairDelta } from './export-deltas';
import { ExportPlan, Query } from './export-plan';

/** Queries per transfer call: bounds memory and sets the progress granularity. */
const BATCH = 100;
/** PCA is fitted on at most this many train queries (evenly spaced in accession order). */
const PCA_SAMPLE = 256;
const PCA_COMPONENTS = 8;

/** The written tables (train.parquet, and eval.parquet when the plan has an evaluation pair) in `folder`. */
export interface ExportTables {
  folder: string;
  columns: DatasetColumn[];
  pca: PcaModel | null;
  pcaNames: string[];
  schemaShaV2: string | null;
  trainRows: number;
  /** Null without an evaluation pair (no eval.parquet). */
  evalRows: number | null;
}

/**
 * Predicts every pair's queries by nearest-neighbour transfer from the pair's older release (the code
 * path of predict_go_terms), labels each row against the newer release, and appends the rows to
 * train.parquet or eval.parquet in `folder`, one row group per batch.
 */
export async function writeTables(
  context: JobContext<ExportResearchDatasetPayload>,
  plan: ExportPlan,
  deltas: readonly PairDelta[],
  folder: string,
): Promise<ExportTables> {
  const { payload, repos, config, emit, setProgress, throwIfCancelled, artifacts } = context;
  const trainQueries = deltas.filter((d) => d.work.split === 'train').flatMap((d) => d.queries);
  const pca = payload.use_embedding_pca === true ? await fitQueryPca(repos, payload, trainQueries) : null;
  const pcaNames = pca === null ? [] : pca.components.map((_, i) => `emb_pca_${i}`);
  const columns = datasetColumns([...plan.featureNames, ...pcaNames]);
  const total = deltas.reduce((sum, d) => sum + d.queries.length, 0);
  await setProgress(0, total);
  const writers = {
    train: new DatasetTableWriter(join(folder, 'train.parquet'), columns),
    eval: plan.eval !== null ? new DatasetTableWriter(join(folder, 'eval.parquet'), columns) : null,
  };
  let done = 0;
  for (const d of deltas) {
    const settings: TransferSettings = {
      embedding_config_id: payload.embedding_config_id,
      annotation_set_id: d.work.oldSetId,
      ontology_snapshot_id: payload.ontology_snapshot_id,
      limit_per_entry: payload.k ?? 5,
      distance_threshold: null,
      search_backend: payload.search_backend ?? 'numpy',
      aspect_separated_knn: true,
      options: { ...plan.flags, donor_evidence: 'all', expand_votes_to_ancestors: false },
    };
    const writer = d.work.split === 'train' ? writers.train : writers.eval!;
    const seconds = { knn: 0, alignment: 0 };
    let rows = 0;
    let positives = 0;
    let alignedPairs = 0;
    const projections = pca !== null ? await projectQueries(repos, payload, pca, d.queries) : null;
    for (let start = 0; start < d.queries.length; start += BATCH) {
      await throwIfCancelled();
      const batch = d.queries.slice(start, start + BATCH);
      const result = await transferBatch({
        repos,
        config,
        sources: sourcePolicyOf(config, artifacts),
        settings,
        queries: batch,
        emit,
        throwIfCancelled,
      });
      seconds.knn += result.seconds.knn;
      seconds.alignment += result.seconds.alignment;
      alignedPairs += result.alignedPairs;
      const labelled: DatasetRow[] = result.rows.map((row) => {
        const protein = String(row.protein_accession);
        const label = d.truth.label(protein, String(row.go_id)) ? 1 : 0;
        positives += label;
        return {
          snapshotPair: d.work.label,
          category: d.categories.get(`${protein}|${String(row.aspect)}`) ?? null,
          label,
          row,
          extra: projections?.get(protein) ?? {},
        };
      });
      await writer.append(labelled);
      rows += labelled.length;
      done += batch.length;
      await setProgress(done, total);
    }
    await emit('export_research_dataset.knn_done', null, {
      pair: d.work.label,
      split: d.work.split,
      queries: d.queries.length,
      rows,
      positives,
      elapsed_s: Number(seconds.knn.toFixed(3)),
    });
    if (plan.flags.compute_alignments)
      await emit('export_research_dataset.alignment_done', null, {
        pair: d.work.label,
        split: d.work.split,
        aligned_pairs: alignedPairs,
        elapsed_s: Number(seconds.alignment.toFixed(3)),
      });
  }
  await writers.train.finish();
  await writers.eval?.finish();
  return {
    folder,
    columns,
    pca,
    pcaNames,
    schemaShaV2: pca === null ? null : featureSchemaSha([...plan.featureNames, ...pcaNames]),
    trainRows: writers.train.rows,
    evalRows: writers.eval?.rows ?? null,
  };
}

async function fitQueryPca(
  repos: Repositories,
  payload: ExportResearchDatasetPayload,
  queries: readonly Query[],
): Promise<PcaModel> {
  const unique = [...new Map(queries.map((q) => [q.accession, q])).values()].sort((a, b) =>
    a.accession < b.accession ? -1 : 1,
  );
  const step = Math.max(1, unique.length / PCA_SAMPLE);
  const sample: Query[] = [];
  for (let i = 0; i < unique.length && sample.length < PCA_SAMPLE; i += step)
    sample.push(unique[Math.floor(i)]!);
  const vectors = await repos.referencePools.vectorsBySequence(
    payload.embedding_config_id,
    sample.map((q) => q.sequence_id),
  );
  return fitPca([...vectors.values()], Math.min(PCA_COMPONENTS, Math.max(1, vectors.size - 1)));
}

async function projectQueries(
  repos: Repositories,
  payload: ExportResearchDatasetPayload,
  pca: PcaModel,
  queries: readonly Query[],
): Promise<Map<string, Record<string, number>>> {
  const vectors = await repos.referencePools.vectorsBySequence(
    payload.embedding_config_id,
    queries.map((q) => q.sequence_id),
  );
  const out = new Map<string, Record<string, number>>();
  for (const q of queries) {
    const vector = vectors.get(q.sequence_id);
    if (vector === undefined) continue;
    out.set(q.accession, Object.fromEntries(projectPca(pca, vector).map((v, i) => [`emb_pca_${i}`, v])));
  }
  return out;
}
