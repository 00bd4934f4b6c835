import { DomainError } from '@svc/contracts';
import type { Clock } from '@svc/domain';
import type { AuditRepository } from '@svc/persistence';
import { memoryQuotas } from '@svc/testing';
import type { AuthContext } from '../auth-context';
import { LoginThrottle } from './login-throttle';

// The throttle's windows, delays and sign-up hours on a clock of the test's, over counters kept in
// memory (`memoryQuotas`). The counting statements themselves run against PostgreSQL in the
// integration tests.

const SECURITY = {
  loginThrottleSeconds: 60,
  loginMaxFailures: 2,
  loginIpMaxFailures: 3,
  loginDelaySeconds: 10,
  loginDelayMaxSeconds: 100,
  signupAddressLimit: 1,
};

/** A throttle whose clock the test moves; `audits` collects what it audited. */
function throttleAt(iso: string) {
  let now = Date.parse(iso);
  const clock: Clock = { now: () => now };
  const audits: unknown[] = [];
  const ctx = { infra: { config: { security: SECURITY } } } as unknown as AuthContext;
  const audit = {
    record: async (...args: unknown[]) => void audits.push(args),
  } as unknown as AuditRepository;
  const throttle = new LoginThrottle(ctx, memoryQuotas().quotas, audit, clock);
  return { throttle, audits, advance: (seconds: number) => (now += seconds * 1000) };
}

async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('LoginThrottle on a clock of its own', () => {
  const reset = { flow: 'password_reset_request' as const, account: null, ipHash: 'address-1' };

  it("refuses an address past its failures until the clock's window ends, auditing it once", async () => {
    const { throttle, audits, advance } = throttleAt('2026-03-01T10:15:10Z');
    for (let i = 0; i < SECURITY.loginIpMaxFailures; i++) await (await throttle.admit(reset)).failed();
    const refused = await refusal(throttle.admit(reset));
    expect(refused.code).toBe('rate_limited');
    expect(refused.extra).toEqual({ retry_after: 50 });
    advance(20);
    expect((await refusal(throttle.admit(reset))).extra).toEqual({ retry_after: 30 });
    expect(audits).toHaveLength(1);
    // The next window admits the address again.
    advance(30);
    await throttle.admit(reset);
  });

  it("makes an account and address pair wait past its free failures, the delay doubling, on the clock's time", async () => {
    const { throttle, advance } = throttleAt('2026-03-01T10:15:00Z');
    const login = { flow: 'login' as const, account: 'Someone@Example.org', ipHash: 'address-2' };
    await (await throttle.admit(login)).failed();
    // The second failure reaches login_max_failures: 10 s before the next attempt.
    await (await throttle.admit(login)).failed();
    expect((await refusal(throttle.admit(login))).extra).toEqual({ retry_after: 10 });
    advance(4);
    expect((await refusal(throttle.admit(login))).extra).toEqual({ retry_after: 6 });
    advance(6);
    // The delay has run out: one attempt, whose failure doubles the next delay.
    await (await throttle.admit(login)).failed();
    expect((await refusal(throttle.admit(login))).extra).toEqual({ retry_after: 20 });
  });

  it('counts accepted sign-ups of an address per clock hour', async () => {
    const { throttle, advance } = throttleAt('2026-03-01T10:59:30Z');
    await throttle.reserveSignup('address-3');
    expect((await refusal(throttle.reserveSignup('address-3'))).extra).toEqual({ retry_after: 30 });
    advance(30);
    await throttle.reserveSignup('address-3');
  });
});
