import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { admitHttp, checkResolvedAddresses, SourcePolicy } from './source-policy';
import { SourceError } from './source-error';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export interface SourceResponse {
  status: number;
  headers: Headers;
  /** The body; the caller reads or destroys it. */
  body: IncomingMessage;
  /** Where the answer came from, after redirects. */
  url: string;
}

export interface SourceRequestOptions {
  headers?: Record<string, string>;
  /** Longest wait for the answer's headers, and for each chunk of its body. */
  timeoutMs?: number;
}

/**
 * A lookup that hands the connection only addresses it has checked: the socket connects to what
 * was classified, so a host cannot answer the check with a public address and the connection
 * with a private one (DNS rebinding).
 */
function guardedLookup(url: URL): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) return callback(error, '');
      try {
        checkResolvedAddresses(url, addresses);
      } catch (refusal) {
        return callback(refusal as SourceError, '');
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

function getOnce(url: URL, checkDns: boolean, options: SourceRequestOptions): Promise<IncomingMessage> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      headers: options.headers,
      ...(checkDns ? { lookup: guardedLookup(url) } : {}),
    });
    request.setTimeout(timeoutMs, () =>
      request.destroy(
        new SourceError('source_unreachable', `${url.origin} did not answer within ${timeoutMs} ms`),
      ),
    );
    request.once('error', (error) =>
      reject(
        error instanceof SourceError
          ? error
          : new SourceError('source_unreachable', `could not fetch ${url.href}: ${error.message}`),
      ),
    );
    request.once('response', resolve);
    request.end();
  });
}

function headersOf(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * GET under the source policy: every hop (redirects are followed here, at most five) is admitted
 * again, and host names are resolved through `guardedLookup`.
 */
export async function requestSource(
  source: string,
  policy: SourcePolicy,
  options: SourceRequestOptions = {},
): Promise<SourceResponse> {
  let current = source;
  for (let hop = 0; ; hop += 1) {
    const { url, checkDns } = admitHttp(current, policy);
    const response = await getOnce(url, checkDns, options);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(status) || location === undefined)
      return { status, headers: headersOf(response), body: response, url: url.href };
    response.destroy();
    if (hop >= MAX_REDIRECTS)
      throw new SourceError('source_unreachable', `${source} redirects more than ${MAX_REDIRECTS} times`);
    current = new URL(location, url).href;
  }
}
