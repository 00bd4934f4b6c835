import { randomUUID } from 'node:crypto';
import type { JobErrorCode } from '@svc/contracts';
import { SourceError } from '@svc/platform';

/** An operation's failure with a stable snake_case code (stored as the job's `error_code`). */
export class JobError extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'JobError';
  }
}

/** Raised inside an operation when its job was cancelled or its worker is shutting down. */
export class JobAbortedError extends Error {
  constructor(readonly reason: AbortReason) {
    super(`job aborted: ${reason}`);
    this.name = 'JobAbortedError';
  }
}

export type AbortReason = 'cancelled' | 'shutdown' | 'lease_lost';

/** What a failed job stores, and the reference under which the log keeps the rest of an unexpected error. */
export interface JobFailure {
  code: JobErrorCode;
  message: string;
  /** Set for unexpected errors: the log line with the error and its stack carries the same reference. */
  reference: string | null;
}

/**
 * The code and message a failed job stores, which anyone who may read the job sees: a JobError's or
 * a SourceError's own (written for that reader); for anything else (a driver error quoting SQL, a
 * stack, text of the input) only a reference to the log line.
 */
export function jobFailureOf(error: unknown): JobFailure {
  if (error instanceof JobError || error instanceof SourceError)
    return { code: error.code, message: error.message, reference: null };
  const reference = randomUUID();
  return { code: 'internal_error', message: `internal error (reference ${reference})`, reference };
}

export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
