import { BenchmarkConfig } from './benchmark-config';

/** The fields of an evaluation payload that decide how its prediction rows are scored. */
export interface ScoringSelection {
  scoring_config_id?: string;
  reranker_model_id?: string;
  rerankers?: object;
}

/**
 * The baseline scoring config to attach to an evaluation, by name, or null. Only a payload that
 * selects nothing gets it: with a re-ranker (one model, or a per-category selection, however
 * partial) the rows a model does not cover fall back to the row's score, and the result must not claim a
 * scoring config that did not score it.
 */
export function baselineScoringFor(input: {
  payload: ScoringSelection;
  config: Pick<BenchmarkConfig, 'baseline_scoring'>;
}): string | null {
  const { payload, config } = input;
  if (
    payload.scoring_config_id !== undefined ||
    payload.reranker_model_id !== undefined ||
    payload.rerankers !== undefined
  )
    return null;
  return config.baseline_scoring;
}
