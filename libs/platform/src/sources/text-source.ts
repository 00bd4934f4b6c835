import { constants as bufferConstants } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline, Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ArtifactNotFoundError, type ArtifactStore } from '../artifacts/artifact-store';
import { byteLimit, splitLines, MAX_TEXT_BYTES } from './line-reader';
import { asSourceError, SourceError } from './source-error';
import { admitSource, SourcePolicy } from './source-policy';
import { requestSource } from './guarded-http';

const GZIP_MAGIC = [0x1f, 0x8b];
const MAX_BYTES_SETTING = 'SVC_SOURCE_MAX_BYTES';
const WHOLE_FILE_LIMIT = `${MAX_BYTES_SETTING}, and at most 512 MiB for a file read whole`;

export interface SourceReadOptions {
  timeoutMs?: number;
}

/**
 * Opens a data source under `policy` (see `admitSource`) as a byte stream: a URI of the artifact
 * store, a file:// URL or path, or http(s). Gzip is recognised by its magic bytes whatever the
 * name says, and the decompressed stream fails with `source_too_large` past `policy.maxBytes`.
 */
export async function openSource(
  url: string,
  policy: SourcePolicy,
  options: SourceReadOptions = {},
): Promise<Readable> {
  return decompressIfGzip(await openRaw(url, policy, options), policy.maxBytes, MAX_BYTES_SETTING);
}

/** The source as lines (CR LF or LF), streamed, none longer than `policy.maxLineBytes`. */
export async function* readLines(
  url: string,
  policy: SourcePolicy,
  options: SourceReadOptions = {},
): AsyncGenerator<string> {
  const stream = await openSource(url, policy, options);
  try {
    yield* splitLines(stream, policy.maxLineBytes);
  } catch (error) {
    throw asSourceError(error);
  } finally {
    stream.destroy();
  }
}

/** The whole (decompressed) source as text, for loaders that parse a file at once. */
export async function readText(
  url: string,
  policy: SourcePolicy,
  options: SourceReadOptions = {},
): Promise<string> {
  const limit = Math.min(policy.maxBytes, MAX_TEXT_BYTES);
  const stream = await decompressIfGzip(await openRaw(url, policy, options), limit, WHOLE_FILE_LIMIT);
  return (await collect(stream)).toString('utf8');
}

/** The source's bytes exactly as stored (gzip is not decoded): what a checksum is computed over. */
export async function readBytes(
  url: string,
  policy: SourcePolicy,
  options: SourceReadOptions = {},
): Promise<Buffer> {
  const limit = Math.min(policy.maxBytes, MAX_TEXT_BYTES, bufferConstants.MAX_LENGTH);
  const raw = await openRaw(url, policy, options);
  return collect(pipeline(raw, byteLimit(limit, WHOLE_FILE_LIMIT), () => undefined));
}

/**
 * Copies a source's bytes as stored (gzip is not decoded) into the artifact store under `key`,
 * hashing them on the way: the file is read once, and a load then reads the staged copy whose
 * SHA-256 was checked. At most `policy.maxBytes` are copied.
 */
export async function stageSource(
  url: string,
  policy: SourcePolicy,
  store: ArtifactStore,
  key: string,
): Promise<{ uri: string; sha256: string; bytes: number }> {
  const raw = await openRaw(url, policy, {});
  const hash = createHash('sha256');
  let bytes = 0;
  const digest = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const body = pipeline(raw, byteLimit(policy.maxBytes, MAX_BYTES_SETTING), digest, () => undefined);
  let uri: string;
  try {
    uri = await store.putStream(key, body);
  } catch (error) {
    throw asSourceError(error);
  }
  return { uri, sha256: hash.digest('hex'), bytes };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
  } catch (error) {
    throw asSourceError(error);
  }
  return Buffer.concat(chunks);
}

async function openRaw(url: string, policy: SourcePolicy, options: SourceReadOptions): Promise<Readable> {
  const source = await admitSource(url, policy);
  switch (source.kind) {
    case 'artifact':
      try {
        return await source.store.open(source.key);
      } catch (error) {
        if (error instanceof ArtifactNotFoundError)
          throw new SourceError('source_not_found', `nothing is stored at ${url}`);
        throw error;
      }
    case 'file':
      return createReadStream(source.path);
    case 'http': {
      const response = await requestSource(url, policy, options);
      if (response.status >= 200 && response.status < 300) return response.body;
      response.body.destroy();
      if (response.status === 404) throw new SourceError('source_not_found', `${url} answered 404`);
      throw new SourceError('source_unreachable', `${url} answered ${response.status}`);
    }
  }
}

/** Waits for the first bytes (at least two, or the end) without losing any. */
async function head(stream: Readable): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const parts: Buffer[] = [];
  let bytes = 0;
  while (bytes < GZIP_MAGIC.length) {
    const next = await iterator.next();
    if (next.done === true) break;
    parts.push(next.value);
    bytes += next.value.length;
  }
  return { head: Buffer.concat(parts), rest: iterator };
}

async function decompressIfGzip(raw: Readable, maxBytes: number, setting: string): Promise<Readable> {
  let first: Awaited<ReturnType<typeof head>>;
  try {
    first = await head(raw);
  } catch (error) {
    raw.destroy();
    throw asSourceError(error);
  }
  const { rest } = first;
  const whole = Readable.from(
    (async function* () {
      if (first.head.length > 0) yield first.head;
      for (;;) {
        const next = await rest.next();
        if (next.done === true) return;
        yield next.value;
      }
    })(),
    { objectMode: false },
  );
  // Destroying the returned stream (a reader that stops early) tears down the whole chain.
  whole.once('close', () => raw.destroy());
  const gzip = first.head[0] === GZIP_MAGIC[0] && first.head[1] === GZIP_MAGIC[1];
  const noop = (): undefined => undefined;
  return gzip
    ? pipeline(whole, createGunzip(), byteLimit(maxBytes, setting), noop)
    : pipeline(whole, byteLimit(maxBytes, setting), noop);
}
