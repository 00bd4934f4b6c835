import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';

// The demo's client of the public API: requests, uploads, jobs followed to their end with a progress bar.

export interface Job {
  id: string;
  status: string;
  progress_current: number | null;
  progress_total: number | null;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}

export class DemoError extends Error {}

/** The API with the session cookie of the demo's account. */
export class Api {
  cookie: string | null = null;

  constructor(readonly base: string) {}

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookie !== null) headers['cookie'] = this.cookie;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  async ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.request<T>(method, path, body);
    if (response.status >= 300)
      throw new DemoError(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  }

  /**
   * Uploads a local file as a source (POST /v1/sources) and returns the URI loads accept: the
   * service reads no folder of this machine unless its SVC_SOURCE_ALLOWED_ROOTS lists one.
   */
  async upload(file: string): Promise<string> {
    const form = new FormData();
    form.set('file', await openAsBlob(file), basename(file));
    const response = await fetch(`${this.base}/v1/sources`, {
      method: 'POST',
      body: form,
      headers: this.cookie !== null ? { cookie: this.cookie } : {},
    });
    const text = await response.text();
    if (response.status !== 201)
      throw new DemoError(`uploading ${basename(file)} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { uri: string }).uri;
  }
}

/** One line redrawn in place: `[#####-----]  50%  step 3/9  loading annotations (t0)  12/40`. */
export class ProgressBar {
  private lastLength = 0;

  constructor(
    private readonly steps: number,
    private readonly out: NodeJS.WriteStream = process.stdout,
  ) {}

  draw(step: number, label: string, current: number | null, total: number | null): void {
    const fraction = total !== null && total > 0 && current !== null ? Math.min(1, current / total) : 0;
    const overall = (step - 1 + fraction) / this.steps;
    const width = 30;
    const filled = Math.round(overall * width);
    const counter = total !== null && current !== null ? `  ${current}/${total}` : '';
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(overall * 100)).padStart(3)}%  step ${step}/${this.steps}  ${label}${counter}`;
    if (this.out.isTTY) {
      this.out.write(`\r${line}${' '.repeat(Math.max(0, this.lastLength - line.length))}`);
      this.lastLength = line.length;
    }
  }

  /** Ends a step: on a terminal the line stays; elsewhere one line per step keeps logs readable. */
  done(step: number, label: string, seconds: number): void {
    const line = `step ${step}/${this.steps} done: ${label} (${seconds.toFixed(1)} s)`;
    if (this.out.isTTY)
      this.out.write(`\r${line}${' '.repeat(Math.max(0, this.lastLength - line.length))}\n`);
    else this.out.write(`${line}\n`);
    this.lastLength = 0;
  }
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

export async function ready(base: string): Promise<boolean> {
  try {
    const response = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

export async function runJob(
  api: Api,
  bar: ProgressBar,
  step: number,
  label: string,
  path: string,
  body: unknown,
): Promise<Job> {
  const started = Date.now();
  const queued = await api.ok<{ id: string }>('POST', path, body);
  for (;;) {
    const job = await api.ok<Job>('GET', `/v1/jobs/${queued.id}`);
    bar.draw(step, label, job.progress_current, job.progress_total);
    if (job.status === 'SUCCEEDED') {
      bar.done(step, label, (Date.now() - started) / 1000);
      return job;
    }
    if (job.status === 'FAILED' || job.status === 'CANCELLED')
      throw new DemoError(`${label}: job ${job.id} ${job.status} (${job.error_code}: ${job.error_message})`);
    await sleep(300);
  }
}
