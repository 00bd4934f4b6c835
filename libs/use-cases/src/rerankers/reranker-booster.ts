import { LightGbmModel } from '@svc/domain';
import { loadBooster } from '@svc/inference';
import { JobError } from '@svc/jobs';
import { SourceError, SourcePolicy } from '@svc/platform';

/**
 * A re-ranker's booster, read from its source under the worker's source policy. A source the policy
 * refuses fails the job `source_not_allowed`; any other failure (unreadable, not a LightGBM model)
 * `reranker_unusable`. `names` words the two messages: the model as the caller knows it.
 */
export async function loadRerankerBooster(
  uri: string,
  sources: SourcePolicy,
  names: { refused: string; unusable: string },
): Promise<LightGbmModel> {
  try {
    return await loadBooster(uri, sources);
  } catch (error) {
    if (error instanceof SourceError && error.code === 'source_not_allowed')
      throw new JobError(error.code, `${names.refused}: ${error.message}`);
    throw new JobError('reranker_unusable', `${names.unusable}: ${(error as Error).message}`);
  }
}
