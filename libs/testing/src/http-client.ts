import { contractCheck } from './contract-check';
/** A small fetch wrapper for HTTP tests: JSON in, status, headers and parsed body out. */
export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  withHeaders(headers: Record<string, string>): HttpClient {
    return new HttpClient(this.baseUrl, { ...this.defaultHeaders, ...headers });
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

  /** `body` as a string is sent verbatim (for malformed-JSON tests). */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    const init: RequestInit = { method, headers: { ...this.defaultHeaders, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json', ...init.headers };
    }
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('json') && text.length > 0) parsed = JSON.parse(text);
    const violation = contractCheck()?.violation(method, path, response.status, type, parsed);
    if (violation) throw new Error(violation);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}
