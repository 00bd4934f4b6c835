import { parseLinkHeader } from '@svc/domain';
import { JobError } from '@svc/jobs';
import { fetchWithRetry, isSettingFailure, SourcePolicy } from '@svc/platform';
import { sourceFailure } from './source-failure';

export interface UniProtPage {
  text: string;
  /** `x-total-results` of the search (NaN when the server does not say). */
  totalResults: number;
  /** Whether the search goes on after this page (a `Link: rel="next"`). */
  hasNext: boolean;
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
      if (isSettingFailure(error)) throw new JobError(error.code, error.message);
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
    yield { text, totalResults, hasNext: next !== null };
  }
}

/** The header and at most `rows` data lines of a TSV page, and whether lines were left out. */
export function firstRows(text: string, rows: number): { text: string; rows: number; cut: boolean } {
  const lines = text.split('\n');
  const kept: string[] = [];
  let header = false;
  let data = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    if (!header) {
      header = true;
    } else if (data >= rows) {
      return { text: `${kept.join('\n')}\n`, rows: data, cut: true };
    } else {
      data += 1;
    }
    kept.push(line);
  }
  return { text, rows: data, cut: false };
}
