/** Retries on 429 and 5xx with exponential backoff (honouring Retry-After), then fails. */
export async function fetchWithRetry(
  url: string,
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
      response = await fetch(url, {
        headers: options.headers,
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
    } catch (error) {
      failure = error as Error;
    }
    const retriable = response === null || response.status === 429 || response.status >= 500;
    if (!retriable) return response!;
    if (attempt >= retries) {
      if (response !== null) return response;
      throw failure ?? new Error(`request to ${url} failed`);
    }
    const retryAfter = Number(response?.headers.get('retry-after'));
    const delay =
      Number.isFinite(retryAfter) && retryAfter > 0
        ? retryAfter * 1000
        : (options.baseDelayMs ?? 500) * 2 ** attempt;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, 30_000)));
    attempt += 1;
  }
}
