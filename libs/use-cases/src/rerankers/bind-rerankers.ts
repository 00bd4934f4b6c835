import { RunCafaEvaluationPayload } from '@svc/contracts';
import { LightGbmModel, ScoringWeights } from '@svc/domain';
import { scoreRows } from '@svc/inference';
import { missingReference } from '@svc/jobs';
import type { RerankerRepository } from '@svc/persistence';
import { SourcePolicy } from '@svc/platform';
import { EvaluationCategory } from '../evaluation/evaluate-prediction-set';
import { RowScorer, weightsScorer } from '../evaluation/scored-predictions';
import { loadRerankerBooster } from './reranker-booster';

const ASPECT_KEY: Record<string, 'bpo' | 'mfo' | 'cco'> = { P: 'bpo', F: 'mfo', C: 'cco' };

/**
 * The re-rankers of an evaluation: `reranker_model_id` scores every row; `rerankers` picks a model
 * per category and aspect (and wins where it names one). Rows no model covers keep the scoring
 * config's score (or the row's, max(0, 1 - distance)). Null when the payload names no re-ranker.
 */
export async function bindRerankers(
  repos: { rerankers: Pick<RerankerRepository, 'find'> },
  payload: RunCafaEvaluationPayload,
  weights: ScoringWeights | null,
  sources: SourcePolicy,
): Promise<{ ids: string[]; scorerFor: (category: EvaluationCategory) => RowScorer } | null> {
  if (payload.reranker_model_id === undefined && payload.rerankers === undefined) return null;
  const repository = repos.rerankers;
  const models = new Map<string, LightGbmModel>();
  const load = async (id: string): Promise<LightGbmModel> => {
    const known = models.get(id);
    if (known !== undefined) return known;
    const row = await repository.find(id);
    if (row === null) throw missingReference('reranker_model', id);
    const model = await loadRerankerBooster(row.artifact_uri, sources, {
      refused: `re-ranker ${id}`,
      unusable: `re-ranker ${id} (${row.artifact_uri})`,
    });
    models.set(id, model);
    return model;
  };
  const single = payload.reranker_model_id !== undefined ? await load(payload.reranker_model_id) : null;
  const perCategory: Record<string, Partial<Record<'bpo' | 'mfo' | 'cco', LightGbmModel>>> = {};
  for (const category of ['nk', 'lk', 'pk'] as const) {
    const aspects = payload.rerankers?.[category];
    if (aspects === undefined) continue;
    for (const aspect of ['bpo', 'mfo', 'cco'] as const) {
      const id = aspects[aspect];
      if (id !== undefined) (perCategory[category] ??= {})[aspect] = await load(id);
    }
  }
  const fallback = weightsScorer(weights);
  return {
    ids: [...models.keys()],
    scorerFor: (category) => (row) => {
      const aspect = ASPECT_KEY[String(row['go_aspect'])];
      const model =
        (aspect !== undefined ? perCategory[category.toLowerCase()]?.[aspect] : undefined) ?? single;
      return model === null || model === undefined
        ? fallback(row)
        : (scoreRows(model, [row])[0] ?? Number.NaN);
    },
  };
}
