import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { admitHttp, checkResolvedAddresses, SourcePolicy } from './source-policy';
import { SourceError } from './source-error';
import { limitTransfer, sourceLabel, transferError } from './transfer-limits';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export interface SourceResponse {
  status: number;
  headers: Headers;
  /** The body, held to the policy's deadline and minimum rate; the caller reads or destroys it. */
  body: Readable;
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

/**
 * One GET. The answer's headers must come before the transfer's deadline (`deadlineAt`, a clock
 * time; `source_timeout` past it, named by `label`), and the socket may idle at most `timeoutMs`.
 */
function getOnce(
  url: URL,
  checkDns: boolean,
  options: SourceRequestOptions,
  deadline: { at: number; label: string; policy: SourcePolicy },
): Promise<IncomingMessage> {
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
    const timer = setTimeout(
      () => request.destroy(transferError({ kind: 'timeout' }, deadline.label, deadline.policy)),
      Math.max(0, deadline.at - Date.now()),
    );
    timer.unref();
    request.once('close', () => clearTimeout(timer));
    request.once('error', (error) =>
      reject(
        error instanceof SourceError
          ? error
          : new SourceError('source_unreachable', `could not fetch ${url.href}: ${error.message}`),
      ),
    );
    request.once('response', (response) => {
      clearTimeout(timer);
      resolve(response);
    });
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
 * again, and host names are resolved through `guardedLookup`. The whole transfer, from the first
 * request to the last byte of the body, is held to the policy's deadline, and the body to its
 * minimum rate (`limitTransfer`).
 */
export async function requestSource(
  source: string,
  policy: SourcePolicy,
  options: SourceRequestOptions = {},
): Promise<SourceResponse> {
  const startedAt = Date.now();
  const label = sourceLabel(source);
  const deadline = { at: startedAt + policy.deadlineMs, label, policy };
  let current = source;
  for (let hop = 0; ; hop += 1) {
    const { url, checkDns } = admitHttp(current, policy);
    const response = await getOnce(url, checkDns, options, deadline);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(status) || location === undefined)
      return {
        status,
        headers: headersOf(response),
        body: limitTransfer(response, policy, { startedAt, label }),
        url: url.href,
      };
    response.destroy();
    if (hop >= MAX_REDIRECTS)
      throw new SourceError('source_unreachable', `${source} redirects more than ${MAX_REDIRECTS} times`);
    current = new URL(location, url).href;
  }
}
