import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FieldError } from './errors';
import { EXAMPLE_IDS } from './example-ids';

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

export class FieldErrorView {
  @ApiProperty({ example: 'payload.k' }) path!: string;
  @ApiProperty({ example: 'must be an integer between 1 and 500' }) message!: string;
}

/** The problem body every 4xx and 5xx answer carries (RFC 7807, `application/problem+json`). */
export class ProblemView {
  @ApiProperty({ example: '/problems/not-found', description: '`/problems/{slug}`' }) type!: string;
  @ApiProperty({ example: 'Not Found' }) title!: string;
  @ApiProperty({ example: 404 }) status!: number;
  @ApiPropertyOptional({ example: 'job not found' }) detail?: string;
  @ApiPropertyOptional({ example: `/v1/jobs/${EXAMPLE_IDS.job}` }) instance?: string;
  @ApiPropertyOptional({ type: [FieldErrorView], description: 'The fields a 422 refused' })
  errors?: FieldErrorView[];
}
