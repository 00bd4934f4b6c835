import { PREDICT_GO_TERMS, PredictGoTermsPayload } from '@svc/contracts';
import { activeFeatureNames, featureFlagsOf, featureSchemaSha } from '@svc/domain';
import { defineOperation, deferTo, JobError, requireRow } from '@svc/jobs';
import { PredictionSetRepository, ReferencePoolRepository, RerankerRepository } from '@svc/persistence';
import { PREDICTIONS_BATCH } from './predictions-batch.step';

/**
 * Coordinator: validates the references, records the prediction set, lists the queries and sends
 * them in batches to svc.predictions.batch. The write steps tick progress by queries; the last tick
 * closes the job.
 */
export const predictGoTermsOperation = defineOperation<PredictGoTermsPayload>({
  spec: PREDICT_GO_TERMS,
  async execute({ job, payload, emit, db, dispatch, setProgress, plan }) {
    await requireRow(
      db,
      'embedding_config',
      payload.embedding_config_id,
      'embedding_config_not_found',
      'embedding config',
    );
    const annotationSet = await requireRow(
      db,
      'annotation_set',
      payload.annotation_set_id,
      'annotation_set_not_found',
      'annotation set',
    );
    await requireRow(
      db,
      'ontology_snapshot',
      payload.ontology_snapshot_id,
      'snapshot_not_found',
      'ontology snapshot',
    );
    if (annotationSet['ontology_snapshot_id'] !== payload.ontology_snapshot_id)
      throw new JobError(
        'snapshot_mismatch',
        `annotation set ${payload.annotation_set_id} was loaded against ontology snapshot ${String(
          annotationSet['ontology_snapshot_id'],
        )}, not ${payload.ontology_snapshot_id}`,
      );
    if (payload.query_set_id !== undefined)
      await requireRow(db, 'query_set', payload.query_set_id, 'query_set_not_found', 'query set');
    const flags = featureFlagsOf(payload);
    const liveSha = featureSchemaSha(activeFeatureNames(flags));
    let reranker: { artifact_uri: string; feature_schema_sha: string } | null = null;
    if (payload.reranker_model_id !== undefined) {
      const model = await new RerankerRepository(db).find(payload.reranker_model_id);
      if (model === null)
        throw new JobError('reranker_not_found', `re-ranker ${payload.reranker_model_id} does not exist`);
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

    // A re-run (handed back during an outage, or requeued after a crash) reuses the first run's
    // prediction set and queries, so the steps of both runs fill one set and commit once per batch.
    const { plan: planned, resumed } = await plan(async () => {
      const queries = await new ReferencePoolRepository(db).queries(
        payload.embedding_config_id,
        payload.query_set_id ?? null,
      );
      const predictionSetId = await new PredictionSetRepository(db).create({
        job_id: job.id,
        embedding_config_id: payload.embedding_config_id,
        annotation_set_id: payload.annotation_set_id,
        ontology_snapshot_id: payload.ontology_snapshot_id,
        query_set_id: payload.query_set_id ?? null,
        limit_per_entry: payload.limit_per_entry ?? 5,
        distance_threshold: payload.distance_threshold ?? null,
        search_backend: payload.search_backend ?? 'numpy',
        aspect_separated_knn: payload.aspect_separated_knn ?? true,
        options: {
          ...flags,
          expand_votes_to_ancestors: payload.expand_votes_to_ancestors ?? false,
          donor_evidence: payload.donor_evidence ?? 'all',
        },
        feature_schema_sha: liveSha,
        reranker_model_id: payload.reranker_model_id ?? null,
        query_count: queries.length,
      });
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
    const perBatch = payload.batch_size ?? 100;
    const batches = Math.ceil(queries.length / perBatch);
    await emit('predict_go_terms.planned', null, {
      prediction_set_id: predictionSetId,
      queries: queries.length,
      batches,
      search_backend: payload.search_backend ?? 'numpy',
      resumed,
    });
    if (queries.length === 0) return { prediction_set_id: predictionSetId, queries: 0, batches: 0 };
    await setProgress(resumed ? null : 0, queries.length);
    for (let start = 0; start < queries.length; start += perBatch) {
      await dispatch('svc.predictions.batch', PREDICTIONS_BATCH, {
        prediction_set_id: predictionSetId,
        queries: queries.slice(start, start + perBatch).map((q) => ({
          accession: q.accession,
          sequence_id: q.sequenceId,
          taxonomy_id: q.taxonomyId,
        })),
        ...(reranker !== null
          ? {
              reranker_artifact_uri: reranker.artifact_uri,
              reranker_feature_schema_sha: reranker.feature_schema_sha,
            }
          : {}),
      });
    }
    return deferTo(queries.length);
  },
});
