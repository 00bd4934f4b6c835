import { ExportResearchDatasetPayload } from '@svc/contracts';
import {
  activeFeatureNames,
  DatasetPlanError,
  FeatureFlags,
  featureFlagsOf,
  featureSchemaSha,
  GoGraph,
  planDatasetPairs,
  SnapshotPair,
  snapshotPairLabel,
} from '@svc/domain';
import { JobError, requireReference } from '@svc/jobs';
import { Repositories } from '@svc/persistence';

export interface PairWork {
  split: 'train' | 'eval';
  pair: SnapshotPair;
  label: string;
  oldSetId: string;
  newSetId: string;
}

export type Query = { accession: string; sequence_id: number; taxonomy_id: string | null };

/** What an export will do, checked before any pair is computed. */
export interface ExportPlan {
  train: readonly SnapshotPair[];
  eval: SnapshotPair | null;
  source: string;
  work: PairWork[];
  flags: FeatureFlags;
  featureNames: string[];
  schemaSha: string;
  graph: GoGraph;
  /** Every protein with an embedding for the config, by accession. */
  embedded: Map<string, Query>;
}

/**
 * The export's plan: the snapshot pairs of the requested versions, the annotation set of each
 * version, the feature schema and the ontology. Fails with a stable code for versions that do not
 * pair, a taken name, or rows the payload names that do not exist.
 */
export async function planExport(
  repos: Repositories,
  payload: ExportResearchDatasetPayload,
): Promise<ExportPlan> {
  let pairs;
  try {
    pairs = planDatasetPairs(payload.train_versions, payload.test_versions ?? []);
  } catch (error) {
    if (error instanceof DatasetPlanError) throw new JobError('invalid_versions', error.message);
    throw error;
  }
  if (await repos.datasets.existsByName(payload.output_name))
    throw new JobError('dataset_exists', `a dataset named '${payload.output_name}' already exists`);
  await requireReference(repos.references, 'embedding_config', payload.embedding_config_id);
  await requireReference(repos.references, 'ontology_snapshot', payload.ontology_snapshot_id);
  const source = payload.annotation_source ?? 'goa';
  const versions = [...pairs.train.flatMap((p) => [p.old, p.new]), ...(pairs.eval ? [pairs.eval.new] : [])];
  const sets = await annotationSets(repos, source, payload.ontology_snapshot_id, versions);
  const work: PairWork[] = [
    ...pairs.train.map((pair) => ({ split: 'train' as const, pair })),
    ...(pairs.eval !== null ? [{ split: 'eval' as const, pair: pairs.eval }] : []),
  ].map(({ split, pair }) => ({
    split,
    pair,
    label: snapshotPairLabel(pair),
    oldSetId: sets.get(pair.old)!,
    newSetId: sets.get(pair.new)!,
  }));
  const flags = featureFlagsOf({
    compute_alignments: payload.compute_alignments ?? true,
    compute_taxonomy: payload.compute_taxonomy ?? true,
  });
  const featureNames = activeFeatureNames(flags);
  const embedded = new Map(
    (await repos.referencePools.queries(payload.embedding_config_id, null)).map((q) => [
      q.accession,
      { accession: q.accession, sequence_id: q.sequenceId, taxonomy_id: q.taxonomyId },
    ]),
  );
  return {
    train: pairs.train,
    eval: pairs.eval,
    source,
    work,
    flags,
    featureNames,
    schemaSha: featureSchemaSha(featureNames),
    graph: new GoGraph(await repos.ontologies.oboDocument(payload.ontology_snapshot_id)),
    embedded,
  };
}

/** The newest annotation set of each version (integer `source_version`) of the source on the snapshot. */
async function annotationSets(
  repos: Repositories,
  source: string,
  snapshotId: string,
  versions: number[],
): Promise<Map<number, string>> {
  const byVersion = await repos.annotations.newestSetsByVersion(source, snapshotId, versions);
  const missing = [...new Set(versions)].filter((v) => !byVersion.has(v));
  if (missing.length > 0)
    throw new JobError(
      'annotation_set_not_found',
      `no ${source} annotation set with source_version ${missing.join(', ')} is loaded against ontology snapshot ${snapshotId}`,
    );
  return byVersion;
}
