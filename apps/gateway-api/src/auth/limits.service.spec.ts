import type { QuotaRepository } from '@svc/persistence';
import { DomainError } from '@svc/contracts';
import type { Clock, DailyQuotaResource } from '@svc/domain';
import type { Principal } from '@svc/platform';
import { memoryQuotas } from '@svc/testing';
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

const researcher: Principal = {
  kind: 'session',
  role: 'researcher',
  userId: 'user-1',
  rateKey: 'user:user-1',
  addressHash: 'hash',
  sessionJti: null,
};

describe('LimitsService counting, on a clock of its own', () => {
  const at = (iso: string): Clock => ({ now: () => Date.parse(iso) });

  it('counts a rate per window of the clock and says when the window ends', async () => {
    const { counts, quotas } = memoryQuotas();
    const config = testConfigFor({ rateLimits: { post_jobs: '2/minute' } });
    const early = new LimitsService(config, quotas, at('2026-03-01T10:15:05Z'));
    await early.checkRate('post_jobs', 'user:user-1', 'researcher');
    await early.checkRate('post_jobs', 'user:user-1', 'researcher');
    const refusal = await early.checkRate('post_jobs', 'user:user-1', 'researcher').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).code).toBe('rate_limited');
    expect((refusal as DomainError).extra).toEqual({ retry_after: 55, limit: '2/minute' });
    expect([...counts.keys()]).toEqual(['user:user-1|post_jobs|2026-03-01T10:15:00.000Z']);
    // The next minute is a new window.
    await new LimitsService(config, quotas, at('2026-03-01T10:16:00Z')).checkRate(
      'post_jobs',
      'user:user-1',
      'researcher',
    );
    expect(counts.get('user:user-1|post_jobs|2026-03-01T10:16:00.000Z')).toBe(1);
  });

  it('charges, reads and gives back a daily quota in the day of the clock', async () => {
    const { counts, quotas } = memoryQuotas();
    const limits = new LimitsService(testConfigFor({}), quotas, at('2026-03-01T23:59:30Z'));
    await limits.consumeDaily(researcher, 'jobs', 99);
    expect(await limits.dailyUse(researcher, 'jobs')).toEqual({ limit: 100, used: 99 });
    const refusal = (await limits
      .consumeDaily(researcher, 'jobs', 2)
      .catch((e: unknown) => e)) as DomainError;
    expect(refusal.code).toBe('quota_exceeded');
    expect(refusal.extra).toMatchObject({
      retry_after: 30,
      limit: 100,
      used: 99,
      remaining: 1,
      requested: 2,
    });
    await limits.releaseDaily(researcher, 'jobs', 9);
    expect(counts.get('user-1|jobs|2026-03-01T00:00:00.000Z')).toBe(90);
    // A new day counts afresh.
    const tomorrow = new LimitsService(testConfigFor({}), quotas, at('2026-03-02T00:00:01Z'));
    expect(await tomorrow.dailyUse(researcher, 'jobs')).toEqual({ limit: 100, used: 0 });
  });
});
