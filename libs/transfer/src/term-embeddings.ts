import { parseTermEmbeddings } from '@svc/domain';
import { JobError } from '@svc/jobs';
import { readText } from '@svc/platform';

const cache = new Map<string, Promise<Map<string, Float64Array>>>();

/** The configured term-embedding file, read once per worker process. */
export function loadTermEmbeddings(path: string): Promise<Map<string, Float64Array>> {
  let entry = cache.get(path);
  if (entry === undefined) {
    entry = readText(path)
      .then(parseTermEmbeddings)
      .catch((error: unknown) => {
        cache.delete(path);
        throw new JobError('term_embeddings_unreadable', `${path}: ${(error as Error).message}`);
      });
    cache.set(path, entry);
  }
  return entry;
}
