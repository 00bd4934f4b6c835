import { RunCafaEvaluationPayload } from '@svc/contracts';
import { LightGbmModel, ScoringWeights } from '@svc/domain';
import { loadBooster, scoreRows } from '@svc/inference';
import { JobError, missingReference } from '@svc/jobs';
import { Repositories } from '@svc/persistence';
import { EvaluationCategory, RowScorer, weightsScorer } from '@svc/use-cases';
import { SourceError, SourcePolicy } from '@svc/platform';

const ASPECT_KEY: Record<string, 'bpo' | 'mfo' | 'cco'> = { P: 'bpo', F: 'mfo', C: 'cco' };

/**
 * The re-rankers of an evaluation: `reranker_model_id` scores every row; `rerankers` picks a model
 * per category and aspect (and wins where it names one). Rows no model covers keep the scoring
 * config's score (or the row's, max(0, 1 - distance)). Null when the payload names no re-ranker.
 */
export async function bindRerankers(
  repos: Repositories,
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
    try {
      const model = await loadBooster(row.artifact_uri, sources);
      models.set(id, model);
      return model;
    } catch (error) {
      if (error instanceof SourceError && error.code === 'source_not_allowed')
        throw new JobError(error.code, `re-ranker ${id}: ${error.message}`);
      throw new JobError(
        'reranker_unusable',
        `re-ranker ${id} (${row.artifact_uri}): ${(error as Error).message}`,
      );
    }
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
