import { DomainError } from '@svc/contracts';
import type { RateLimitedResource } from '@svc/domain';
import { LimitsService } from './limits.service';
import { TtlCache } from './ttl-cache';

/** The rate-limited resource that failed credential checks count against (SVC_RATELIMIT_CREDENTIAL_FAILURE). */
export const CREDENTIAL_FAILURE_RESOURCE: RateLimitedResource = 'credential_failure';

/** A window is at most an hour long; an exhausted address is remembered no longer than that. */
const MAX_MEMO_MS = 3_600_000;

/**
 * Failed credential checks (a forged or revoked API key, a bad token) are limited by the caller's
 * address, never by the credential text, so forged keys spend only the forger's budget. The counter
 * lives in PostgreSQL like every rate limit; once it says an address is spent, this replica remembers
 * that until the window ends, so further attempts from it cost no database round trip.
 */
export class CredentialFailureLimiter {
  private readonly exhaustedUntil = new TtlCache<number>(MAX_MEMO_MS);

  constructor(private readonly limits: LimitsService) {}

  /** Whether the address has spent its budget of failed checks for the current window. */
  isExhausted(addressHash: string): boolean {
    return this.exhaustedUntil.peek(addressHash) !== undefined;
  }

  /** Counts one failed check against the address; 429 with Retry-After once its budget is spent. */
  async charge(addressHash: string): Promise<void> {
    const until = this.exhaustedUntil.peek(addressHash);
    if (until !== undefined) {
      const retryAfter = Math.max(1, Math.ceil(((await until) - Date.now()) / 1000));
      throw new DomainError('rate_limited', 'too many failed credential checks from this address', {
        retry_after: retryAfter,
      });
    }
    try {
      await this.limits.checkRate(CREDENTIAL_FAILURE_RESOURCE, `ip:${addressHash}`, 'guest');
    } catch (error) {
      if (error instanceof DomainError && error.code === 'rate_limited') {
        const retryAfter = Number(error.extra['retry_after'] ?? 1);
        const ms = Math.min(MAX_MEMO_MS, Math.max(1, retryAfter) * 1000);
        this.exhaustedUntil.set(addressHash, Date.now() + ms, ms);
      }
      throw error;
    }
  }
}
