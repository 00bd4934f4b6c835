/** An operation's failure with a stable snake_case code (stored as the job's `error_code`). */
export class JobError extends Error {
  constructor(
    readonly code: string,
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

export function errorCodeOf(error: unknown): string {
  return error instanceof JobError ? error.code : 'internal_error';
}

export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
