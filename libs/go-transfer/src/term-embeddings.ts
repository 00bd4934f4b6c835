import { parseTermEmbeddings } from '@svc/domain';
import { JobError } from '@svc/jobs';
import { readText, SourcePolicy, withAllowedRoot } from '@svc/platform';

const cache = new Map<string, Promise<Map<string, Float64Array>>>();

/**
 * The configured term-embedding file, read once per worker process. An operator named it in the
 * settings, so it is read even outside the allowed roots; the size limits still apply.
 */
export function loadTermEmbeddings(path: string, sources: SourcePolicy): Promise<Map<string, Float64Array>> {
  let entry = cache.get(path);
  if (entry === undefined) {
    entry = readText(path, withAllowedRoot(sources, path))
      .then(parseTermEmbeddings)
      .catch((error: unknown) => {
        cache.delete(path);
        throw new JobError('term_embeddings_unreadable', `${path}: ${(error as Error).message}`);
      });
    cache.set(path, entry);
  }
  return entry;
}
