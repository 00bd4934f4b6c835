import { PredictionsBatchPayload } from '@svc/contracts';
import { activeFeatureNames, featureFlagsOf, featureSchemaSha } from '@svc/domain';
import { scoreRows } from '@svc/inference';
import { EmitFn, JobError } from '@svc/jobs';
import { PredictionRow } from '@svc/persistence';
import { SourcePolicy } from '@svc/platform';
import { loadRerankerBooster } from './reranker-booster';

/** At most this many per-row scores travel in one batch event. */
const MAX_REPORTED = 5000;

/**
 * Applies the bound booster to a batch's rows when the live feature schema (from this batch's
 * flags) matches the booster's exactly; otherwise emits `reranker.schema_mismatch` and leaves the
 * KNN distance order. Scores are returned for the `predict_go_terms_batch.done` event and never
 * stored. Null when no re-ranker is bound or the schema did not match.
 */
export async function applyReranker(input: {
  payload: PredictionsBatchPayload;
  options: Record<string, unknown>;
  rows: PredictionRow[];
  emit: EmitFn;
  sources: SourcePolicy;
}): Promise<Record<string, unknown> | null> {
  const { payload, rows, emit } = input;
  const uri = payload.reranker_artifact_uri;
  const sha = payload.reranker_feature_schema_sha;
  if (uri === undefined || sha === undefined) return null;
  const live = featureSchemaSha(activeFeatureNames(featureFlagsOf(input.options)));
  if (live !== sha) {
    await emit(
      'reranker.schema_mismatch',
      'the batch features differ from the booster schema; KNN distance order kept',
      { live_feature_schema_sha: live, booster_feature_schema_sha: sha },
      'warning',
    );
    return null;
  }
  const booster = await loadRerankerBooster(uri, input.sources, {
    refused: 're-ranker',
    unusable: `re-ranker ${uri}`,
  });
  let scores: number[];
  try {
    scores = scoreRows(booster, rows);
  } catch (error) {
    throw new JobError('reranker_unusable', `re-ranker ${uri}: ${(error as Error).message}`);
  }
  const finite = scores.filter((s) => Number.isFinite(s));
  return {
    rows: scores.length,
    mean: finite.length > 0 ? finite.reduce((a, b) => a + b, 0) / finite.length : null,
    min: finite.length > 0 ? finite.reduce((a, b) => Math.min(a, b)) : null,
    max: finite.length > 0 ? finite.reduce((a, b) => Math.max(a, b)) : null,
    scores: rows.slice(0, MAX_REPORTED).map((r, i) => ({
      protein_accession: r.protein_accession,
      go_id: r.go_id,
      score: scores[i],
    })),
  };
}
