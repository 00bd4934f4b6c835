import { request as httpRequest } from 'node:http';

/** The shape of the testing library's HttpResult, so both clients' answers read alike. */
export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * An HTTP client whose connections leave from a chosen loopback address (Linux routes all of
 * 127.0.0.0/8 to the loopback interface), so that each test is a caller of its own: the gateway
 * sees that address as the socket peer and keys limits on it.
 */
export class AddressClient {
  constructor(
    readonly baseUrl: string,
    readonly localAddress: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  withHeaders(headers: Record<string, string>): AddressClient {
    return new AddressClient(this.baseUrl, this.localAddress, { ...this.defaultHeaders, ...headers });
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

  /** `body` as a string or Buffer is sent verbatim (JSON content type unless a header says otherwise). */
  request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    const payload =
      body === undefined
        ? undefined
        : Buffer.isBuffer(body)
          ? body
          : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const all: Record<string, string> = {
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...this.defaultHeaders,
      ...headers,
    };
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          method,
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          localAddress: this.localAddress,
          headers: payload !== undefined ? { ...all, 'content-length': String(payload.length) } : all,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined)
                responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            const type = responseHeaders.get('content-type') ?? '';
            const parsed: unknown = type.includes('json') && text.length > 0 ? JSON.parse(text) : text;
            resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: parsed as T, text });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
}
