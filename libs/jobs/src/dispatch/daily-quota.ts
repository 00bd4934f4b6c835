import { DomainError, Role } from '@svc/contracts';
import {
  Clock,
  DailyQuotaResource,
  DEFAULT_DAILY_QUOTAS,
  secondsUntilWindowEnd,
  SYSTEM_CLOCK,
  windowStart,
} from '@svc/domain';
import { QuotaRepository } from '@svc/persistence';
import { AppConfig } from '@svc/platform';

const DAY_SECONDS = 86_400;

/** The daily quota of a role for a resource; null is unlimited. Administrators are exempt. */
export function dailyLimitFor(config: AppConfig, resource: DailyQuotaResource, role: Role): number | null {
  if (role === 'admin') return null;
  const configured = config.authQuotas[role]?.[resource];
  let limit: number | null | undefined = typeof configured === 'string' ? undefined : configured;
  if (limit === undefined && resource === 'jobs') limit = config.userQuotaPerDay[role];
  if (limit === undefined) limit = DEFAULT_DAILY_QUOTAS[resource]?.[role] ?? null;
  if (role === 'guest') limit = Math.min(limit ?? config.anonQuotaPerDay, config.anonQuotaPerDay);
  return limit;
}

/**
 * Charges `amount` to the daily counter of `key` (a user id, or `ip:<address hash>` for guests), or
 * throws `quota_exceeded`. The same counter whether the gateway queues the work or a worker queues a
 * follow-up on the same caller's behalf.
 */
export async function consumeDailyQuota(
  quotas: QuotaRepository,
  config: AppConfig,
  input: { key: string; role: Role; resource: DailyQuotaResource; amount: number },
  clock: Clock = SYSTEM_CLOCK,
): Promise<void> {
  const limit = dailyLimitFor(config, input.resource, input.role);
  if (limit === null) return;
  const now = clock.now();
  const result = await quotas.consume({
    key: input.key,
    resource: input.resource,
    periodStart: windowStart(now, DAY_SECONDS),
    limit,
    amount: input.amount,
  });
  if (!result.allowed)
    throw quotaExceeded(input.resource, { limit, used: result.count, asked: input.amount }, now);
}

/** What a daily quota counts, in the words of its refusal (singular, plural); others use the count alone. */
const QUOTA_UNITS: Readonly<Record<string, readonly [string, string]>> = {
  annotate_sequences: ['sequence', 'sequences'],
  jobs: ['job', 'jobs'],
};

/**
 * The refusal of a daily charge: what was asked (null when refused before the request said, as an
 * upload is when nothing is left), what a day allows, what is left today, and when it renews.
 * `atLeast`: the request was cut off before it was counted to its end.
 */
export function quotaExceeded(
  resource: DailyQuotaResource,
  state: { limit: number; used: number; asked: number | null; atLeast?: boolean },
  now = Date.now(),
): DomainError {
  const left = Math.max(0, state.limit - state.used);
  const count = (n: number) => {
    const unit = QUOTA_UNITS[resource];
    return unit === undefined ? String(n) : `${n} ${n === 1 ? unit[0] : unit[1]}`;
  };
  const renews = `${left} left today; the quota renews at 00:00 UTC`;
  const message =
    state.asked === null
      ? `daily quota for ${resource} used up: ${count(state.limit)} allowed a day, ${renews}`
      : `daily quota for ${resource} exceeded: ${state.atLeast === true ? 'at least ' : ''}${count(state.asked)} asked, ` +
        `${state.limit} allowed a day, ${renews}`;
  return new DomainError('quota_exceeded', message, {
    retry_after: secondsUntilWindowEnd(now, DAY_SECONDS),
    limit: state.limit,
    used: state.used,
    remaining: left,
    ...(state.asked === null ? {} : { requested: state.asked }),
  });
}

/**
 * What a key may still charge today for a resource (null: unlimited), read without charging, so a
 * route can refuse an upload as soon as it passes what it could ever be charged for.
 */
export async function dailyQuotaHeadroom(
  quotas: QuotaRepository,
  config: AppConfig,
  input: { key: string; role: Role; resource: DailyQuotaResource },
  clock: Clock = SYSTEM_CLOCK,
): Promise<{ limit: number; used: number } | null> {
  const limit = dailyLimitFor(config, input.resource, input.role);
  if (limit === null) return null;
  const used = await quotas.used({
    key: input.key,
    resource: input.resource,
    periodStart: windowStart(clock.now(), DAY_SECONDS),
  });
  return { limit, used };
}

/** Gives back a charge for work that was not queued after all (the broker refused the publish). */
export async function releaseDailyQuota(
  quotas: QuotaRepository,
  config: AppConfig,
  input: { key: string; role: Role; resource: DailyQuotaResource; amount: number },
  clock: Clock = SYSTEM_CLOCK,
): Promise<void> {
  if (dailyLimitFor(config, input.resource, input.role) === null) return;
  await quotas.release({
    key: input.key,
    resource: input.resource,
    periodStart: windowStart(clock.now(), DAY_SECONDS),
    amount: input.amount,
  });
}
