import { JobError } from '@svc/jobs';
import { SourceError } from '@svc/platform';

/** A data source that cannot be read becomes a stable job error code. */
export function sourceFailure(error: unknown): Error {
  if (error instanceof SourceError) return new JobError(error.code, error.message);
  if (error instanceof JobError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
    return new JobError('corrupt_source', `the file is not valid gzip: ${(error as Error).message}`);
  return error instanceof Error ? error : new Error(String(error));
}
