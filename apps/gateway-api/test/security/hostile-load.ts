import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';

const WORKSPACE_ROOT = join(__dirname, '..', '..', '..', '..');
const START_TIMEOUT_MS = 60_000;

/** What `sendLargeBody` reports when the server closed the connection before its answer was read. */
export const CLOSED_WHILE_SENDING = -1;

const bodies = new Map<number, Buffer>();

/** A valid JSON object of exactly `size` bytes (one long string member), shared between requests. */
export function jsonOfSize(size: number): Buffer {
  let body = bodies.get(size);
  if (body === undefined) {
    body = Buffer.alloc(size, 'a');
    body.write('{"p":"', 0);
    body.write('"}', size - 2);
    bodies.set(size, body);
  }
  return body;
}

/**
 * POSTs a valid JSON body of `size` bytes and resolves with the status as soon as the server answers.
 * With a Content-Length, the headers go first and the body only if no answer came within 200 ms (a
 * server that judges the length answers at once). Chunked, the body streams until the answer; a
 * server that refuses mid-body also closes the connection, which may beat its answer to the client:
 * that resolves CLOSED_WHILE_SENDING.
 */
export function sendLargeBody(
  url: string,
  path: string,
  options: { size: number; chunked: boolean; headers?: Record<string, string> },
): Promise<number> {
  const body = jsonOfSize(options.size);
  const chunkBytes = 256 * 1024;
  let sent = 0;
  const next = (): Buffer | null => {
    if (sent >= body.length) return null;
    const slice = body.subarray(sent, sent + chunkBytes);
    sent += slice.length;
    return slice;
  };
  const headers = {
    'content-type': 'application/json',
    ...(options.chunked ? {} : { 'content-length': String(options.size) }),
    ...options.headers,
  };
  // With a declared length the gateway can refuse before any byte is sent: give its answer time.
  return postUntilAnswered(new URL(path, url), headers, next, options.chunked ? 0 : 1000);
}

/**
 * POSTs the chunks `next` gives (null: the end), headers first and the body after `delayMs`, and
 * resolves with the status as soon as the server answers, however much was sent by then;
 * CLOSED_WHILE_SENDING when the server closed the connection before its answer was read.
 */
function postUntilAnswered(
  target: URL,
  headers: Record<string, string>,
  next: () => Buffer | null,
  delayMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { method: 'POST', host: target.hostname, port: target.port, path: target.pathname, headers },
      (res) => {
        answered = true;
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      answered = true;
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve(CLOSED_WHILE_SENDING);
      else reject(error);
    });
    const write = (): void => {
      while (!answered) {
        const chunk = next();
        if (chunk === null) {
          req.end();
          return;
        }
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
    };
    req.flushHeaders();
    setTimeout(write, delayMs);
  });
}

/** The resident set of a process (Linux); 0 once it has gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}

/** An app of the workspace in a process of its own, so that its memory can be measured apart. */
export interface MeasuredProcess {
  pid: number;
  output(): string;
  stop(): void;
}

/** Starts `apps/<name>/src/main.ts` with exactly `env` (plus PATH) and waits for `readyLog` in its output. */
export async function startMeasuredApp(
  name: string,
  env: Record<string, string>,
  readyLog: string,
): Promise<MeasuredProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '-r',
      join(WORKSPACE_ROOT, 'tools', 'register.js'),
      join(WORKSPACE_ROOT, 'apps', name, 'src', 'main.ts'),
    ],
    {
      cwd: WORKSPACE_ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const stop = (): void => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(
        new Error(`no '${readyLog}' from ${name} within ${START_TIMEOUT_MS} ms\n${output.slice(-2000)}`),
      );
    }, START_TIMEOUT_MS);
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(readyLog)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before '${readyLog}'\n${output.slice(-2000)}`));
    });
  });
  return { pid: child.pid ?? 0, output: () => output, stop };
}

/**
 * Sends eight concurrent anonymous JSON bodies of `size` bytes (four with a Content-Length, four
 * chunked) to the login and job routes, sampling the process's RSS every 10 ms. Returns the statuses,
 * the RSS before and the peak while they were answered.
 */
export async function measureLargeBodies(
  url: string,
  pid: number,
  size: number,
): Promise<{ statuses: number[]; beforeBytes: number; peakBytes: number }> {
  for (let i = 0; i < 5; i += 1) await fetch(`${url}/health`);
  const beforeBytes = rssBytes(pid);
  let peakBytes = beforeBytes;
  const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, rssBytes(pid))), 10);
  try {
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        sendLargeBody(url, i % 2 === 0 ? '/v1/auth/login' : '/v1/jobs', { size, chunked: i >= 4 }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { statuses, beforeBytes, peakBytes };
  } finally {
    clearInterval(sampler);
  }
}

const UPLOAD_BOUNDARY = 'svchostileupload';
/** 256 KiB of valid FASTA sequence lines, written again and again to make a large file part. */
const SEQUENCE_CHUNK = Buffer.from(
  `${'MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVK'.repeat(70)}\n`.repeat(64),
);

/**
 * POSTs an anonymous multipart upload of `parts` FASTA files of `size` bytes each and resolves with the
 * status as soon as the server answers (CLOSED_WHILE_SENDING when it closed first). With
 * `chunked: false` the Content-Length is declared up front and the body follows after 200 ms.
 */
export function sendLargeUpload(
  url: string,
  path: string,
  options: { size: number; parts: number; chunked: boolean; headers?: Record<string, string> },
): Promise<number> {
  const target = new URL(path, url);
  const head = (i: number) =>
    Buffer.from(
      `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="${i === 0 ? 'file' : `file${i}`}"; filename="big${i}.fasta"\r\nContent-Type: text/plain\r\n\r\n>BIG${i} hostile\n`,
    );
  const tail = Buffer.from(`\r\n--${UPLOAD_BOUNDARY}--\r\n`);
  const partBytes = (i: number) => head(i).length + options.size + 2;
  const total =
    Array.from({ length: options.parts }, (_, i) => partBytes(i)).reduce((a, b) => a + b, 0) + tail.length;
  // The parts as a queue of buffers: each part's head, its sequence chunks, then the closing boundary.
  let part = 0;
  let sentOfPart = -1;
  const next = (): Buffer | null => {
    if (part >= options.parts) return null;
    if (sentOfPart < 0) {
      sentOfPart = 0;
      return head(part);
    }
    if (sentOfPart < options.size) {
      const slice = SEQUENCE_CHUNK.subarray(0, Math.min(SEQUENCE_CHUNK.length, options.size - sentOfPart));
      sentOfPart += slice.length;
      return slice;
    }
    part += 1;
    sentOfPart = -1;
    return part < options.parts
      ? Buffer.from('\r\n')
      : Buffer.concat([Buffer.from('\r\n'), tail.subarray(2)]);
  };
  const headers = {
    'content-type': `multipart/form-data; boundary=${UPLOAD_BOUNDARY}`,
    ...(options.chunked ? {} : { 'content-length': String(total) }),
    ...options.headers,
  };
  return postUntilAnswered(target, headers, next, options.chunked ? 0 : 200);
}

/** Nearest-rank percentile of a sorted list. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The multipart attack of the hardening issue, anonymous, on the one-click route: four concurrent
 * uploads of one `size`-byte file (two declaring their length, two chunked), then one chunked upload
 * of three such files. Samples the gateway's RSS every 10 ms and `/health` every 20 ms throughout.
 */
export async function measureLargeUploads(
  url: string,
  pid: number,
  size: number,
): Promise<{
  statuses: number[];
  threePartStatus: number;
  beforeBytes: number;
  peakBytes: number;
  health: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
}> {
  for (let i = 0; i < 5; i += 1) await fetch(`${url}/health`);
  const beforeBytes = rssBytes(pid);
  let peakBytes = beforeBytes;
  const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, rssBytes(pid))), 10);
  const latencies: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      await fetch(`${url}/health`).then((res) => res.arrayBuffer());
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    // Four addresses' worth of guests is what one client can be; they all share the loopback address.
    const statuses = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        sendLargeUpload(url, '/v1/annotate', { size, parts: 1, chunked: i >= 2 }),
      ),
    );
    const threePartStatus = await sendLargeUpload(url, '/v1/annotate', { size, parts: 3, chunked: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    return {
      statuses,
      threePartStatus,
      beforeBytes,
      peakBytes,
      health: {
        count: latencies.length,
        p50Ms: percentile(
          [...latencies].sort((a, b) => a - b),
          50,
        ),
        p99Ms: percentile(
          [...latencies].sort((a, b) => a - b),
          99,
        ),
        maxMs: Math.max(0, ...latencies),
      },
    };
  } finally {
    probing = false;
    clearInterval(sampler);
    await probe;
  }
}
