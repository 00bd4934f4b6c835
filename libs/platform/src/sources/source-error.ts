import type { SourceErrorCode } from '@svc/contracts';

export type { SourceErrorCode };

/**
 * A data source that cannot or may not be read. Messages name the source as the caller gave it and
 * the setting that decides, never the file's contents or whether a refused path exists.
 */
export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/** zlib's failures (by code: errors from node:zlib may come from another realm under Jest). */
export function asSourceError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
    return new SourceError('corrupt_source', 'the file is not valid gzip');
  return error;
}
