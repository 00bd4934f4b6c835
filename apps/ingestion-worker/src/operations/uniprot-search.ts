import { parseLinkHeader } from '@svc/domain';
import { JobError } from '@svc/jobs';
import { fetchWithRetry, SourceError, SourcePolicy } from '@svc/platform';
import { sourceFailure } from './source-failure';

export interface UniProtPage {
  text: string;
  /** `x-total-results` of the search (NaN when the server does not say). */
  totalResults: number;
}

/**
 * Pages of a UniProt REST search (`format=tsv`), following the cursor in the `Link: rel="next"`
 * header. Retries on 429/5xx come from fetchWithRetry; a 400 is the caller's query.
 */
export async function* uniprotSearchPages(
  baseUrl: string,
  query: URLSearchParams,
  sources: SourcePolicy,
): AsyncGenerator<UniProtPage> {
  let next: string | null = `${baseUrl}/uniprotkb/search?${query.toString()}`;
  while (next !== null) {
    const url: string = next;
    const response = await fetchWithRetry(url, sources).catch((error: Error) => {
      if (error instanceof SourceError && error.code === 'source_not_allowed')
        throw new JobError(error.code, error.message);
      throw new JobError('source_unreachable', `UniProt did not answer: ${error.message}`);
    });
    if (response.status === 400) {
      throw new JobError(
        'invalid_search',
        `UniProt rejected the query: ${(await response.text()).slice(0, 300)}`,
      );
    }
    if (!response.ok) throw new JobError('source_unreachable', `UniProt answered ${response.status}`);
    const totalResults = Number(response.headers.get('x-total-results') ?? NaN);
    const text = await response.text().catch((error: unknown) => {
      throw sourceFailure(error);
    });
    const link = parseLinkHeader(response.headers.get('link')).get('next');
    // A relative `next` target is resolved against the page it came from.
    next = link === undefined ? null : new URL(link, response.url || url).href;
    yield { text, totalResults };
  }
}
