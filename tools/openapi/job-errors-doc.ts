import { EMBEDDING_BACKEND_ERROR_CODES, JOB_ERROR_CODES, SOURCE_ERROR_CODES } from '@svc/contracts';
import { join } from 'node:path';

export const JOB_ERRORS_FILE = join(__dirname, '..', '..', 'docs', 'job-errors.md');

/** docs/job-errors.md: every `error_code` a failed job can carry, from the one list in libs/contracts. */
export function jobErrorsDocument(): string {
  const groups: [string, Record<string, string>][] = [
    ['Sources the job reads', SOURCE_ERROR_CODES],
    ['Embedding backends', EMBEDDING_BACKEND_ERROR_CODES],
  ];
  const grouped = new Set(groups.flatMap(([, codes]) => Object.keys(codes)));
  const own = Object.fromEntries(Object.entries(JOB_ERROR_CODES).filter(([code]) => !grouped.has(code)));
  const table = (codes: Record<string, string>): string =>
    [
      '| code | meaning |',
      '| --- | --- |',
      ...Object.entries(codes).map(([c, m]) => `| \`${c}\` | ${m} |`),
    ].join('\n');
  return [
    '# Job error codes',
    '',
    'A FAILED job carries one of these stable `error_code` values (JobView in',
    '[openapi.json](openapi.json) lists them as an enum) and an `error_message` written for whoever may',
    'read the job: never SQL, a stack trace or the contents of a file. An unexpected error is',
    '`internal_error`, whose message names the reference of the log line that has the details.',
    '',
    'This file is written by `npm run openapi` from `libs/contracts/src/jobs/job-error-codes.ts`; a',
    'test fails while it differs.',
    '',
    '## Jobs and operations',
    '',
    table(own),
    ...groups.flatMap(([title, codes]) => ['', `## ${title}`, '', table(codes)]),
    '',
  ].join('\n');
}
