import {
  DEFAULT_SEARCH_BACKEND,
  PREDICT_GO_TERMS,
  PredictGoTermsPayload,
  type PredictionQueryItem,
  SEARCH_AHEAD_QUERIES,
} from '@svc/contracts';
import {
  activeFeatureNames,
  canRead,
  featureFlagsOf,
  featureSchemaSha,
  provenanceWarningCodes,
  provenanceWarnings,
  type ReferenceSummary,
} from '@svc/domain';
import {
  deferTo,
  defineOperation,
  JobContext,
  JobError,
  missingReference,
  requireReference,
} from '@svc/jobs';
import { blendModelFor, defaultBlendModel, HOMOLOGY_BACKENDS } from '@svc/go-transfer';
import type {
  EmbeddingRepository,
  JobRecord,
  ReferenceCheckRepository,
  ReferencePoolRepository,
} from '@svc/persistence';
import type { AppConfig } from '@svc/platform';
import { viewerOfJob } from './job-viewer';
import { requireHomologyTool } from './homology-tool';
import { predictionsBatchStep } from './predictions-batch.step';
import { predictionsSearchStep } from './predictions-search.step';

/**
 * Coordinator: validates the references, records the prediction set, lists the queries and sends
 * them in batches to svc.predictions.batch (with DIAMOND, through search-ahead steps that search
 * several batches at once). The write steps tick progress by queries; the last tick
 * closes the job. The job's result names the set at once, and the write steps add their rows to its
 * `prediction_count`, so the closed job says what it produced.
 */
/**
 * Queries per batch with DIAMOND. A DIAMOND run costs about 5 s whatever its number of queries
 * (--sensitive indexes the whole reference), then about 3 ms per query: 500 queries took 6.7 s,
 * 2,000 about 11 s. Larger batches waste less of that fixed cost, on one worker and across many, as
 * long as a proteome still makes at least as many batches as there are workers (20,000 proteins:
 * 10 batches); `batch_size` sets it per request.
 */
export const HOMOLOGY_BATCH = 2000;

export const predictGoTermsOperation = defineOperation<PredictGoTermsPayload>({
  spec: PREDICT_GO_TERMS,
  async execute({ job, payload, emit, repos, dispatch, setProgress, plan, config }) {
    const { backend, homology } = await checkPredictionInputs({ job, payload, repos, config });
    // DIAMOND's hits carry identity, bitscore and e-value: the TypeScript alignments are an opt-in there.
    const flags = featureFlagsOf({
      ...payload,
      compute_alignments: payload.compute_alignments ?? !homology,
    });
    const liveSha = featureSchemaSha(activeFeatureNames(flags));
    const reranker = await bindReranker({ payload, repos, emit, liveSha });

    // What the answer will stand on, said before any batch runs (docs/prediction.md, "What backs a
    // prediction").
    const { reference, donorEvidence, referenceWarnings, referenceWarningCodes } = await describeBacking({
      payload,
      repos,
      emit,
      backend,
      homology,
    });

    // A re-run (handed back during an outage, or requeued after a crash) reuses the first run's
    // prediction set and queries, so the steps of both runs fill one set and commit once per batch.
    const { plan: planned, resumed } = await plan(async () => {
      const queries = await repos.referencePools.queries(
        payload.embedding_config_id,
        payload.query_set_id ?? null,
      );
      const predictionSetId = await repos.predictionSets.create({
        job_id: job.id,
        embedding_config_id: payload.embedding_config_id,
        annotation_set_id: payload.annotation_set_id,
        ontology_snapshot_id: payload.ontology_snapshot_id,
        query_set_id: payload.query_set_id ?? null,
        limit_per_entry: payload.limit_per_entry ?? 5,
        distance_threshold: payload.distance_threshold ?? null,
        search_backend: backend,
        aspect_separated_knn: payload.aspect_separated_knn ?? true,
        options: {
          ...flags,
          expand_votes_to_ancestors: payload.expand_votes_to_ancestors ?? false,
          donor_evidence: donorEvidence,
          exclude_self: payload.exclude_self ?? true,
          ...(homology ? { blend_model: blendModelFor(donorEvidence).version } : {}),
        },
        feature_schema_sha: liveSha,
        reranker_model_id: payload.reranker_model_id ?? null,
        query_count: queries.length,
        // The set belongs to whoever the job works for; a one-click guest result expires with its job.
        owner_user_id: job.owner_user_id,
        visibility: job.visibility,
        expires_at: job.expires_at,
      });
      await repos.predictionProvenance.setReference(predictionSetId, reference);
      return {
        predictionSetId,
        queries: queries.map((q) => ({
          accession: q.accession,
          sequenceId: q.sequenceId,
          taxonomyId: q.taxonomyId,
        })),
      };
    });
    const { predictionSetId, queries } = planned;
    const perBatch = payload.batch_size ?? (homology ? HOMOLOGY_BATCH : 100);
    const batches = Math.ceil(queries.length / perBatch);
    const excludeSelf = payload.exclude_self ?? true;
    await emit('predict_go_terms.planned', null, {
      prediction_set_id: predictionSetId,
      queries: queries.length,
      batches,
      search_backend: backend,
      exclude_self: excludeSelf,
      resumed,
    });
    if (queries.length === 0)
      return {
        prediction_set_id: predictionSetId,
        queries: 0,
        batches: 0,
        prediction_count: 0,
        exclude_self: excludeSelf,
        reference,
        warnings: referenceWarnings,
        warning_codes: referenceWarningCodes,
      };
    // Before any batch is sent: the steps' counts add to this, and a resumed run keeps what they added.
    await repos.jobs.mergeResult(job.id, {
      fields: {
        prediction_set_id: predictionSetId,
        queries: queries.length,
        batches,
        exclude_self: excludeSelf,
        reference,
        warnings: referenceWarnings,
        warning_codes: referenceWarningCodes,
      },
      counts: { prediction_count: 0 },
    });
    await setProgress(resumed ? null : 0, queries.length);
    const rerankerFields =
      reranker !== null
        ? {
            reranker_artifact_uri: reranker.artifact_uri,
            reranker_feature_schema_sha: reranker.feature_schema_sha,
          }
        : {};
    const batchList: PredictionQueryItem[][] = [];
    for (let start = 0; start < queries.length; start += perBatch)
      batchList.push(
        queries.slice(start, start + perBatch).map((q) => ({
          accession: q.accession,
          sequence_id: q.sequenceId,
          taxonomy_id: q.taxonomyId,
        })),
      );
    const groups = searchAheadGroups({
      batches: batchList.length,
      perBatch,
      homology,
      searchAheadQueries: config.searchAheadQueries,
    });
    if (groups !== null)
      for (const group of groups)
        await dispatch(predictionsSearchStep, {
          prediction_set_id: predictionSetId,
          batches: group.map((b) => ({ queries: batchList[b]! })),
          ...rerankerFields,
        });
    else
      for (const batch of batchList)
        await dispatch(predictionsBatchStep, {
          prediction_set_id: predictionSetId,
          queries: batch,
          ...rerankerFields,
        });
    return deferTo(queries.length);
  },
});

/**
 * With DIAMOND, several batches share one search (predictions-search.step.ts), so a run's fixed cost
 * is paid once per `SVC_SEARCH_AHEAD_QUERIES` queries instead of once per batch: the batches (by
 * index) each search-ahead step takes, or null when the batches search for themselves (an embedding
 * backend, one batch, or a search that would hold a single batch).
 */
export function searchAheadGroups(input: {
  batches: number;
  perBatch: number;
  homology: boolean;
  searchAheadQueries: number;
}): number[][] | null {
  const perSearch = Math.floor(Math.min(input.searchAheadQueries, SEARCH_AHEAD_QUERIES) / input.perBatch);
  if (!input.homology || input.batches < 2 || perSearch < 2) return null;
  const groups: number[][] = [];
  for (let start = 0; start < input.batches; start += perSearch)
    groups.push(Array.from({ length: Math.min(perSearch, input.batches - start) }, (_, i) => start + i));
  return groups;
}

type Context = JobContext<PredictGoTermsPayload>;

/** What the input checks of a prediction read, narrowed to the calls they make. */
export interface PredictionInputReads {
  embeddings: Pick<EmbeddingRepository, 'findConfig'>;
  references: Pick<ReferenceCheckRepository, 'snapshotOfAnnotationSet' | 'ownership' | 'find'>;
  referencePools: Pick<
    ReferencePoolRepository,
    'hasEmbeddedQueries' | 'hasSequenceReferences' | 'hasEmbeddedReferences'
  >;
}

/**
 * The references a prediction reads, checked before anything is recorded: they exist, agree on one
 * ontology snapshot, the submitter may read the query set, the search tool is installed, and there
 * are queries and donors to predict with (each refusal a job error code).
 */
export async function checkPredictionInputs({
  job,
  payload,
  repos,
  config,
}: {
  job: Pick<JobRecord, 'owner_user_id' | 'submitted_role'>;
  payload: PredictGoTermsPayload;
  repos: PredictionInputReads;
  config: Pick<AppConfig, 'diamondBin'>;
}): Promise<{ backend: string; homology: boolean }> {
  const embeddingConfig = await repos.embeddings.findConfig(payload.embedding_config_id);
  if (embeddingConfig === null) throw missingReference('embedding_config', payload.embedding_config_id);
  const setSnapshot = await repos.references.snapshotOfAnnotationSet(payload.annotation_set_id);
  if (setSnapshot === null) throw missingReference('annotation_set', payload.annotation_set_id);
  // The set's own snapshot exists (a foreign key); only another one needs looking up.
  if (setSnapshot !== payload.ontology_snapshot_id) {
    await requireReference(repos.references, 'ontology_snapshot', payload.ontology_snapshot_id);
    throw new JobError(
      'snapshot_mismatch',
      `annotation set ${payload.annotation_set_id} was loaded against ontology snapshot ${String(setSnapshot)}, not ${payload.ontology_snapshot_id}`,
    );
  }
  if (payload.query_set_id !== undefined) {
    // Whatever path queued the job, it reads only sequences its submitter may read; someone else's
    // set is reported as missing, like the gateway's 404.
    const querySet = await repos.references.ownership('query_set', payload.query_set_id);
    if (querySet === null || !canRead(viewerOfJob(job), querySet))
      throw missingReference('query_set', payload.query_set_id);
  }
  const backend = payload.search_backend ?? DEFAULT_SEARCH_BACKEND;
  const homology = HOMOLOGY_BACKENDS.includes(backend);
  if (homology) await requireHomologyTool(backend, config.diamondBin);
  // Without a vector no query has neighbours: the job would succeed with an empty prediction set.
  // The homology path aligns the query set's sequences, but without a query set it predicts for
  // the embedded proteins, like the vector backends.
  if (
    (!homology || payload.query_set_id === undefined) &&
    !(await repos.referencePools.hasEmbeddedQueries(
      payload.embedding_config_id,
      payload.query_set_id ?? null,
    ))
  ) {
    const config = `embedding config ${payload.embedding_config_id} (${embeddingConfig.model_name})`;
    throw new JobError(
      'no_query_embeddings',
      payload.query_set_id !== undefined
        ? `query set ${payload.query_set_id} has no embeddings for ${config}: run compute_embeddings for this config on the query set first`
        : `no protein has an embedding for ${config}: run compute_embeddings for this config first`,
    );
  }
  // Without references nothing can donate: the job would succeed with an empty set.
  if (homology && !(await repos.referencePools.hasSequenceReferences(payload.annotation_set_id))) {
    throw new JobError(
      'empty_reference_pool',
      `annotation set ${payload.annotation_set_id} annotates no protein with a sequence: load the reference proteins and their sequences first`,
    );
  }
  if (
    !homology &&
    !(await repos.referencePools.hasEmbeddedReferences(
      payload.embedding_config_id,
      payload.annotation_set_id,
    ))
  ) {
    throw new JobError(
      'empty_reference_pool',
      `no annotated protein of annotation set ${payload.annotation_set_id} has an embedding for embedding config ${payload.embedding_config_id}: an operator must run compute_embeddings for this config over the reference proteins (POST /v1/embeddings/compute without query_set_id) first`,
    );
  }
  return { backend, homology };
}

/** The re-ranker a prediction names, as its batches will apply it; null without one. */
async function bindReranker({
  payload,
  repos,
  emit,
  liveSha,
}: Pick<Context, 'payload' | 'repos' | 'emit'> & { liveSha: string }): Promise<{
  artifact_uri: string;
  feature_schema_sha: string;
} | null> {
  let reranker: { artifact_uri: string; feature_schema_sha: string } | null = null;
  if (payload.reranker_model_id !== undefined) {
    const model = await repos.rerankers.find(payload.reranker_model_id);
    if (model === null) throw missingReference('reranker_model', payload.reranker_model_id);
    if (model.artifact_uri === '' || model.feature_schema_sha === '')
      throw new JobError(
        'reranker_incomplete',
        `re-ranker ${model.id} has no artifact_uri or feature_schema_sha`,
      );
    reranker = { artifact_uri: model.artifact_uri, feature_schema_sha: model.feature_schema_sha };
    await emit('predict_go_terms.reranker_bound', null, {
      reranker_model_id: model.id,
      artifact_uri: model.artifact_uri,
      feature_schema_sha: model.feature_schema_sha,
      live_feature_schema_sha: liveSha,
    });
  }
  return reranker;
}

/** The reference a prediction stands on and the warnings it calls for, recorded as an event. */
async function describeBacking({
  payload,
  repos,
  emit,
  backend,
  homology,
}: Pick<Context, 'payload' | 'repos' | 'emit'> & { backend: string; homology: boolean }) {
  // Each donor policy scores with the blend fitted for it; a set whose recorded blend was fitted for
  // another policy is warned of when it is read.
  const donorEvidence = payload.donor_evidence ?? (homology ? defaultBlendModel().donor_evidence : 'all');
  const blend = blendModelFor(donorEvidence);
  const stored = await repos.predictionProvenance.describeReference(payload.annotation_set_id, donorEvidence);
  if (stored === null) throw missingReference('annotation_set', payload.annotation_set_id);
  const reference: ReferenceSummary = {
    ...stored,
    search_backend: backend,
    blend_version: homology ? blend.version : null,
    blend_donor_evidence: homology ? blend.donor_evidence : null,
    self_transfer: payload.exclude_self === false,
  };
  const referenceWarnings = provenanceWarnings(reference, null);
  const referenceWarningCodes = provenanceWarningCodes(reference, null);
  await emit('predict_go_terms.reference', referenceWarnings.join(' ') || null, { ...reference });
  return { reference, donorEvidence, referenceWarnings, referenceWarningCodes };
}
