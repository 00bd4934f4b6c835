import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

export class SourceError extends Error {
  constructor(
    readonly code: 'source_not_found' | 'source_unreachable' | 'unsupported_source',
    message: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Opens a data file by URL as a byte stream: http(s), file:// or a plain path (relative paths
 * resolve against `baseDir`). Gzip is recognised by its magic bytes, whatever the file name says.
 */
export async function openSource(
  url: string,
  options: { baseDir?: string; timeoutMs?: number } = {},
): Promise<Readable> {
  const raw = await openRaw(url, options);
  return decompressIfGzip(raw);
}

/** The source as lines (CR LF or LF), streamed. */
export async function* readLines(
  url: string,
  options: { baseDir?: string; timeoutMs?: number } = {},
): AsyncGenerator<string> {
  const stream = await openSource(url, options);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  for await (const line of lines) yield line;
}

export async function readText(url: string, options: { baseDir?: string } = {}): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openSource(url, options)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The source's bytes exactly as stored (gzip is not decoded): what a checksum is computed over. */
export async function readBytes(url: string, options: { baseDir?: string } = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openRaw(url, options)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function openRaw(url: string, options: { baseDir?: string; timeoutMs?: number }): Promise<Readable> {
  if (/^https?:\/\//i.test(url)) {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 300_000) });
    } catch (error) {
      throw new SourceError('source_unreachable', `could not fetch ${url}: ${(error as Error).message}`);
    }
    if (response.status === 404) throw new SourceError('source_not_found', `${url} answered 404`);
    if (!response.ok || response.body === null)
      throw new SourceError('source_unreachable', `${url} answered ${response.status}`);
    return Readable.fromWeb(response.body);
  }
  let path: string;
  if (/^file:\/\//i.test(url)) path = fileURLToPath(url);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url))
    throw new SourceError('unsupported_source', `unsupported URL scheme in ${url}`);
  else path = isAbsolute(url) ? url : resolve(options.baseDir ?? process.cwd(), url);
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
  } catch {
    throw new SourceError('source_not_found', `no such file: ${path}`);
  }
  return createReadStream(path);
}

async function decompressIfGzip(stream: Readable): Promise<Readable> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const out = new PassThrough();
  if (first.done === true) {
    out.end();
    return out;
  }
  const head = first.value;
  const gzip = head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  const rest = Readable.from(
    (async function* () {
      yield head;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield next.value;
      }
    })(),
  );
  if (!gzip) return rest;
  const gunzip = createGunzip();
  rest.on('error', (error) => gunzip.destroy(error));
  return rest.pipe(gunzip);
}
