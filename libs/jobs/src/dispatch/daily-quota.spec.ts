import { DomainError } from '@svc/contracts';
import type { DailyQuotaResource } from '@svc/domain';
import { quotaExceeded } from './daily-quota';

// 2024-05-01T18:00:00Z: six hours before the daily window (UTC days) ends.
const NOW = Date.UTC(2024, 4, 1, 18);

describe('quotaExceeded', () => {
  it.each([
    {
      name: 'a guest asking for 20 sequences with nothing used',
      resource: 'annotate_sequences',
      state: { limit: 10, used: 0, asked: 20 },
      detail:
        'daily quota for annotate_sequences exceeded: 20 sequences asked, 10 allowed a day, 10 left today; ' +
        'the quota renews at 00:00 UTC',
    },
    {
      name: 'a researcher with part of the day used',
      resource: 'annotate_sequences',
      state: { limit: 1000, used: 600, asked: 600 },
      detail: expect.stringMatching(
        /^daily quota for annotate_sequences exceeded: 600 sequences asked, 1000 allowed a day, 400 left today;/,
      ),
    },
    {
      name: 'an upload cut off before it was counted to its end',
      resource: 'annotate_sequences',
      state: { limit: 10, used: 0, asked: 11, atLeast: true },
      detail: expect.stringMatching(/: at least 11 sequences asked, 10 allowed a day, 10 left today;/),
    },
    {
      name: 'one sequence asked with nothing left',
      resource: 'annotate_sequences',
      state: { limit: 10, used: 10, asked: 1 },
      detail: expect.stringMatching(/: 1 sequence asked, 10 allowed a day, 0 left today;/),
    },
    {
      name: 'nothing left, before the request says how much it asks',
      resource: 'annotate_sequences',
      state: { limit: 10, used: 10, asked: null },
      detail:
        'daily quota for annotate_sequences used up: 10 sequences allowed a day, 0 left today; ' +
        'the quota renews at 00:00 UTC',
    },
    {
      name: 'a job over the jobs quota',
      resource: 'jobs',
      state: { limit: 5, used: 5, asked: 1 },
      detail: expect.stringMatching(
        /^daily quota for jobs exceeded: 1 job asked, 5 allowed a day, 0 left today;/,
      ),
    },
    {
      name: 'a counter over its limit (the limit was lowered) leaves none, never a negative count',
      resource: 'jobs',
      state: { limit: 5, used: 8, asked: 2 },
      detail: expect.stringMatching(/: 2 jobs asked, 5 allowed a day, 0 left today;/),
    },
  ])('$name', ({ resource, state, detail }) => {
    const error = quotaExceeded(resource as DailyQuotaResource, state, NOW);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('quota_exceeded');
    expect(error.message).toEqual(detail);
  });

  it('carries the numbers and when to retry in the problem', () => {
    expect(quotaExceeded('annotate_sequences', { limit: 10, used: 4, asked: 20 }, NOW).extra).toEqual({
      retry_after: 6 * 3600,
      limit: 10,
      used: 4,
      remaining: 6,
      requested: 20,
    });
    expect(quotaExceeded('annotate_sequences', { limit: 10, used: 10, asked: null }, NOW).extra).toEqual({
      retry_after: 6 * 3600,
      limit: 10,
      used: 10,
      remaining: 0,
    });
  });
});
