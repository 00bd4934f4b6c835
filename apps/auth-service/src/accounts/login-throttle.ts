import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError } from '@svc/contracts';
import { Clock, secondsUntilWindowEnd, sha256Hex, SYSTEM_CLOCK, windowStart } from '@svc/domain';
import { AuditRepository, QuotaRepository } from '@svc/persistence';
import { SecuritySettings } from '@svc/platform';
import { AUTH_CONTEXT, AuthContext } from '../auth-context';

/** The sign-in and account flows that guessing could be tried on. */
export type ThrottledFlow =
  | 'login'
  | 'api_key_login'
  | 'signup'
  | 'magic_link_request'
  | 'magic_link_consume'
  | 'password_reset_request'
  | 'password_reset_consume'
  | 'password_change';

export interface ThrottleCounter {
  scope: 'account' | 'address' | 'account_address' | 'accepted_signups';
  key: string;
  resource: string;
  limit: number;
  /**
   * Past its limit the caller is slowed down, one attempt per delay that doubles with each failure
   * (loginDelaySeconds), instead of being refused until the window ends.
   */
  progressive: boolean;
}

type ThrottleSettings = Pick<SecuritySettings, 'loginMaxFailures' | 'loginIpMaxFailures'>;
type DelaySettings = Pick<
  SecuritySettings,
  'loginMaxFailures' | 'loginDelaySeconds' | 'loginDelayMaxSeconds'
>;

/**
 * The counters one attempt is charged to: the account (the e-mail address, as typed, case-folded and
 * hashed, whether or not it has an account) and the client address hash; each flow counts apart. A
 * password sign-in counts against the account only together with the address it comes from, so that
 * guesses from one address slow that address down and never lock the owner out elsewhere.
 */
export function throttleCounters(
  input: { flow: ThrottledFlow; account: string | null; ipHash: string | null },
  settings: ThrottleSettings,
): ThrottleCounter[] {
  const resource = `auth_${input.flow}`;
  const counters: ThrottleCounter[] = [];
  const account = input.account?.trim().toLowerCase() ?? '';
  const ipHash = input.ipHash ?? '';
  if (account !== '') {
    const key = `account:${sha256Hex(account)}`;
    counters.push(
      input.flow === 'login'
        ? {
            scope: 'account_address',
            key: `${key}|ip:${ipHash === '' ? 'unknown' : ipHash}`,
            resource,
            limit: settings.loginMaxFailures,
            progressive: true,
          }
        : { scope: 'account', key, resource, limit: settings.loginMaxFailures, progressive: false },
    );
  }
  if (ipHash !== '') {
    counters.push({
      scope: 'address',
      key: `ip:${ipHash}`,
      resource,
      limit: settings.loginIpMaxFailures,
      progressive: false,
    });
  }
  return counters;
}

/**
 * How long an (account, address) pair waits after its `failures`-th failure within the window: not at
 * all before `login_max_failures`, then `login_delay_seconds`, twice that after each further failure,
 * never more than `login_delay_max_seconds`.
 */
export function loginDelaySeconds(failures: number, settings: DelaySettings): number {
  if (failures < settings.loginMaxFailures) return 0;
  const doublings = Math.min(failures - settings.loginMaxFailures, 30);
  return Math.min(settings.loginDelaySeconds * 2 ** doublings, settings.loginDelayMaxSeconds);
}

/** The hourly counter of accepted sign-ups of one address group (`signup_address_limit`); none without an address. */
export function signupCounter(
  ipHash: string | null,
  settings: Pick<SecuritySettings, 'signupAddressLimit'>,
): ThrottleCounter | null {
  if (ipHash === null || ipHash === '') return null;
  return {
    scope: 'accepted_signups',
    key: `ip:${ipHash}`,
    resource: 'auth_signup_accepted',
    limit: settings.signupAddressLimit,
    progressive: false,
  };
}

/** Accepted sign-ups count in clock hours. */
export const SIGNUP_WINDOW_SECONDS = 3600;

export interface ThrottledAttempt {
  /**
   * The attempt succeeded: its charges are given back, so that only failures count; a correct
   * password also clears its (account, address) pair.
   */
  succeeded(): Promise<void>;
  /** The attempt failed: past the free failures, its (account, address) pair waits before the next. */
  failed(): Promise<void>;
}

/** What one admitted attempt charged to a counter, and the count it saw. */
interface Charge {
  counter: ThrottleCounter;
  count: number;
}

/** An attempt refused by a counter, and for how long; answered as a 429 by the throttle. */
class Refusal extends Error {
  constructor(
    readonly counter: ThrottleCounter,
    readonly retryAfter: number,
  ) {
    super(`refused by ${counter.scope} counter ${counter.resource}`);
  }
}

/** Counters are never full: a progressive counter only counts. */
const UNLIMITED = 2_147_483_647;

/** Throttled attempts are audited once per counter and window by each process, not once per request. */
const AUDIT_MEMORY = 10_000;

const delayResource = (counter: ThrottleCounter): string => `${counter.resource}_delay`;

/** The time the throttle reads (the system's unless a test provides its own). */
export const THROTTLE_CLOCK = 'THROTTLE_CLOCK';

/**
 * Per-account, per-address and per-(account, address) throttles on the sign-in flows. Each attempt
 * is charged before any password work, in one atomic statement per counter (PostgreSQL, so every
 * replica shares them and parallel guesses cannot overshoot), and given back when it succeeds. Past
 * `login_max_failures` for an account or `login_ip_max_failures` for an address within
 * `login_throttle_seconds`, attempts are answered 429 with Retry-After until the window ends; past
 * `login_max_failures` for an (account, address) pair, that pair may try once per delay, which doubles
 * with each failure. Refusals are audited as `login_throttled`.
 */
@Injectable()
export class LoginThrottle {
  private readonly audited = new Set<string>();

  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly quotas: QuotaRepository,
    private readonly audit: AuditRepository,
    @Optional() @Inject(THROTTLE_CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  async admit(input: {
    flow: ThrottledFlow;
    account: string | null;
    ipHash: string | null;
  }): Promise<ThrottledAttempt> {
    const settings = this.ctx.infra.config.security;
    const now = this.clock.now();
    const periodStart = windowStart(now, settings.loginThrottleSeconds);
    const charges: Charge[] = [];
    const giveBack = async (amountOf: (charge: Charge) => number): Promise<void> => {
      for (const charge of charges) {
        const { key, resource } = charge.counter;
        await this.quotas.release({ key, resource, periodStart, amount: amountOf(charge) });
      }
    };
    try {
      for (const counter of throttleCounters(input, settings)) {
        charges.push(
          counter.progressive
            ? await this.chargeSlowed(counter, periodStart, now)
            : await this.charge(counter, periodStart, now, settings.loginThrottleSeconds),
        );
      }
    } catch (error) {
      await giveBack(() => 1);
      if (error instanceof Refusal) throw await this.refusal(error, periodStart, input);
      throw error;
    }
    return {
      succeeded: () => giveBack((charge) => (charge.counter.progressive ? charge.count : 1)),
      failed: () => this.delayAfterFailure(charges),
    };
  }

  /**
   * Reserves one accepted sign-up of the caller's address group before any work: past
   * `signup_address_limit` this hour, 429 with Retry-After until the hour ends, audited as
   * `login_throttled`. A refused sign-up gives its reservation back, so only accepted sign-ups count.
   */
  async reserveSignup(ipHash: string | null): Promise<{ giveBack(): Promise<void> }> {
    const counter = signupCounter(ipHash, this.ctx.infra.config.security);
    if (counter === null) return { giveBack: () => Promise.resolve() };
    const now = this.clock.now();
    const periodStart = windowStart(now, SIGNUP_WINDOW_SECONDS);
    try {
      await this.charge(counter, periodStart, now, SIGNUP_WINDOW_SECONDS);
    } catch (error) {
      if (error instanceof Refusal) throw await this.refusal(error, periodStart, { flow: 'signup', ipHash });
      throw error;
    }
    const { key, resource } = counter;
    return { giveBack: () => this.quotas.release({ key, resource, periodStart, amount: 1 }) };
  }

  /** One attempt against a counter with a hard limit: refused until the window ends once it is full. */
  private async charge(
    counter: ThrottleCounter,
    periodStart: Date,
    now: number,
    windowSeconds: number,
  ): Promise<Charge> {
    const result = await this.quotas.consume({
      key: counter.key,
      resource: counter.resource,
      periodStart,
      limit: counter.limit,
      amount: 1,
    });
    if (!result.allowed) throw new Refusal(counter, secondsUntilWindowEnd(now, windowSeconds));
    return { counter, count: result.count };
  }

  /**
   * One attempt of an (account, address) pair: refused while the pair's delay runs; within its free
   * failures admitted; past them admitted once per delay that has run out (the first attempt to claim
   * it), so parallel guesses cannot share one.
   */
  private async chargeSlowed(counter: ThrottleCounter, periodStart: Date, now: number): Promise<Charge> {
    const delay = await this.quotas.latest({ key: counter.key, resource: delayResource(counter) });
    if (delay !== null && delay.periodStart.getTime() > now)
      throw new Refusal(counter, Math.max(1, Math.ceil((delay.periodStart.getTime() - now) / 1000)));
    const { key, resource } = counter;
    const charged = await this.quotas.consume({ key, resource, periodStart, limit: UNLIMITED, amount: 1 });
    if (charged.count <= counter.limit) return { counter, count: charged.count };
    const claimed =
      delay !== null &&
      (
        await this.quotas.consume({
          key,
          resource: delayResource(counter),
          periodStart: delay.periodStart,
          limit: 1,
          amount: 1,
        })
      ).allowed;
    if (!claimed) {
      // Another attempt of the pair holds the delay that ran out; its outcome sets the next one.
      await this.quotas.release({ key, resource, periodStart, amount: 1 });
      throw new Refusal(counter, loginDelaySeconds(counter.limit, this.ctx.infra.config.security));
    }
    return { counter, count: charged.count };
  }

  /** After a failure past the free ones, the pair's next attempt waits: a counter whose period is its end. */
  private async delayAfterFailure(charges: Charge[]): Promise<void> {
    for (const { counter, count } of charges) {
      if (!counter.progressive) continue;
      const seconds = loginDelaySeconds(count, this.ctx.infra.config.security);
      if (seconds === 0) continue;
      await this.quotas.consume({
        key: counter.key,
        resource: delayResource(counter),
        periodStart: new Date(this.clock.now() + seconds * 1000),
        limit: 1,
        amount: 0,
      });
    }
  }

  /** The 429 answer to a refusal, audited. */
  private async refusal(
    refused: Refusal,
    periodStart: Date,
    input: { flow: ThrottledFlow; ipHash: string | null },
  ): Promise<DomainError> {
    await this.auditOnce(refused.counter, periodStart, input);
    return new DomainError('rate_limited', refusalMessage(refused.counter), {
      retry_after: refused.retryAfter,
    });
  }

  private async auditOnce(
    counter: ThrottleCounter,
    periodStart: Date,
    input: { flow: ThrottledFlow; ipHash: string | null },
  ): Promise<void> {
    const memo = `${counter.resource}|${counter.key}|${periodStart.getTime()}`;
    if (this.audited.has(memo)) return;
    if (this.audited.size >= AUDIT_MEMORY) this.audited.clear();
    this.audited.add(memo);
    await this.audit.record(null, 'login_throttled', null, {
      flow: input.flow,
      scope: counter.scope,
      ip_hash: input.ipHash,
    });
  }
}

function refusalMessage(counter: ThrottleCounter): string {
  switch (counter.scope) {
    case 'account_address':
      return 'too many failed attempts for this account from this address; try again later';
    case 'accepted_signups':
      return 'too many sign-ups from this address; try again later';
    case 'account':
    case 'address':
      return `too many failed attempts for this ${counter.scope}; try again later`;
  }
}
