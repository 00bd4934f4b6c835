import { DomainError, Role } from '@svc/contracts';
import { DEFAULT_DAILY_QUOTAS, secondsUntilWindowEnd, windowStart } from '@svc/domain';
import { QuotaRepository } from '@svc/persistence';
import { AppConfig } from '@svc/platform';

const DAY_SECONDS = 86_400;

/** The daily quota of a role for a resource; null is unlimited. Administrators are exempt. */
export function dailyLimitFor(config: AppConfig, resource: string, role: Role): number | null {
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
  input: { key: string; role: Role; resource: string; amount: number },
): Promise<void> {
  const limit = dailyLimitFor(config, input.resource, input.role);
  if (limit === null) return;
  const now = Date.now();
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

/** The refusal of a daily charge: what was asked, what is used and what is left, and when it renews. */
export function quotaExceeded(
  resource: string,
  state: { limit: number; used: number; asked: number; atLeast?: boolean },
  now = Date.now(),
): DomainError {
  const left = Math.max(0, state.limit - state.used);
  const asked =
    state.asked === 1 && state.atLeast !== true
      ? ''
      : `this request needs ${state.atLeast === true ? 'at least ' : ''}${state.asked}, `;
  return new DomainError(
    'quota_exceeded',
    `daily quota for ${resource} reached: ${asked}${left} of ${state.limit} left today`,
    {
      retry_after: secondsUntilWindowEnd(now, DAY_SECONDS),
      limit: state.limit,
      used: state.used,
      requested: state.asked,
    },
  );
}

/**
 * What a key may still charge today for a resource (null: unlimited), read without charging, so a
 * route can refuse an upload as soon as it passes what it could ever be charged for.
 */
export async function dailyQuotaHeadroom(
  quotas: QuotaRepository,
  config: AppConfig,
  input: { key: string; role: Role; resource: string },
): Promise<{ limit: number; used: number } | null> {
  const limit = dailyLimitFor(config, input.resource, input.role);
  if (limit === null) return null;
  const used = await quotas.used({
    key: input.key,
    resource: input.resource,
    periodStart: windowStart(Date.now(), DAY_SECONDS),
  });
  return { limit, used };
}

/** Gives back a charge for work that was not queued after all (the broker refused the publish). */
export async function releaseDailyQuota(
  quotas: QuotaRepository,
  config: AppConfig,
  input: { key: string; role: Role; resource: string; amount: number },
): Promise<void> {
  if (dailyLimitFor(config, input.resource, input.role) === null) return;
  await quotas.release({
    key: input.key,
    resource: input.resource,
    periodStart: windowStart(Date.now(), DAY_SECONDS),
    amount: input.amount,
  });
}
