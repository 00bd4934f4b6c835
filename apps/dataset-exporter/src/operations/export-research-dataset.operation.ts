import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXPORT_RESEARCH_DATASET, ExportResearchDatasetPayload } from '@svc/contracts';
import {
  activeFeatureNames,
  computeHoldoutDelta,
  DatasetPlanError,
  featureFlagsOf,
  featureSchemaSha,
  fitPca,
  GoGraph,
  HoldoutAnnotation,
  HoldoutCategory,
  HoldoutStats,
  PcaModel,
  planDatasetPairs,
  projectPca,
  propagatedTruth,
  SnapshotPair,
  snapshotPairLabel,
} from '@svc/domain';
import { defineOperation, JobError, requireRow } from '@svc/jobs';
import {
  DatasetRepository,
  loadHoldoutAnnotations,
  loadOboDocument,
  queryRows,
  ReferencePoolRepository,
} from '@svc/persistence';
import { sourcePolicyOf } from '@svc/platform';
import { transferBatch, TransferSettings } from '@svc/go-transfer';
import { DataSource } from 'typeorm';
import { datasetColumns, DatasetRow, DatasetTableWriter } from './dataset-table';

/** Queries per transfer call: bounds memory and sets the progress granularity. */
const BATCH = 100;
/** PCA is fitted on at most this many train queries (evenly spaced in accession order). */
const PCA_SAMPLE = 256;
const PCA_COMPONENTS = 8;

interface PairWork {
  split: 'train' | 'eval';
  pair: SnapshotPair;
  label: string;
  oldSetId: string;
  newSetId: string;
}

type Query = { accession: string; sequence_id: number; taxonomy_id: string | null };

/**
 * Freezes a re-ranker training set: for every snapshot pair, the proteins that gained experimental
 * annotations between the two releases are predicted by nearest-neighbour transfer from the older
 * release (the same code path as predict_go_terms) and each transferred term is labelled by whether
 * the newer release confirms it (or a descendant of it). Train pairs go to train.parquet, the
 * evaluation pair to eval.parquet; manifest.json describes both, and its sha256 is stored with the
 * Dataset row.
 */
export const exportResearchDatasetOperation = defineOperation<ExportResearchDatasetPayload>({
  spec: EXPORT_RESEARCH_DATASET,
  async execute({ job, payload, db, config, emit, setProgress, throwIfCancelled, artifacts }) {
    const started = process.hrtime.bigint();
    const elapsed = (): number => Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(3));
    let plan;
    try {
      plan = planDatasetPairs(payload.train_versions, payload.test_versions ?? []);
    } catch (error) {
      if (error instanceof DatasetPlanError) throw new JobError('invalid_versions', error.message);
      throw error;
    }
    const datasets = new DatasetRepository(db);
    if (await datasets.existsByName(payload.output_name))
      throw new JobError('dataset_exists', `a dataset named '${payload.output_name}' already exists`);
    await requireRow(
      db,
      'embedding_config',
      payload.embedding_config_id,
      'embedding_config_not_found',
      'embedding config',
    );
    await requireRow(
      db,
      'ontology_snapshot',
      payload.ontology_snapshot_id,
      'ontology_snapshot_not_found',
      'ontology snapshot',
    );
    const source = payload.annotation_source ?? 'goa';
    const versions = [...plan.train.flatMap((p) => [p.old, p.new]), ...(plan.eval ? [plan.eval.new] : [])];
    const sets = await annotationSets(db, source, payload.ontology_snapshot_id, versions);
    const work: PairWork[] = [
      ...plan.train.map((pair) => ({ split: 'train' as const, pair })),
      ...(plan.eval !== null ? [{ split: 'eval' as const, pair: plan.eval }] : []),
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
    const schemaSha = featureSchemaSha(featureNames);
    const graph = new GoGraph(await loadOboDocument(db, payload.ontology_snapshot_id));
    const embedded = new Map(
      (await new ReferencePoolRepository(db).queries(payload.embedding_config_id, null)).map((q) => [
        q.accession,
        { accession: q.accession, sequence_id: q.sequenceId, taxonomy_id: q.taxonomyId },
      ]),
    );

    // The holdout split of every pair first: it fixes the queries, so progress has a total.
    // A version that ends one pair starts the next: each set is read once.
    const annotationsOf = new Map<string, Promise<HoldoutAnnotation[]>>();
    const annotations = (setId: string): Promise<HoldoutAnnotation[]> => {
      let entry = annotationsOf.get(setId);
      if (entry === undefined) annotationsOf.set(setId, (entry = loadHoldoutAnnotations(db, setId)));
      return entry;
    };
    const deltas = [];
    for (const w of work) {
      const delta = computeHoldoutDelta({
        old: await annotations(w.oldSetId),
        new: await annotations(w.newSetId),
        ontology: graph,
      });
      const categories = new Map<string, HoldoutCategory>();
      const truthTerms: { protein: string; goId: string }[] = [];
      for (const category of ['NK', 'LK', 'PK'] as const)
        for (const t of delta.groundTruth[category]) {
          categories.set(`${t.protein}|${t.aspect}`, category);
          truthTerms.push({ protein: t.protein, goId: t.goId });
        }
      const proteins = [...new Set(truthTerms.map((t) => t.protein))].sort();
      const queries = proteins.map((p) => embedded.get(p)).filter((q): q is Query => q !== undefined);
      deltas.push({ work: w, categories, truth: propagatedTruth(truthTerms, graph), queries, delta });
      await emit('export_research_dataset.pair_planned', null, {
        pair: w.label,
        split: w.split,
        queries: queries.length,
        queries_without_embedding: proteins.length - queries.length,
        ...delta.stats,
      });
    }
    const trainQueries = deltas.filter((d) => d.work.split === 'train').flatMap((d) => d.queries);
    if (trainQueries.length === 0)
      throw new JobError(
        'empty_dataset',
        'no protein gained experimental annotations with an embedding in any train pair: nothing to train on',
      );
    const pca = payload.use_embedding_pca === true ? await fitQueryPca(db, payload, trainQueries) : null;
    const pcaNames = pca === null ? [] : pca.components.map((_, i) => `emb_pca_${i}`);
    const schemaShaV2 = pca === null ? null : featureSchemaSha([...featureNames, ...pcaNames]);
    const columns = datasetColumns([...featureNames, ...pcaNames]);

    const total = deltas.reduce((sum, d) => sum + d.queries.length, 0);
    await setProgress(0, total);
    const folder = await mkdtemp(join(tmpdir(), 'svc-dataset-'));
    try {
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
          options: { ...flags, donor_evidence: 'all', expand_votes_to_ancestors: false },
        };
        const writer = d.work.split === 'train' ? writers.train : writers.eval!;
        const seconds = { knn: 0, alignment: 0 };
        let rows = 0;
        let positives = 0;
        let alignedPairs = 0;
        const projections = pca !== null ? await projectQueries(db, payload, pca, d.queries) : null;
        for (let start = 0; start < d.queries.length; start += BATCH) {
          await throwIfCancelled();
          const batch = d.queries.slice(start, start + BATCH);
          const result = await transferBatch({
            db,
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
        if (flags.compute_alignments)
          await emit('export_research_dataset.alignment_done', null, {
            pair: d.work.label,
            split: d.work.split,
            aligned_pairs: alignedPairs,
            elapsed_s: Number(seconds.alignment.toFixed(3)),
          });
      }
      await writers.train.finish();
      await writers.eval?.finish();

      const store = artifacts;
      const prefix = `datasets/${payload.output_name}/`;
      // Checked again just before upload: another export may have taken the name meanwhile.
      if (await datasets.existsByName(payload.output_name))
        throw new JobError('dataset_exists', `a dataset named '${payload.output_name}' already exists`);
      const trainUri = await store.put(`${prefix}train.parquet`, { path: join(folder, 'train.parquet') });
      const evalUri =
        writers.eval !== null
          ? await store.put(`${prefix}eval.parquet`, { path: join(folder, 'eval.parquet') })
          : null;
      const producer = producerInfo();
      const manifest = {
        format: 'svc-research-dataset/1',
        name: payload.output_name,
        job_id: job.id,
        producer,
        embedding_config_id: payload.embedding_config_id,
        ontology_snapshot_id: payload.ontology_snapshot_id,
        annotation_source: source,
        k: payload.k ?? 5,
        search_backend: payload.search_backend ?? 'numpy',
        feature_flags: flags,
        feature_names: featureNames,
        schema_sha: schemaSha,
        schema_sha_v2: schemaShaV2,
        pca:
          pca === null
            ? null
            : {
                columns: pcaNames,
                mean: [...pca.mean],
                components: pca.components.map((c) => [...c]),
                variances: pca.variances,
              },
        label: 'term or an is_a/part_of ancestor of a term the newer release adds (experimental evidence)',
        columns: columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
        train: {
          uri: trainUri,
          rows: writers.train.rows,
          snapshot_pairs: deltas.filter((d) => d.work.split === 'train').map((d) => pairInfo(d)),
        },
        eval:
          writers.eval === null
            ? null
            : { uri: evalUri, rows: writers.eval.rows, snapshot_pair: pairInfo(deltas[deltas.length - 1]!) },
      };
      const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
      const manifestSha = createHash('sha256').update(manifestBytes).digest('hex');
      const manifestUri = await store.put(`${prefix}manifest.json`, manifestBytes);
      const dataset = await datasets.create({
        name: payload.output_name,
        operation: 'export_research_dataset',
        job_id: job.id,
        embedding_config_id: payload.embedding_config_id,
        ontology_snapshot_id: payload.ontology_snapshot_id,
        annotation_source: source,
        k: payload.k ?? 5,
        key_prefix: prefix,
        storage_backend: store.backend,
        train_uri: trainUri,
        eval_uri: evalUri,
        manifest_uri: manifestUri,
        manifest_sha: manifestSha,
        schema_sha: schemaSha,
        schema_sha_v2: schemaShaV2,
        n_train_rows: writers.train.rows,
        n_eval_rows: writers.eval?.rows ?? 0,
        train_snapshot_pairs: plan.train.map(snapshotPairLabel),
        eval_snapshot_pair: plan.eval !== null ? snapshotPairLabel(plan.eval) : null,
        producer_version: producer.version,
        producer_git_sha: producer.git_sha,
        meta: { feature_names: featureNames, search_backend: payload.search_backend ?? 'numpy' },
        owner_user_id: job.owner_user_id,
        visibility: 'owner',
      });
      await emit('export_research_dataset.published', null, {
        dataset_id: dataset.id,
        train_uri: trainUri,
        eval_uri: evalUri,
        manifest_uri: manifestUri,
        manifest_sha: manifestSha,
        elapsed_s: elapsed(),
      });
      return {
        dataset_id: dataset.id,
        name: dataset.name,
        train_uri: trainUri,
        eval_uri: evalUri,
        manifest_uri: manifestUri,
        manifest_sha: manifestSha,
        schema_sha: schemaSha,
        n_train_rows: dataset.n_train_rows,
        n_eval_rows: dataset.n_eval_rows,
      };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  },
});

function pairInfo(d: {
  work: PairWork;
  queries: readonly Query[];
  delta: { stats: HoldoutStats };
}): Record<string, unknown> {
  return {
    pair: d.work.label,
    old_annotation_set_id: d.work.oldSetId,
    new_annotation_set_id: d.work.newSetId,
    queries: d.queries.length,
    stats: d.delta.stats,
  };
}

/** The newest annotation set of each version (integer `source_version`) of the source on the snapshot. */
async function annotationSets(
  db: DataSource,
  source: string,
  snapshotId: string,
  versions: number[],
): Promise<Map<number, string>> {
  const rows = await queryRows<{ id: string; source_version: string }>(
    db,
    `SELECT DISTINCT ON (source_version) id, source_version FROM annotation_set
      WHERE source = $1 AND ontology_snapshot_id = $2 AND source_version = ANY($3::text[])
      ORDER BY source_version, created_at DESC`,
    [source, snapshotId, versions.map(String)],
  );
  const byVersion = new Map(rows.map((r) => [Number(r.source_version), r.id]));
  const missing = [...new Set(versions)].filter((v) => !byVersion.has(v));
  if (missing.length > 0)
    throw new JobError(
      'annotation_set_not_found',
      `no ${source} annotation set with source_version ${missing.join(', ')} is loaded against ontology snapshot ${snapshotId}`,
    );
  return byVersion;
}

async function fitQueryPca(
  db: DataSource,
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
  const vectors = await new ReferencePoolRepository(db).vectorsBySequence(
    payload.embedding_config_id,
    sample.map((q) => q.sequence_id),
  );
  return fitPca([...vectors.values()], Math.min(PCA_COMPONENTS, Math.max(1, vectors.size - 1)));
}

async function projectQueries(
  db: DataSource,
  payload: ExportResearchDatasetPayload,
  pca: PcaModel,
  queries: readonly Query[],
): Promise<Map<string, Record<string, number>>> {
  const vectors = await new ReferencePoolRepository(db).vectorsBySequence(
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

let producer: { version: string | null; git_sha: string | null } | null = null;

/** The service version from package.json and, when the code runs from a git checkout, its commit. */
function producerInfo(): { version: string | null; git_sha: string | null } {
  if (producer !== null) return producer;
  const root = resolve(__dirname, '../../../..');
  let version: string | null = null;
  try {
    version =
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    version = null;
  }
  let gitSha: string | null = null;
  try {
    gitSha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    gitSha = null;
  }
  producer = { version, git_sha: gitSha };
  return producer;
}
