import type { FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { DomainError } from '@svc/contracts';
import { mintApiKey } from '@svc/domain';
import { ApiKeyCandidate, ApiKeyRepository, SessionRepository } from '@svc/persistence';
import { JwtCodec } from '@svc/platform';
import { CredentialFailureLimiter } from './credential-failures';
import { CredentialGate, rateKeyOf } from './credential-gate';
import { LimitsService } from './limits.service';
import { testConfigFor } from '../../test/support/limits.test-config';

const genuine = mintApiKey();
const candidate: ApiKeyCandidate = {
  id: '5b0e1c4e-7f3a-4d43-9a51-0f7c1c2e9a11',
  user_id: '0d1f3b9a-2c4e-4f6a-8b7c-9d0e1f2a3b4c',
  key_hash: genuine.hash,
  role: null,
  revoked: false,
  owner_role: 'researcher',
  owner_status: 'active',
};

/** A database that answers key look-ups by prefix with the genuine key's row and counts those look-ups. */
function countingDb(): { db: DataSource; queries: unknown[][] } {
  const queries: unknown[][] = [];
  const runner = {
    query: async (text: string, params: unknown[]) => {
      if (!text.includes('k.prefix')) return { records: [] };
      queries.push(params);
      return { records: params[0] === genuine.prefix ? [candidate] : [] };
    },
    release: async () => undefined,
  };
  return { db: { connection: { createQueryRunner: () => runner } } as unknown as DataSource, queries };
}

const requestWith = (key: string, ip = '203.0.113.7'): FastifyRequest =>
  ({ ip, headers: { authorization: `ApiKey ${key}` } }) as unknown as FastifyRequest;

const forgedWithPrefix = (prefix: string): string => `${prefix}${'x'.repeat(35)}`;

function gateOver(db: DataSource, exhausted: Set<string> = new Set()) {
  return new CredentialGate(
    testConfigFor({ authnRequired: true }),
    { apiKeys: new ApiKeyRepository(db), sessions: new SessionRepository(db) },
    new JwtCodec('unit-test-secret'),
    Buffer.alloc(32, 7),
    { isExhausted: (addressHash) => exhausted.has(addressHash) },
  );
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('CredentialGate and API keys', () => {
  afterEach(() => jest.useRealTimers());

  it('keys the principal of a verified key on its owner, never on the text the caller sent', async () => {
    const { db } = countingDb();
    const principal = await gateOver(db).authenticate(requestWith(genuine.raw));
    expect(principal).toMatchObject({
      kind: 'api_key',
      role: 'researcher',
      rateKey: `user:${candidate.user_id}`,
    });
  });

  it('hashes the address group: the addresses of an IPv6 /64 are one caller, IPv4 addresses are not', () => {
    const { db } = countingDb();
    const gate = gateOver(db);
    expect(gate.addressHash('2001:db8:7:1::a')).toBe(gate.addressHash('2001:db8:7:1:ffff::b'));
    expect(gate.addressHash('2001:db8:7:1::a')).not.toBe(gate.addressHash('2001:db8:7:2::a'));
    expect(gate.addressHash('::ffff:203.0.113.9')).toBe(gate.addressHash('203.0.113.9'));
    expect(gate.addressHash('203.0.113.9')).not.toBe(gate.addressHash('203.0.113.10'));
  });

  it('refuses a forged key again from memory for a few seconds, after its prefix look-up has expired', async () => {
    jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
    const { db, queries } = countingDb();
    const gate = gateOver(db);
    const forged = forgedWithPrefix(genuine.prefix);
    expect((await refusal(gate.authenticate(requestWith(forged)))).code).toBe('unauthorized');
    jest.setSystemTime(Date.parse('2026-01-01T00:00:03Z'));
    expect((await refusal(gate.authenticate(requestWith(forged, '198.51.100.1')))).code).toBe('unauthorized');
    expect(queries).toHaveLength(1);
    // The genuine key with the same prefix is looked up afresh and still accepted.
    expect((await gate.authenticate(requestWith(genuine.raw))).userId).toBe(candidate.user_id);
    expect(queries).toHaveLength(2);
  });

  it('from an address that has spent its failure budget, fresh forgeries cost no look-up at all', async () => {
    const { db, queries } = countingDb();
    const gate = gateOver(db, new Set([gateOver(db).addressHash('203.0.113.66')]));
    for (let i = 0; i < 50; i += 1) {
      const forged = forgedWithPrefix(`f${String(i).padStart(7, '0')}`);
      await refusal(gate.authenticate(requestWith(forged, '203.0.113.66')));
    }
    expect(queries).toHaveLength(0);
    // A genuine key refused unseen there is not remembered: from another address it works.
    await refusal(gate.authenticate(requestWith(genuine.raw, '203.0.113.66')));
    expect((await gate.authenticate(requestWith(genuine.raw, '203.0.113.67'))).kind).toBe('api_key');
    // Once its candidates are cached, the genuine key is accepted from the spent address too.
    expect((await gate.authenticate(requestWith(genuine.raw, '203.0.113.66'))).kind).toBe('api_key');
    expect(queries).toHaveLength(1);
  });
});

describe('rateKeyOf', () => {
  it.each([
    ['every credential of an account is the person', 'u-1', 'h', 'user:u-1'],
    ['an anonymous caller is its address hash', null, 'h', 'ip:h'],
  ])('%s', (_name, userId, addressHash, expected) => {
    expect(rateKeyOf(userId, addressHash)).toBe(expected);
  });
});

describe('CredentialFailureLimiter', () => {
  it('counts failures per address in the shared counter, then answers 429 from memory until the window ends', async () => {
    const calls: string[] = [];
    const limits = {
      checkRate: async (resource: string, key: string) => {
        calls.push(`${resource} ${key}`);
        if (calls.length > 2) {
          throw new DomainError('rate_limited', 'rate limit reached', { retry_after: 42 });
        }
      },
    } as unknown as LimitsService;
    const limiter = new CredentialFailureLimiter(limits);
    await limiter.charge('abc');
    await limiter.charge('abc');
    expect(limiter.isExhausted('abc')).toBe(false);
    const first = await refusal(limiter.charge('abc'));
    expect(first.code).toBe('rate_limited');
    expect(limiter.isExhausted('abc')).toBe(true);
    const again = await refusal(limiter.charge('abc'));
    expect(again.code).toBe('rate_limited');
    expect(Number(again.extra['retry_after'])).toBeGreaterThan(40);
    expect(calls).toEqual(Array(3).fill('credential_failure ip:abc'));
    expect(limiter.isExhausted('other')).toBe(false);
  });
});
