/**
 * Stable error codes raised by domain and service code. The HTTP layer maps each one to a problem
 * type with an exhaustive switch, so adding a code here without a mapping fails to compile.
 */
export type ErrorCode =
  | 'not_found'
  | 'validation_error'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'duplicate_job'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'band_mismatch'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'service_unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra members copied into the problem body (for example `existing_job_id`). */
    readonly extra: Record<string, unknown> = {},
    /** Field paths for validation errors. */
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export interface FieldError {
  path: string;
  message: string;
}

export function notFound(entity: string): DomainError {
  return new DomainError('not_found', `${entity} not found`);
}
