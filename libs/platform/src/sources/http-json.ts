import { pipeline, Readable } from 'node:stream';
import { requestSource } from './guarded-http';
import { byteLimit, MAX_TEXT_BYTES } from './line-reader';
import { SourceError, SourceErrorCode } from './source-error';
import { SourcePolicy } from './source-policy';

/** Source failures a retry would only repeat. */
const NOT_RETRIED = new Set<SourceErrorCode>(['source_not_allowed', 'source_timeout', 'source_too_slow']);

/** Statuses a Response cannot carry a body with. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * GET under the source policy (every redirect hop checked, see `requestSource`) as a fetch
 * Response whose body stops at `policy.maxBytes`. Retries on 429, 5xx and transport failures with
 * exponential backoff (honouring Retry-After), then fails; a refused source, or one past its
 * deadline, is never retried.
 */
export async function fetchWithRetry(
  url: string,
  policy: SourcePolicy,
  options: {
    retries?: number;
    baseDelayMs?: number;
    timeoutMs?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const retries = options.retries ?? 4;
  let attempt = 0;
  for (;;) {
    let response: Response | null = null;
    let failure: Error | null = null;
    try {
      response = await fetchOnce(url, policy, options.headers, options.timeoutMs ?? 60_000);
    } catch (error) {
      // A refusal stays one; a deadline passed is not retried into several.
      if (error instanceof SourceError && NOT_RETRIED.has(error.code)) throw error;
      failure = error as Error;
    }
    const retriable = response === null || response.status === 429 || response.status >= 500;
    if (!retriable) return response!;
    if (attempt >= retries) {
      if (response !== null) return response;
      throw failure ?? new Error(`request to ${url} failed`);
    }
    await response?.body?.cancel();
    const retryAfter = Number(response?.headers.get('retry-after'));
    const delay =
      Number.isFinite(retryAfter) && retryAfter > 0
        ? retryAfter * 1000
        : (options.baseDelayMs ?? 500) * 2 ** attempt;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, 30_000)));
    attempt += 1;
  }
}

async function fetchOnce(
  url: string,
  policy: SourcePolicy,
  headers: Record<string, string> | undefined,
  timeoutMs: number,
): Promise<Response> {
  const answer = await requestSource(url, policy, { headers, timeoutMs });
  if (answer.status < 200 || answer.status > 599) {
    answer.body.destroy();
    throw new SourceError('source_unreachable', `${url} answered ${answer.status}`);
  }
  const body = NULL_BODY_STATUSES.has(answer.status)
    ? null
    : Readable.toWeb(
        pipeline(answer.body, byteLimit(Math.min(policy.maxBytes, MAX_TEXT_BYTES)), () => undefined),
      );
  if (body === null) answer.body.resume();
  const response = new Response(body, { status: answer.status, headers: answer.headers });
  // A constructed Response has no URL; callers resolve relative links (Link: rel="next") against it.
  Object.defineProperty(response, 'url', { value: answer.url });
  return response;
}
