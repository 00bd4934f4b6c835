import { readFileSync } from 'node:fs';
import { JOB_ERROR_CODES } from '@svc/contracts';
import { JOB_ERRORS_FILE, jobErrorsDocument } from './job-errors-doc';

describe('docs/job-errors.md', () => {
  it('is what `npm run openapi` writes from the list of job error codes', () => {
    expect(readFileSync(JOB_ERRORS_FILE, 'utf8')).toBe(jobErrorsDocument());
  });

  it('lists every code exactly once', () => {
    const text = jobErrorsDocument();
    for (const code of Object.keys(JOB_ERROR_CODES)) expect(text.split(`| \`${code}\` |`).length - 1).toBe(1);
  });
});
