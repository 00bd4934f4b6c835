import type { Readable } from 'node:stream';

/**
 * Where job inputs and results live. Keys are the same on every backend so that a deployment can move
 * from the local disk to an object store without rewriting stored references.
 */
export interface ArtifactStore {
  readonly backend: 'local' | 's3';
  /** Stores the body under `key`, replacing any previous one, and returns the artifact's URI. */
  put(key: string, body: Buffer | string | { path: string }): Promise<string>;
  /**
   * Stores a stream under `key` without holding it in memory (a partial body is never visible:
   * on a failure of the stream nothing, or the previous artifact, stays) and returns the URI.
   */
  putStream(key: string, body: Readable): Promise<string>;
  /** Throws `ArtifactNotFoundError` when nothing is stored under `key`. */
  get(key: string): Promise<Buffer>;
  /** The artifact as a stream; throws `ArtifactNotFoundError` when nothing is stored under `key`. */
  open(key: string): Promise<Readable>;
  /** The URI `put` returns for `key`, computed without I/O. */
  url(key: string): string;
  exists(key: string): Promise<boolean>;
  /** True if something was deleted, false if nothing was there. */
  delete(key: string): Promise<boolean>;
  /** Every key starting with `prefix` (a plain string prefix, as in S3), sorted. */
  list(prefix: string): Promise<string[]>;
  /** The key of a URI this store issued (`url(key)` inverted), or null for any other URI. */
  keyOf(uri: string): string | null;
}

export class InvalidArtifactKeyError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`invalid artifact key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidArtifactKeyError';
  }
}

export class ArtifactNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`artifact ${JSON.stringify(key)} not found`);
    this.name = 'ArtifactNotFoundError';
  }
}

/** A selected object store could not be reached at start-up; the process must not serve without it. */
export class ArtifactStoreUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArtifactStoreUnavailable';
  }
}

/**
 * Keys become file paths on the local backend, so anything that could escape the store's root or mean
 * different things on different backends (`..`, empty segments, backslashes) is refused up front.
 */
export function validateArtifactKey(key: string): void {
  const reason = artifactKeyProblem(key);
  if (reason !== null) throw new InvalidArtifactKeyError(key, reason);
}

/**
 * A listing prefix is a key cut off anywhere: every complete segment must be valid, the trailing partial
 * one may be empty or start with dots (`runs/` and `runs/.` are fine, `runs/../` is not).
 */
export function validateArtifactPrefix(prefix: string): void {
  if (prefix === '') return;
  const lastSlash = prefix.lastIndexOf('/');
  const partial = prefix.slice(lastSlash + 1);
  const reason =
    lastSlash === -1
      ? null
      : lastSlash === 0
        ? 'must not start with a slash'
        : artifactKeyProblem(prefix.slice(0, lastSlash));
  if (reason !== null) throw new InvalidArtifactKeyError(prefix, reason);
  if (partial.includes('\\') || partial.includes('\0'))
    throw new InvalidArtifactKeyError(prefix, 'must not contain a backslash or NUL');
}

/** The key if `key` is valid, else null; for parsing URIs, where a bad key means "not ours". */
export function validKeyOrNull(key: string): string | null {
  return artifactKeyProblem(key) === null ? key : null;
}

function artifactKeyProblem(key: string): string | null {
  if (typeof key !== 'string') return 'must be a string';
  if (key === '') return 'must not be empty';
  if (key.includes('\0')) return 'must not contain NUL';
  if (key.includes('\\')) return 'must use forward slashes';
  if (key.startsWith('/')) return 'must not start with a slash';
  for (const segment of key.split('/')) {
    if (segment === '') return 'must not contain empty segments';
    if (segment === '.' || segment === '..') return `must not contain a '${segment}' segment`;
  }
  return null;
}
