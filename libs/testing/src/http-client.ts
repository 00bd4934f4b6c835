import { request as httpRequest } from 'node:http';
import { contractCheck } from './contract-check';

/** A small HTTP client for tests: JSON in, status, headers and parsed body out. */
export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface HttpClientOptions {
  /**
   * The loopback address connections leave from (Linux routes all of 127.0.0.0/8 to the loopback
   * interface), so that each test is a caller of its own: the gateway sees that address as the
   * socket peer and keys limits on it. Without it, requests go through `fetch`.
   */
  localAddress?: string;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
    private readonly options: HttpClientOptions = {},
  ) {}

  withHeaders(headers: Record<string, string>): HttpClient {
    return new HttpClient(this.baseUrl, { ...this.defaultHeaders, ...headers }, this.options);
  }

  get<T = unknown>(path: string, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = unknown>(
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    return this.request<T>('POST', path, body, headers);
  }

  patch<T = unknown>(
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    return this.request<T>('PATCH', path, body, headers);
  }

  delete<T = unknown>(path: string, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    return this.request<T>('DELETE', path, undefined, headers);
  }

  /** `body` as a string or Buffer is sent verbatim (for malformed-JSON tests), anything else as JSON. */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    const payload =
      body === undefined
        ? undefined
        : typeof body === 'string' || Buffer.isBuffer(body)
          ? body
          : JSON.stringify(body);
    const all: Record<string, string> = {
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...this.defaultHeaders,
      ...headers,
    };
    const answer =
      this.options.localAddress !== undefined
        ? await sendFrom(this.options.localAddress, new URL(path, this.baseUrl), method, all, payload)
        : await fetch(`${this.baseUrl}${path}`, { method, headers: all, body: payload }).then(
            async (response) => ({
              status: response.status,
              headers: response.headers,
              text: await response.text(),
            }),
          );
    const { status, text } = answer;
    let parsed: unknown = text;
    const type = answer.headers.get('content-type') ?? '';
    if (type.includes('json') && text.length > 0) parsed = JSON.parse(text);
    const violation = contractCheck()?.violation(method, path, status, type, parsed);
    if (violation) throw new Error(violation);
    return { status, headers: answer.headers, body: parsed as T, text };
  }
}

/** One request over node:http from `localAddress`. */
function sendFrom(
  localAddress: string,
  url: URL,
  method: string,
  headers: Record<string, string>,
  payload: string | Buffer | undefined,
): Promise<{ status: number; headers: Headers; text: string }> {
  const bytes = payload === undefined ? undefined : Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        method,
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        localAddress,
        headers: bytes !== undefined ? { ...headers, 'content-length': String(bytes.length) } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined)
              responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: responseHeaders,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}
