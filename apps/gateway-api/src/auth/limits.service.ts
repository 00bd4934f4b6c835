import { DomainError, Role } from '@svc/contracts';
import {
  Clock,
  DailyQuotaResource,
  DEFAULT_RATE_LIMITS,
  parseRate,
  RateLimitedResource,
  secondsUntilWindowEnd,
  SYSTEM_CLOCK,
  windowStart,
} from '@svc/domain';
import { consumeDailyQuota, dailyLimitFor, dailyQuotaHeadroom, releaseDailyQuota } from '@svc/jobs';
import { QuotaRepository } from '@svc/persistence';
import { AppConfig, Principal } from '@svc/platform';

/** The key a caller's daily quotas are counted under: the account, else the daily address hash. */
export function quotaKeyOf(principal: Principal): string {
  return principal.userId ?? `ip:${principal.addressHash}`;
}

/**
 * Rate limits (per minute or hour, keyed by the account or, for guests, the address hash) and daily
 * quotas (keyed by user id or address hash), both counted in PostgreSQL so that every gateway
 * replica, and a restarted gateway, sees the same counters.
 */
export class LimitsService {
  constructor(
    private readonly config: AppConfig,
    private readonly quotas: QuotaRepository,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /** The rate for a resource: SVC_RATELIMIT_<RESOURCE>, else `auth.quotas.<role>.<resource>`, else the default. */
  rateFor(resource: string, roleHint: Role | null): string | null {
    const fromRole = roleHint !== null ? this.config.authQuotas[roleHint]?.[resource] : undefined;
    return (
      this.config.rateLimits[resource] ??
      (typeof fromRole === 'string' ? fromRole : undefined) ??
      DEFAULT_RATE_LIMITS[resource as RateLimitedResource] ??
      null
    );
  }

  async checkRate(resource: string, rateKey: string, roleHint: Role | null): Promise<void> {
    const text = this.rateFor(resource, roleHint);
    const rate = text === null ? null : parseRate(text);
    if (rate === null) return;
    const now = this.clock.now();
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
  dailyLimit(resource: DailyQuotaResource, role: Role): number | null {
    return dailyLimitFor(this.config, resource, role);
  }

  async consumeDaily(principal: Principal, resource: DailyQuotaResource, amount = 1): Promise<void> {
    if (principal.kind === 'gate_disabled') return;
    await consumeDailyQuota(
      this.quotas,
      this.config,
      { ...this.counter(principal, resource), amount },
      this.clock,
    );
  }

  /** The daily quota of a caller for a resource and what is used of it today; null: unlimited. */
  async dailyUse(
    principal: Principal,
    resource: DailyQuotaResource,
  ): Promise<{ limit: number; used: number } | null> {
    if (principal.kind === 'gate_disabled') return null;
    return dailyQuotaHeadroom(this.quotas, this.config, this.counter(principal, resource), this.clock);
  }

  /** Gives back a charge for work that was not queued after all. */
  async releaseDaily(principal: Principal, resource: DailyQuotaResource, amount = 1): Promise<void> {
    if (principal.kind === 'gate_disabled') return;
    await releaseDailyQuota(
      this.quotas,
      this.config,
      { ...this.counter(principal, resource), amount },
      this.clock,
    );
  }

  /** The daily counter of a caller for a resource: their key and role. */
  private counter(principal: Principal, resource: DailyQuotaResource) {
    return { key: quotaKeyOf(principal), role: principal.role, resource };
  }

  /**
   * A rate that counts only accepted work, charged by the service once a request passed its checks.
   * Administrators are exempt, and the gate switched off means no limits, as in the guard.
   */
  async checkAcceptedRate(resource: RateLimitedResource, principal: Principal): Promise<void> {
    if (principal.kind === 'gate_disabled' || principal.role === 'admin') return;
    await this.checkRate(resource, principal.rateKey, principal.role);
  }
}
