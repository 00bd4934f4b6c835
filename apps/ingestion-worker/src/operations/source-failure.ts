import { JobError } from '@svc/jobs';
import { SourceError } from '@svc/platform';

/** A data source that cannot be read becomes a stable job error code. */
export function sourceFailure(error: unknown): Error {
  if (error instanceof SourceError) return new JobError(error.code, error.message);
  if (error instanceof JobError) return error;
  return error instanceof Error ? error : new Error(String(error));
}
