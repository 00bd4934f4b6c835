import { PredictionsSearchPayload } from '@svc/contracts';
import { batchKey, defineStep, JobError } from '@svc/jobs';
import { putSearchedHits, searchAhead, sweepSearchAhead, withSearchAheadWorkDir } from '@svc/go-transfer';
import { predictionsBatchStep } from './predictions-batch.step';

/**
 * One DIAMOND run over several batches of a homology prediction (docs/scaling.md, "One search per
 * job"), each batch's hits left on the shared volume, then the batches sent on: every batch step
 * scores its queries from those hits instead of paying DIAMOND's per-run cost again.
 */
export const predictionsSearchStep = defineStep<PredictionsSearchPayload>({
  name: 'predict_go_terms_search',
  queue: 'svc.predictions.batch',
  payload: PredictionsSearchPayload,
  async execute({ payload, repos, dispatch, emit, throwIfCancelled, signal, config }) {
    const started = process.hrtime.bigint();
    const batches = payload.batches.map((b) => b.queries);
    // At most SEARCH_AHEAD_QUERIES in all (PredictionsSearchPayload checks it on arrival).
    const queries = batches.reduce((n, b) => n + b.length, 0);
    const set = await repos.predictionSets.find(payload.prediction_set_id);
    if (set === null)
      throw new JobError(
        'prediction_set_not_found',
        `prediction set ${payload.prediction_set_id} was deleted`,
      );
    await throwIfCancelled();
    await sweepSearchAhead(config.artifactsDir);
    // Said before DIAMOND starts: on a large reference the search takes minutes before any batch ticks.
    await emit('predict_go_terms_search.started', null, { batches: batches.length, queries });
    const searched = await withSearchAheadWorkDir(config.artifactsDir, set.id, (workDir) =>
      searchAhead({ repos, config, settings: set, batches, workDir, signal }),
    );
    const keys = batches.map((batch) => batchKey(batch.map((q) => q.accession)));
    for (const [i, key] of keys.entries())
      await putSearchedHits(config.artifactsDir, set.id, key, searched.hits[i] ?? '');
    await emit('predict_go_terms_search.done', null, {
      batches: batches.length,
      queries,
      searched_queries: searched.queries,
      hits: searched.lines,
      seconds: Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(3)),
    });
    for (const batch of batches)
      await dispatch(predictionsBatchStep, {
        prediction_set_id: set.id,
        queries: batch,
        ...(payload.reranker_artifact_uri !== undefined
          ? { reranker_artifact_uri: payload.reranker_artifact_uri }
          : {}),
        ...(payload.reranker_feature_schema_sha !== undefined
          ? { reranker_feature_schema_sha: payload.reranker_feature_schema_sha }
          : {}),
      });
  },
});
