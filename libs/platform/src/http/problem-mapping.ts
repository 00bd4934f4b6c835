import { ErrorCode, ProblemSlug } from '@svc/contracts';

export interface ProblemKind {
  status: number;
  slug: ProblemSlug;
  title: string;
}

function assertNever(value: never): never {
  throw new Error(`unmapped error code: ${String(value)}`);
}

/** Every domain error code has exactly one HTTP mapping; a new code does not compile until mapped. */
export function problemForCode(code: ErrorCode): ProblemKind {
  switch (code) {
    case 'not_found':
      return { status: 404, slug: 'not-found', title: 'Not Found' };
    case 'validation_error':
      return { status: 422, slug: 'validation-error', title: 'Validation Error' };
    case 'bad_request':
      return { status: 400, slug: 'bad-request', title: 'Bad Request' };
    case 'unauthorized':
      return { status: 401, slug: 'unauthorized', title: 'Unauthorized' };
    case 'forbidden':
      return { status: 403, slug: 'forbidden', title: 'Forbidden' };
    case 'conflict':
      return { status: 409, slug: 'conflict', title: 'Conflict' };
    case 'duplicate_job':
      return { status: 409, slug: 'duplicate-job', title: 'Duplicate Job' };
    case 'rate_limited':
      return { status: 429, slug: 'rate-limited', title: 'Too Many Requests' };
    case 'quota_exceeded':
      return { status: 429, slug: 'quota-exceeded', title: 'Quota Exceeded' };
    case 'band_mismatch':
      return { status: 422, slug: 'band-mismatch', title: 'Band Mismatch' };
    case 'payload_too_large':
      return { status: 413, slug: 'payload-too-large', title: 'Payload Too Large' };
    case 'unsupported_media_type':
      return { status: 415, slug: 'unsupported-media-type', title: 'Unsupported Media Type' };
    case 'service_unavailable':
      return { status: 503, slug: 'service-unavailable', title: 'Service Unavailable' };
    default:
      return assertNever(code);
  }
}

/** For errors that only carry an HTTP status (framework and parser errors). */
export function problemForStatus(status: number): ProblemKind {
  switch (status) {
    case 400:
      return problemForCode('bad_request');
    case 401:
      return problemForCode('unauthorized');
    case 403:
      return problemForCode('forbidden');
    case 404:
      return problemForCode('not_found');
    case 405:
      return { status: 405, slug: 'bad-request', title: 'Method Not Allowed' };
    case 409:
      return problemForCode('conflict');
    case 413:
      return problemForCode('payload_too_large');
    case 415:
      return problemForCode('unsupported_media_type');
    case 422:
      return problemForCode('validation_error');
    case 429:
      return problemForCode('rate_limited');
    case 503:
      return problemForCode('service_unavailable');
    default:
      return status >= 500
        ? { status: 500, slug: 'internal-error', title: 'Internal Server Error' }
        : { status, slug: 'bad-request', title: 'Bad Request' };
  }
}
