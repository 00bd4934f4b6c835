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

/** Failures a setting decides (a refusal, a limit): callers keep their code and message as they are. */
const SETTING_CODES: ReadonlySet<SourceErrorCode> = new Set<SourceErrorCode>([
  'source_not_allowed',
  'source_too_large',
  'line_too_long',
  'source_timeout',
  'source_too_slow',
]);

/** A SourceError that a setting decided, which callers pass on rather than fold into another code. */
export function isSettingFailure(error: unknown): error is SourceError {
  return error instanceof SourceError && SETTING_CODES.has(error.code);
}

/** zlib's failures (by code: errors from node:zlib may come from another realm under Jest). */
export function asSourceError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
    return new SourceError('corrupt_source', 'the file is not valid gzip');
  return error;
}
