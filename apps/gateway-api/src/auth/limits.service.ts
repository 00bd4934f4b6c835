import { DataSource } from 'typeorm';
import { DomainError, Role } from '@svc/contracts';
import {
  DEFAULT_DAILY_QUOTAS,
  DEFAULT_RATE_LIMITS,
  parseRate,
  secondsUntilWindowEnd,
  windowStart,
} from '@svc/domain';
import { QuotaRepository } from '@svc/persistence';
import { AppConfig, Principal } from '@svc/platform';

const DAY_SECONDS = 86_400;

/**
 * Rate limits (per minute or hour, keyed by API-key prefix, JWT subject or address hash) and daily
 * quotas (keyed by user id or address hash), both counted in PostgreSQL so that every gateway
 * replica, and a restarted gateway, sees the same counters.
 */
export class LimitsService {
  private readonly quotas: QuotaRepository;

  constructor(
    private readonly config: AppConfig,
    db: DataSource,
  ) {
    this.quotas = new QuotaRepository(db);
  }

  /** The rate for a resource: SVC_RATELIMIT_<RESOURCE>, else `auth.quotas.<role>.<resource>`, else the default. */
  rateFor(resource: string, roleHint: Role | null): string | null {
    const fromRole = roleHint !== null ? this.config.authQuotas[roleHint]?.[resource] : undefined;
    return (
      this.config.rateLimits[resource] ??
      (typeof fromRole === 'string' ? fromRole : undefined) ??
      DEFAULT_RATE_LIMITS[resource] ??
      null
    );
  }

  async checkRate(resource: string, rateKey: string, roleHint: Role | null): Promise<void> {
    const text = this.rateFor(resource, roleHint);
    const rate = text === null ? null : parseRate(text);
    if (rate === null) return;
    const now = Date.now();
    const result = await this.quotas.consume({
      key: rateKey,
      resource,
      periodStart: windowStart(now, rate.windowSeconds),
      limit: rate.limit,
      amount: 1,
    });
    if (!result.allowed) {
      throw new DomainError('rate_limited', `rate limit for ${resource} reached (${text})`, {
        retry_after: secondsUntilWindowEnd(now, rate.windowSeconds),
        limit: text,
      });
    }
  }

  /** The daily quota of a role for a resource; null is unlimited. Administrators are exempt. */
  dailyLimit(resource: string, role: Role): number | null {
    if (role === 'admin') return null;
    const configured = this.config.authQuotas[role]?.[resource];
    let limit: number | null | undefined = typeof configured === 'string' ? undefined : configured;
    if (limit === undefined && resource === 'jobs') limit = this.config.userQuotaPerDay[role];
    if (limit === undefined) limit = DEFAULT_DAILY_QUOTAS[resource]?.[role] ?? null;
    if (role === 'guest') limit = Math.min(limit ?? this.config.anonQuotaPerDay, this.config.anonQuotaPerDay);
    return limit;
  }

  async consumeDaily(principal: Principal, resource: string, amount = 1): Promise<void> {
    if (principal.kind === 'gate_disabled') return;
    const limit = this.dailyLimit(resource, principal.role);
    if (limit === null) return;
    const now = Date.now();
    const result = await this.quotas.consume({
      key: principal.userId ?? `ip:${principal.addressHash}`,
      resource,
      periodStart: windowStart(now, DAY_SECONDS),
      limit,
      amount,
    });
    if (!result.allowed) {
      throw new DomainError(
        'quota_exceeded',
        `daily quota for ${resource} reached (${result.count} of ${limit} used)`,
        {
          retry_after: secondsUntilWindowEnd(now, DAY_SECONDS),
          limit,
          used: result.count,
        },
      );
    }
  }
}
