import { FieldError } from './errors';

export const PROBLEM_SLUGS = [
  'not-found',
  'validation-error',
  'unauthorized',
  'forbidden',
  'conflict',
  'duplicate-job',
  'rate-limited',
  'quota-exceeded',
  'band-mismatch',
  'payload-too-large',
  'unsupported-media-type',
  'bad-request',
  'service-unavailable',
  'internal-error',
] as const;
export type ProblemSlug = (typeof PROBLEM_SLUGS)[number];

/** RFC 7807 body; `type` is the relative URI `/problems/{slug}`. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: FieldError[];
  [extra: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
