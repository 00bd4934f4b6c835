/** The service's roles, lowest first (the same union as the contracts' Role). */
export type Role = 'guest' | 'researcher' | 'operator' | 'admin';

export type RateWindow = 'second' | 'minute' | 'hour' | 'day';
const WINDOW_SECONDS: Record<RateWindow, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 };

export interface Rate {
  limit: number;
  windowSeconds: number;
}

/** `100/minute` -> {limit: 100, windowSeconds: 60}; null when the text is not a rate. */
export function parseRate(text: string): Rate | null {
  const match = /^(\d+)\/(second|minute|hour|day)$/.exec(text.trim());
  if (match === null) return null;
  return { limit: Number(match[1]), windowSeconds: WINDOW_SECONDS[match[2] as RateWindow] };
}

/** Fixed windows aligned to the epoch (so every replica agrees on the window a request falls in). */
export function windowStart(nowMs: number, windowSeconds: number): Date {
  const size = windowSeconds * 1000;
  return new Date(Math.floor(nowMs / size) * size);
}

export function secondsUntilWindowEnd(nowMs: number, windowSeconds: number): number {
  const end = windowStart(nowMs, windowSeconds).getTime() + windowSeconds * 1000;
  return Math.max(1, Math.ceil((end - nowMs) / 1000));
}

/** Per-minute and per-hour rate limits by resource (specification, "Limits"). */
/** The resources the service limits per minute or hour by default (settings may limit others). */
export type RateLimitedResource =
  'post_jobs' | 'post_datasets' | 'api_key_mint' | 'api_key_login' | 'email_request' | 'credential_failure';

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitedResource, string>> = {
  post_jobs: '10/minute',
  post_datasets: '5/minute',
  api_key_mint: '5/hour',
  api_key_login: '5/hour',
  // Sign-in links and reset codes by e-mail, per address hash: no flooding of someone's inbox.
  email_request: '5/hour',
  // Failed credential checks (forged or revoked keys, bad tokens), per address hash, on any route.
  credential_failure: '30/minute',
};

/** The resources a daily quota counts: queued jobs, and the sequences annotated or predicted. */
export type DailyQuotaResource = 'jobs' | 'annotate_sequences';

/** Daily quotas by resource and role; null means unlimited, a missing role means unlimited too. */
export const DEFAULT_DAILY_QUOTAS: Readonly<
  Record<DailyQuotaResource, Partial<Record<Role, number | null>>>
> = {
  annotate_sequences: { guest: 10, researcher: 1000, operator: null, admin: null },
  jobs: { researcher: 100, operator: null, admin: null },
};

/** The role an API key acts with: what was asked for, never above its owner's role. */
export function boundRole(requested: Role | null | undefined, owner: Role): Role {
  const order: Role[] = ['guest', 'researcher', 'operator', 'admin'];
  if (requested === null || requested === undefined) return owner;
  return order.indexOf(requested) <= order.indexOf(owner) ? requested : owner;
}
