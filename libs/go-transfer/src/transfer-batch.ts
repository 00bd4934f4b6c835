import {
  distanceOfScore,
  type HomologyHit,
  isSelfHit,
  QuerySummary,
  selectNeighbours,
  splitIsoform,
  transferTerms,
  TransferredTerm,
} from '@svc/domain';
import { normalizeRows } from '@svc/inference';
import { EmitFn } from '@svc/jobs';
import { Repositories, PredictionRow } from '@svc/persistence';
import { AppConfig, SourcePolicy } from '@svc/platform';
import { blendModelFor } from './blend/default-blend';
import { addExtraFeatures } from './extra-features';
import { homologyTransfer, searchHomologsAhead, type SubmittedKnown } from './homology-transfer';
import { ontologyView } from './ontology-cache';
import { pairFeatureService } from './pair-features';
import type { PriorComposition } from './prior-composition';
import { ReferenceIndex, referenceIndexCache } from './reference-index-cache';
import { taxonomyFeatures } from './taxonomy-features';
import type { TransferSettings } from './transfer-settings';

export type { TransferSettings } from './transfer-settings';

export interface TransferQuery {
  accession: string;
  sequence_id: number;
  taxonomy_id?: string | null;
}

export interface TransferResult {
  rows: PredictionRow[];
  /** Per query of the batch: the homologs (or neighbours) its terms could come from. */
  summaries: QuerySummary[];
  /** Queries skipped because the embedding config has no vector for their sequence. */
  queriesWithoutEmbedding: number;
  alignedPairs: number;
  /** Wall-clock seconds of the search and transfer, and of the alignments. */
  seconds: { knn: number; alignment: number };
  /**
   * The homology path's set prior and prior weights: what `splitPriorRows` needs to leave the
   * prior-only rows to be composed at read. Absent for an embedding search.
   */
  composition?: PriorComposition;
  /** The homology path's submitted known terms (absent for an embedding search, which ignores them). */
  submitted?: SubmittedKnown;
}

const since = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/** Extra hits searched beyond k, so excluding the query itself (and its isoforms) still leaves k. */
const SELF_MARGIN = 10;

interface PendingRow {
  query: { accession: string; sequenceId: number; taxonomyId: string | null };
  /** Null for a term the homology path scores by the prior alone. */
  ref: { accession: string; sequenceId: number } | null;
  term: TransferredTerm;
  /**
   * The distance the row stores, whose max(0, 1 - distance) is its score (docs/prediction.md,
   * "Score"): the neighbour's cosine distance, or 1 - the calibrated score of a homology row.
   */
  distance: number;
  /** Features of the search that made the row (the homology path's votes, prior and hit). */
  features?: Record<string, unknown>;
  /** The donor is the query's own accession or an isoform of it (only when self is not excluded). */
  selfHit: boolean;
}

/** Search backends that align sequences instead of searching embeddings. */
export const HOMOLOGY_BACKENDS: readonly string[] = ['diamond'];

/**
 * Nearest-neighbour GO transfer for one batch of queries: search the reference pool (per aspect when
 * asked), drop the query itself and its isoforms (unless `options.exclude_self` is false), transfer
 * the donors' terms, then add the features the flags ask for (alignments, taxonomy, the optional
 * extras). Prediction batches and research dataset exports both call this, so a booster trained on an
 * export sees the same features at inference.
 */
interface TransferInput {
  repos: Repositories;
  config: AppConfig;
  /** What the IA and term-embedding files may be read from (the process's source policy). */
  sources: SourcePolicy;
  settings: TransferSettings;
  queries: TransferQuery[];
  emit: EmitFn;
  throwIfCancelled: () => Promise<void>;
  /** Fires on a cancel or a shutdown; stops a running search tool. */
  signal?: AbortSignal;
  /** A homology batch's hits, searched ahead with other batches (`searchAhead`): no search here. */
  hits?: ReadonlyMap<string, HomologyHit[]>;
}

export async function transferBatch(input: TransferInput): Promise<TransferResult> {
  const { settings, throwIfCancelled } = input;
  const started = process.hrtime.bigint();
  const options = settings.options;
  const donorEvidence = donorEvidenceOf(settings);
  // Absent (older sets, dataset exports) means excluded: only an explicit false keeps the query's own entry.
  const excludeSelf = options['exclude_self'] !== false;
  const searched = HOMOLOGY_BACKENDS.includes(settings.search_backend)
    ? await homologySearch(input, donorEvidence, excludeSelf)
    : await vectorSearch(input, donorEvidence, excludeSelf);
  const { pending, queriesWithoutEmbedding, summaries, composition, submitted } = searched;
  const knnSeconds = since(started);
  await throwIfCancelled();
  return {
    ...(await featurise(input, pending, queriesWithoutEmbedding, knnSeconds)),
    summaries,
    ...(composition !== undefined ? { composition } : {}),
    ...(submitted !== undefined ? { submitted } : {}),
  };
}

async function homologySearch(
  input: TransferInput,
  donorEvidence: 'all' | 'experimental',
  excludeSelf: boolean,
): Promise<Searched> {
  // What the upload said is known of each query (GO=), read for this batch's queries only.
  const querySetId = input.settings.query_set_id ?? null;
  const knownGoIds =
    querySetId === null
      ? new Map<string, string[]>()
      : await input.repos.referencePools.knownGoIds(
          querySetId,
          input.queries.map((q) => q.accession),
        );
  const { terms, summaries, queriesWithoutSequence, composition, submitted } = await homologyTransfer({
    ...homologySettingsOf(input.config, input.settings, donorEvidence),
    repos: input.repos,
    excludeSelf,
    queries: input.queries.map((q) => ({
      ...q,
      known_go_ids: knownGoIds.get(q.accession) ?? null,
    })),
    model: blendModelFor(donorEvidence),
    ...(input.hits !== undefined ? { hits: input.hits } : {}),
    ...(input.signal !== undefined ? { signal: input.signal } : {}),
  });
  const pending = terms.map((t) => ({
    query: {
      accession: t.query.accession,
      sequenceId: t.query.sequence_id,
      taxonomyId: t.query.taxonomy_id ?? null,
    },
    ref: t.ref,
    term: t.term,
    distance: distanceOfScore(t.score),
    features: t.features,
    selfHit: t.selfHit,
  }));
  return { pending, summaries, queriesWithoutEmbedding: queriesWithoutSequence, composition, submitted };
}

/** The set's donor rule (`options.donor_evidence`); anything but `experimental` transfers every evidence code. */
function donorEvidenceOf(settings: Pick<TransferSettings, 'options'>): 'all' | 'experimental' {
  return settings.options['donor_evidence'] === 'experimental' ? 'experimental' : 'all';
}

/** Where the homology pool lives and how DIAMOND runs, from the process's settings and the set's. */
function homologySettingsOf(
  config: AppConfig,
  settings: Pick<TransferSettings, 'annotation_set_id' | 'ontology_snapshot_id'>,
  donorEvidence: 'all' | 'experimental',
) {
  return {
    pool: {
      artifactsDir: config.artifactsDir,
      binary: config.diamondBin,
      memoryFraction: config.poolMemoryFraction,
    },
    annotationSetId: settings.annotation_set_id,
    ontologySnapshotId: settings.ontology_snapshot_id,
    donorEvidence,
    blockSize: config.diamondBlockSize,
    indexChunks: config.diamondIndexChunks,
  };
}

/**
 * The DIAMOND hits of several batches of a homology set in one run (`searchHomologsAhead`): each
 * batch's tabular hits, for `transferBatch` to score through `hits` (after `hitsOfText`).
 */
export async function searchAhead(input: {
  repos: Repositories;
  config: AppConfig;
  settings: Pick<TransferSettings, 'annotation_set_id' | 'ontology_snapshot_id' | 'options'>;
  batches: readonly (readonly TransferQuery[])[];
  workDir: string;
  signal?: AbortSignal;
}): Promise<{ hits: string[]; queries: number; lines: number }> {
  const donorEvidence = donorEvidenceOf(input.settings);
  return searchHomologsAhead({
    ...homologySettingsOf(input.config, input.settings, donorEvidence),
    repos: input.repos,
    batches: input.batches,
    workDir: input.workDir,
    ...(input.signal !== undefined ? { signal: input.signal } : {}),
  });
}

interface Searched {
  pending: PendingRow[];
  summaries: QuerySummary[];
  queriesWithoutEmbedding: number;
  composition?: PriorComposition;
  submitted?: SubmittedKnown;
}

async function vectorSearch(
  input: TransferInput,
  donorEvidence: 'all' | 'experimental',
  excludeSelf: boolean,
): Promise<Searched> {
  const { repos, config, settings, throwIfCancelled } = input;
  const options = settings.options;
  const aspects = settings.aspect_separated_knn ? (['F', 'P', 'C'] as const) : ([null] as const);
  const cache = referenceIndexCache(repos, config.artifactsDir);
  const version = await cache.version(settings.embedding_config_id, settings.annotation_set_id);
  const indexes: ReferenceIndex[] = [];
  for (const aspect of aspects) {
    indexes.push(
      await cache.get(
        {
          embeddingConfigId: settings.embedding_config_id,
          annotationSetId: settings.annotation_set_id,
          aspect,
          donorEvidence,
          backend: settings.search_backend,
        },
        version,
      ),
    );
  }
  await throwIfCancelled();
  const pools = repos.referencePools;
  const vectors = await pools.vectorsBySequence(
    settings.embedding_config_id,
    input.queries.map((q) => q.sequence_id),
  );
  const ontology =
    options['expand_votes_to_ancestors'] === true
      ? await ontologyView(repos, settings.ontology_snapshot_id)
      : null;
  const frequencies = await cache.termFrequencies(settings.annotation_set_id, version);
  const pending: PendingRow[] = [];
  // Neighbours per query over every aspect's index; an embedding has no identity to report.
  const neighboursOf = new Map<string, Set<string>>(input.queries.map((q) => [q.accession, new Set()]));
  for (const index of indexes) {
    const queries = input.queries.filter((q) => vectors.get(q.sequence_id)?.length === index.dimensions);
    if (index.proteins.length === 0 || queries.length === 0) continue;
    const matrix = new Float32Array(queries.length * index.dimensions);
    queries.forEach((q, i) => matrix.set(vectors.get(q.sequence_id)!, i * index.dimensions));
    normalizeRows(matrix, index.dimensions);
    const hits = await index.index.search(matrix, settings.limit_per_entry + SELF_MARGIN);
    queries.forEach((q, i) => {
      const queryCanonical = splitIsoform(q.accession).canonicalAccession;
      const neighbours = selectNeighbours({
        hits: hits[i] ?? [],
        k: settings.limit_per_entry,
        queryAccession: q.accession,
        queryCanonical,
        accessionOf: (r) => index.proteins[r]!.accession,
        canonicalOf: (r) => index.proteins[r]!.canonicalAccession,
        distanceThreshold: settings.distance_threshold,
        excludeSelf,
      });
      for (const n of neighbours) neighboursOf.get(q.accession)?.add(index.proteins[n.refIndex]!.accession);
      const terms = transferTerms({
        neighbours,
        annotationsOf: (r) => index.annotations[r]!,
        termFrequency: (id) => frequencies.get(id) ?? 0,
        ...(ontology !== null ? { ancestorsOf: ontology.ancestorsOf, termInfo: ontology.termInfo } : {}),
      });
      for (const term of terms) {
        const ref = index.proteins[term.refIndex]!;
        pending.push({
          query: { accession: q.accession, sequenceId: q.sequence_id, taxonomyId: q.taxonomy_id ?? null },
          ref: { accession: ref.accession, sequenceId: ref.sequenceId },
          term,
          distance: term.distance,
          selfHit:
            !excludeSelf &&
            isSelfHit({
              queryAccession: q.accession,
              queryCanonical,
              accession: ref.accession,
              canonical: ref.canonicalAccession,
            }),
        });
      }
    });
  }
  const queriesWithoutEmbedding = input.queries.filter((q) => !vectors.has(q.sequence_id)).length;
  const summaries = [...neighboursOf].map(([accession, donors]) => ({
    accession,
    homologs: donors.size,
    best_identity: null,
    known_terms: 0,
  }));
  return { pending, summaries, queriesWithoutEmbedding };
}

/** Rows of the pending terms, with the features the flags ask for. */
async function featurise(
  input: TransferInput,
  pending: PendingRow[],
  queriesWithoutEmbedding: number,
  knnSeconds: number,
): Promise<Omit<TransferResult, 'summaries'>> {
  const { repos, config, settings, emit } = input;
  const options = settings.options;
  const pools = repos.referencePools;
  const homology = HOMOLOGY_BACKENDS.includes(settings.search_backend);
  const neighbourhood = options['compute_reranker_features'] !== false;
  const rows: PredictionRow[] = pending.map(({ query, ref, term, distance, features, selfHit }) => ({
    protein_accession: query.accession,
    go_term_id: term.goTermId,
    go_id: term.goId,
    aspect: term.aspect,
    distance,
    ref_protein_accession: ref?.accession ?? null,
    qualifier: term.qualifier,
    evidence_code: term.evidenceCode === '' ? null : term.evidenceCode,
    vote_count: term.voteCount,
    k_position: ref === null ? null : term.kPosition,
    ...(neighbourhood
      ? {
          go_term_frequency: term.goTermFrequency,
          ref_annotation_density: ref === null ? null : term.refAnnotationDensity,
          neighbor_distance_std: homology ? null : term.neighbourDistanceStd,
          neighbor_vote_fraction: term.neighbourVoteFraction,
        }
      : {}),
    features: {
      ...(neighbourhood && !homology
        ? { min_distance: term.minDistance, mean_distance: term.meanDistance }
        : {}),
      ...features,
      ...(term.viaDescendant ? { via_descendant: true } : {}),
      ...(selfHit ? { self_hit: true } : {}),
    },
  }));

  let alignedPairs = 0;
  const aligning = process.hrtime.bigint();
  if (options['compute_alignments'] !== false) {
    const withDonor = pending.filter((p) => p.ref !== null);
    const features = await pairFeatureService(config).compute(
      repos,
      withDonor.map((p) => ({ query: p.query.sequenceId, ref: p.ref!.sequenceId })),
    );
    alignedPairs = features.size;
    pending.forEach((p, i) => {
      if (p.ref !== null)
        Object.assign(rows[i]!, features.get(`${p.query.sequenceId}:${p.ref.sequenceId}`) ?? {});
    });
  }
  const alignmentSeconds = since(aligning);
  if (options['compute_taxonomy'] !== false) {
    // Donor taxa are read now, not from the cached index, so a re-annotated protein counts at once.
    const refTaxa = await pools.taxonomyIds([
      ...new Set(pending.flatMap((p) => (p.ref === null ? [] : [p.ref.accession]))),
    ]);
    // A prior-only row has no donor to compare with: it keeps the query's taxon and nothing else.
    const donorRows = pending.flatMap((p, i) => (p.ref === null ? [] : [i]));
    const taxonomy = await taxonomyFeatures(
      repos,
      donorRows.map((i) => ({
        query: pending[i]!.query.taxonomyId,
        ref: refTaxa.get(pending[i]!.ref!.accession) ?? null,
      })),
    );
    donorRows.forEach((row, i) => Object.assign(rows[row]!, taxonomy[i]));
    pending.forEach((p, i) => {
      if (p.ref === null) rows[i]!.query_taxonomy_id = p.query.taxonomyId;
    });
  }
  await addExtraFeatures({
    repos,
    set: settings,
    rows,
    pending: pending.map((p) => p.term),
    emit,
    sources: input.sources,
    termEmbeddingPath: config.termEmbeddingPath,
  });
  return {
    rows,
    queriesWithoutEmbedding,
    alignedPairs,
    seconds: { knn: knnSeconds, alignment: alignmentSeconds },
  };
}
