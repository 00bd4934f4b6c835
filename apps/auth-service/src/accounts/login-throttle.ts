import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@svc/contracts';
import { secondsUntilWindowEnd, sha256Hex, windowStart } from '@svc/domain';
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
  | 'password_reset_consume';

export interface ThrottleCounter {
  scope: 'account' | 'address';
  key: string;
  resource: string;
  limit: number;
}

/**
 * The counters one attempt is charged to: the account (the e-mail address, as typed, case-folded and
 * hashed, whether or not it has an account) and the client address hash; each flow counts apart.
 */
export function throttleCounters(
  input: { flow: ThrottledFlow; account: string | null; ipHash: string | null },
  settings: Pick<SecuritySettings, 'loginMaxFailures' | 'loginIpMaxFailures'>,
): ThrottleCounter[] {
  const resource = `auth_${input.flow}`;
  const counters: ThrottleCounter[] = [];
  const account = input.account?.trim().toLowerCase() ?? '';
  if (account !== '') {
    counters.push({
      scope: 'account',
      key: `account:${sha256Hex(account)}`,
      resource,
      limit: settings.loginMaxFailures,
    });
  }
  if (input.ipHash !== null && input.ipHash !== '') {
    counters.push({
      scope: 'address',
      key: `ip:${input.ipHash}`,
      resource,
      limit: settings.loginIpMaxFailures,
    });
  }
  return counters;
}

export interface ThrottledAttempt {
  /** The attempt succeeded: its charge is given back, so that only failures count. */
  succeeded(): Promise<void>;
}

/** Throttled attempts are audited once per counter and window by each process, not once per request. */
const AUDIT_MEMORY = 10_000;

/**
 * Per-account and per-address throttles on the sign-in flows. Each attempt is charged before any
 * password work, in one atomic statement per counter (PostgreSQL, so every replica shares them and
 * parallel guesses cannot overshoot), and given back when it succeeds. Past `login_max_failures` for
 * an account or `login_ip_max_failures` for an address within `login_throttle_seconds`, attempts are
 * answered 429 with Retry-After and audited as `login_throttled`.
 */
@Injectable()
export class LoginThrottle {
  private readonly audited = new Set<string>();

  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly quotas: QuotaRepository,
    private readonly audit: AuditRepository,
  ) {}

  async admit(input: {
    flow: ThrottledFlow;
    account: string | null;
    ipHash: string | null;
  }): Promise<ThrottledAttempt> {
    const settings = this.ctx.infra.config.security;
    const now = Date.now();
    const periodStart = windowStart(now, settings.loginThrottleSeconds);
    const charged: ThrottleCounter[] = [];
    const release = async (): Promise<void> => {
      for (const counter of charged) {
        await this.quotas.release({ key: counter.key, resource: counter.resource, periodStart, amount: 1 });
      }
    };
    for (const counter of throttleCounters(input, settings)) {
      const result = await this.quotas.consume({
        key: counter.key,
        resource: counter.resource,
        periodStart,
        limit: counter.limit,
        amount: 1,
      });
      if (!result.allowed) {
        await release();
        await this.auditOnce(counter, periodStart, input);
        throw new DomainError(
          'rate_limited',
          `too many failed attempts for this ${counter.scope}; try again later`,
          { retry_after: secondsUntilWindowEnd(now, settings.loginThrottleSeconds) },
        );
      }
      charged.push(counter);
    }
    return { succeeded: release };
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
