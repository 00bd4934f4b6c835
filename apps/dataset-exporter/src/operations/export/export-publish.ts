import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ExportResearchDatasetPayload } from '@svc/contracts';
import { HoldoutStats, snapshotPairLabel } from '@svc/domain';
import { JobContext, JobError } from '@svc/jobs';
import { PairDelta } from './export-deltas';
import { ExportPlan } from './export-plan';
import { ExportTables } from './export-tables';
import { producerInfo } from './producer-info';

/**
 * Uploads the tables and the manifest under `datasets/<name>/` and registers the Dataset row. The
 * name is claimed for this job before the first upload, so a second export of the same name fails
 * with `dataset_exists` instead of overwriting these files; the claim is given up once the row
 * holds the name, or when the export fails.
 */
export async function publishDataset(
  context: JobContext<ExportResearchDatasetPayload>,
  plan: ExportPlan,
  deltas: readonly PairDelta[],
  tables: ExportTables,
): Promise<Record<string, unknown>> {
  const { job, payload, repos, artifacts: store } = context;
  const datasets = repos.datasets;
  const name = payload.output_name;
  if (!(await datasets.claimName(name, job.id)))
    throw new JobError('dataset_exists', `a dataset named '${name}' already exists`);
  try {
    const prefix = `datasets/${name}/`;
    const trainUri = await store.put(`${prefix}train.parquet`, {
      path: join(tables.folder, 'train.parquet'),
    });
    const evalUri =
      tables.evalRows !== null
        ? await store.put(`${prefix}eval.parquet`, { path: join(tables.folder, 'eval.parquet') })
        : null;
    const producer = await producerInfo();
    const manifest = {
      format: 'svc-research-dataset/1',
      name,
      job_id: job.id,
      producer,
      embedding_config_id: payload.embedding_config_id,
      ontology_snapshot_id: payload.ontology_snapshot_id,
      annotation_source: plan.source,
      k: payload.k ?? 5,
      search_backend: payload.search_backend ?? 'numpy',
      feature_flags: plan.flags,
      feature_names: plan.featureNames,
      schema_sha: plan.schemaSha,
      schema_sha_v2: tables.schemaShaV2,
      pca:
        tables.pca === null
          ? null
          : {
              columns: tables.pcaNames,
              mean: [...tables.pca.mean],
              components: tables.pca.components.map((c) => [...c]),
              variances: tables.pca.variances,
            },
      label: 'term or an is_a/part_of ancestor of a term the newer release adds (experimental evidence)',
      columns: tables.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
      train: {
        uri: trainUri,
        rows: tables.trainRows,
        snapshot_pairs: deltas.filter((d) => d.work.split === 'train').map((d) => pairInfo(d)),
      },
      eval:
        tables.evalRows === null
          ? null
          : { uri: evalUri, rows: tables.evalRows, snapshot_pair: pairInfo(deltas[deltas.length - 1]!) },
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
    const manifestSha = createHash('sha256').update(manifestBytes).digest('hex');
    const manifestUri = await store.put(`${prefix}manifest.json`, manifestBytes);
    const dataset = await datasets.create({
      name,
      operation: 'export_research_dataset',
      job_id: job.id,
      embedding_config_id: payload.embedding_config_id,
      ontology_snapshot_id: payload.ontology_snapshot_id,
      annotation_source: plan.source,
      k: payload.k ?? 5,
      key_prefix: prefix,
      storage_backend: store.backend,
      train_uri: trainUri,
      eval_uri: evalUri,
      manifest_uri: manifestUri,
      manifest_sha: manifestSha,
      schema_sha: plan.schemaSha,
      schema_sha_v2: tables.schemaShaV2,
      n_train_rows: tables.trainRows,
      n_eval_rows: tables.evalRows ?? 0,
      train_snapshot_pairs: plan.train.map(snapshotPairLabel),
      eval_snapshot_pair: plan.eval !== null ? snapshotPairLabel(plan.eval) : null,
      producer_version: producer.version,
      producer_git_sha: producer.git_sha,
      meta: { feature_names: plan.featureNames, search_backend: payload.search_backend ?? 'numpy' },
      owner_user_id: job.owner_user_id,
      visibility: 'owner',
    });
    return {
      dataset_id: dataset.id,
      name: dataset.name,
      train_uri: trainUri,
      eval_uri: evalUri,
      manifest_uri: manifestUri,
      manifest_sha: manifestSha,
      schema_sha: plan.schemaSha,
      n_train_rows: dataset.n_train_rows,
      n_eval_rows: dataset.n_eval_rows,
    };
  } finally {
    await datasets.releaseName(name, job.id);
  }
}

function pairInfo(d: PairDelta): Record<string, unknown> {
  return {
    pair: d.work.label,
    old_annotation_set_id: d.work.oldSetId,
    new_annotation_set_id: d.work.newSetId,
    queries: d.queries.length,
    stats: d.delta.stats satisfies HoldoutStats,
  };
}
