import { SourceError } from '@svc/platform';
import { JobError, jobFailureOf } from './job-error';

describe('jobFailureOf', () => {
  it('keeps the code and message of a JobError', () => {
    expect(jobFailureOf(new JobError('invalid_obo', 'the OBO file holds no [Term] stanza'))).toEqual({
      code: 'invalid_obo',
      message: 'the OBO file holds no [Term] stanza',
      reference: null,
    });
  });

  it('keeps the code and message of a SourceError', () => {
    expect(
      jobFailureOf(new SourceError('line_too_long', 'line 1 is longer than 1048576 bytes')),
    ).toMatchObject({
      code: 'line_too_long',
      reference: null,
    });
  });

  const unexpected = [
    {
      name: 'a driver error quoting SQL',
      error: new Error('duplicate key value violates unique constraint "go_term_snapshot_go_id_key"'),
    },
    { name: 'a RangeError from a huge string', error: new RangeError('Invalid string length') },
    { name: 'a thrown string', error: 'root:x:0:0:root:/root:/bin/bash' },
  ];
  it.each(unexpected)('stores only a reference for $name', ({ error }) => {
    const failure = jobFailureOf(error);
    expect(failure.code).toBe('internal_error');
    expect(failure.reference).toMatch(/^[0-9a-f-]{36}$/);
    expect(failure.message).toBe(`internal error (reference ${failure.reference})`);
  });

  it('gives each unexpected error its own reference', () => {
    expect(jobFailureOf(new Error('a')).reference).not.toBe(jobFailureOf(new Error('a')).reference);
  });
});
