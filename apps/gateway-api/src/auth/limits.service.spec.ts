import type { QuotaRepository } from '@svc/persistence';
import type { DailyQuotaResource } from '@svc/domain';
import { testConfigFor } from '../../test/support/limits.test-config';
import { LimitsService } from './limits.service';

// Only the pure limit look-ups are exercised here; counting runs against PostgreSQL in the integration tests.
const unusedQuotas = {} as QuotaRepository;

describe('LimitsService limits', () => {
  it.each([
    ['annotate_sequences', 'guest', 10],
    ['annotate_sequences', 'researcher', 1000],
    ['annotate_sequences', 'operator', null],
    ['annotate_sequences', 'admin', null],
    ['jobs', 'researcher', 100],
    ['jobs', 'operator', null],
    ['jobs', 'admin', null],
    ['unknown_resource', 'researcher', null],
  ] as const)('default daily %s for %s is %s', (resource, role, expected) => {
    expect(
      new LimitsService(testConfigFor({}), unusedQuotas).dailyLimit(resource as DailyQuotaResource, role),
    ).toBe(expected);
  });

  it('applies auth.quotas, then user_quota_per_day for jobs, and caps guests by anon_quota_per_day', () => {
    const limits = new LimitsService(
      testConfigFor({
        authQuotas: { researcher: { jobs: 7, post_jobs: '3/minute' }, guest: { annotate_sequences: 50 } },
        userQuotaPerDay: { operator: 20 },
        anonQuotaPerDay: 5,
      }),
      unusedQuotas,
    );
    expect(limits.dailyLimit('jobs', 'researcher')).toBe(7);
    expect(limits.dailyLimit('jobs', 'operator')).toBe(20);
    expect(limits.dailyLimit('annotate_sequences', 'guest')).toBe(5);
    expect(limits.dailyLimit('jobs', 'admin')).toBeNull();
    expect(limits.rateFor('post_jobs', 'researcher')).toBe('3/minute');
    expect(limits.rateFor('post_jobs', 'operator')).toBe('10/minute');
    expect(limits.rateFor('post_datasets', null)).toBe('5/minute');
    expect(limits.rateFor('api_key_mint', null)).toBe('5/hour');
    expect(limits.rateFor('api_key_login', null)).toBe('5/hour');
  });

  it('lets SVC_RATELIMIT_* override every other source', () => {
    const limits = new LimitsService(
      testConfigFor({
        rateLimits: { post_jobs: '100/minute' },
        authQuotas: { researcher: { post_jobs: '3/minute' } },
      }),
      unusedQuotas,
    );
    expect(limits.rateFor('post_jobs', 'researcher')).toBe('100/minute');
  });
});
