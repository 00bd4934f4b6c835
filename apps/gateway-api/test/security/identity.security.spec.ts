import { randomUUID } from 'node:crypto';
import { HttpClient, HttpResult, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../../src/app.factory';
import { createUser, Problem, SecurityStack, startSecurityStack } from './security-stack';

/** Low enough that the per-address login test stays short. */
const LOGIN_IP_MAX_FAILURES = 12;
const CREDENTIAL_FAILURES_PER_HOUR = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Limits count in clock-aligned windows: waits out a window's last seconds so one test's counts share one. */
async function awayFromWindowEdge(windowSeconds: number): Promise<void> {
  const size = windowSeconds * 1000;
  const left = size - (Date.now() % size);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 500));
}

const HOUR = 3600;
/** login_throttle_seconds' default. */
const LOGIN_WINDOW = 900;

describe('client identity, credential limits and login throttles (authentication on)', () => {
  let stack: SecurityStack;
  /** The stack's gateway: no trusted proxies (the default). */
  let direct: Gateway;
  /** Trusts 127.0.0.2 as its reverse proxy. */
  let proxied: Gateway;

  const from = (gateway: Gateway, address: string): HttpClient =>
    new HttpClient(gateway.url, {}, { localAddress: address });
  const researcher = () => createUser(stack, 'researcher');

  beforeAll(async () => {
    stack = await startSecurityStack('identity', {
      env: {
        SVC_LOGIN_IP_MAX_FAILURES: String(LOGIN_IP_MAX_FAILURES),
        SVC_RATELIMIT_CREDENTIAL_FAILURE: `${CREDENTIAL_FAILURES_PER_HOUR}/hour`,
        // The anonymous rate these tests spend is the e-mail flows', which exist only with SMTP; no
        // mail server listens there, and mail is sent after the answer, so none is needed.
        SVC_SMTP_HOST: '127.0.0.1',
        SVC_SMTP_PORT: '9',
      },
    });
    direct = stack.gateway;
    proxied = await createGateway(testConfig({ ...stack.env, SVC_TRUSTED_PROXIES: '127.0.0.2/32' }));
  });

  afterAll(async () => {
    await proxied?.close();
    await stack?.close();
  });

  const magicLinkRequests = async (client: HttpClient, forwardedFor: (i: number) => string) => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await client.post(
        '/v1/auth/magic-link/request',
        { email: `nobody-${i}@svc.test` },
        { 'x-forwarded-for': forwardedFor(i), forwarded: `for=192.0.2.${i + 1}` },
      );
      statuses.push(res.status);
    }
    return statuses;
  };

  it('finding 3: X-Forwarded-For from an untrusted peer is ignored, so changing it does not reset the anonymous rate limit', async () => {
    await awayFromWindowEdge(HOUR);
    // email_request allows 5 an hour per caller; each request claims another client address.
    const statuses = await magicLinkRequests(from(direct, '127.0.3.1'), (i) => `198.51.100.${i + 1}`);
    expect(statuses.slice(0, 5)).not.toContain(429);
    expect(statuses[5]).toBe(429);
  });

  it('rule 3: X-Forwarded-For is believed only from a peer listed in trusted_proxies', async () => {
    await awayFromWindowEdge(HOUR);
    const proxy = from(proxied, '127.0.0.2');
    // Six clients behind the trusted proxy: each has a budget of its own.
    expect(await magicLinkRequests(proxy, (i) => `198.51.100.${50 + i}`)).not.toContain(429);
    // One client behind the trusted proxy is limited like a direct caller.
    const one = await magicLinkRequests(proxy, () => '198.51.100.99');
    expect(one.slice(0, 5)).not.toContain(429);
    expect(one[5]).toBe(429);
    // Another peer of the same gateway cannot choose its identity.
    const untrusted = await magicLinkRequests(from(proxied, '127.0.3.3'), (i) => `198.51.100.${70 + i}`);
    expect(untrusted[5]).toBe(429);
  });

  it("finding 9: forged API keys carrying a victim's prefix do not use up the victim's rate limit", async () => {
    await awayFromWindowEdge(HOUR);
    const victim = await researcher();
    const key = await from(direct, '127.0.9.2').post<{ key: string; prefix: string }>(
      '/v1/auth/api-keys',
      { name: 'victim key' },
      victim.headers,
    );
    expect(key.status).toBe(201);
    const job = () => ({ operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } });
    const attacker = from(direct, '127.0.9.1');
    // post_jobs allows 10 a minute; before the fix the forged keys spent the victim's budget.
    for (let i = 0; i < 12; i += 1) {
      const forged = `${key.body.prefix}${randomUUID().replace(/-/g, '')}`;
      const res = await attacker.post('/v1/jobs', job(), { authorization: `ApiKey ${forged}` });
      expect([401, 429]).toContain(res.status);
    }
    const own = await from(direct, '127.0.9.2').post('/v1/jobs', job(), {
      authorization: `ApiKey ${key.body.key}`,
    });
    expect(own.status).toBe(201);
  });

  it("rule 3: failed credential checks are limited by the caller's address (429 with Retry-After), and only that address", async () => {
    await awayFromWindowEdge(HOUR);
    const attacker = from(direct, '127.0.9.3');
    const statuses: number[] = [];
    let limited: HttpResult<Problem> | undefined;
    for (let i = 0; i < CREDENTIAL_FAILURES_PER_HOUR + 3; i += 1) {
      const res = await attacker.get<Problem>('/v1/auth/me', {
        authorization: `ApiKey ${randomUUID().replace(/-/g, '')}`,
      });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, CREDENTIAL_FAILURES_PER_HOUR)).toEqual(
      Array(CREDENTIAL_FAILURES_PER_HOUR).fill(401),
    );
    expect(statuses.slice(CREDENTIAL_FAILURES_PER_HOUR)).toEqual([429, 429, 429]);
    expect(limited?.body.type).toBe('/problems/rate-limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    const bystander = await from(direct, '127.0.9.4').get('/v1/auth/me', {
      authorization: `ApiKey ${randomUUID().replace(/-/g, '')}`,
    });
    expect(bystander.status).toBe(401);
  });

  it('rule 3: a stale session cookie is a 401 every time, never spending its address budget', async () => {
    const browser = from(direct, '127.0.9.5');
    const statuses: number[] = [];
    for (let i = 0; i < CREDENTIAL_FAILURES_PER_HOUR + 3; i += 1)
      statuses.push((await browser.get('/v1/auth/me', { cookie: 'svc_session=expired.or.revoked' })).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    // The address can still sign in.
    expect((await browser.get('/v1/proteins?limit=1')).status).toBe(200);
  });

  it('finding 6: the 11th wrong password for an account from one address answers 429 with Retry-After, audited as login_throttled; the owner elsewhere still signs in', async () => {
    await awayFromWindowEdge(LOGIN_WINDOW);
    const user = await researcher();
    const attacker = from(direct, '127.0.6.1');
    for (let i = 0; i < 10; i += 1) {
      const res = await attacker.post('/v1/auth/login', { email: user.email, password: `wrong-${i}-pw` });
      expect(res.status).toBe(401);
    }
    const throttled = await attacker.post<Problem>('/v1/auth/login', {
      email: user.email.toUpperCase(),
      password: 'wrong-again',
    });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('content-type')).toContain('application/problem+json');
    expect(throttled.body.type).toBe('/problems/rate-limited');
    // login_delay_seconds' default: the first delay of the (account, address) pair.
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    // The pair waits whatever the password; the owner at another address is not locked out (finding 8).
    const right = await attacker.post('/v1/auth/login', { email: user.email, password: user.password });
    expect(right.status).toBe(429);
    const owner = await from(direct, '127.0.6.2').post('/v1/auth/login', {
      email: user.email,
      password: user.password,
    });
    expect(owner.status).toBe(200);
    const audit = await from(direct, '127.0.0.1').get<{ action: string; payload: Record<string, unknown> }[]>(
      '/v1/admin/audit?action=login_throttled',
      stack.admin.headers,
    );
    expect(audit.status).toBe(200);
    expect(audit.body.some((entry) => entry.payload['flow'] === 'login')).toBe(true);
  });

  it('finding 6: wrong passwords for many accounts from one address are throttled per address', async () => {
    await awayFromWindowEdge(LOGIN_WINDOW);
    const attacker = from(direct, '127.0.6.3');
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_IP_MAX_FAILURES; i += 1) {
      const res = await attacker.post('/v1/auth/login', {
        email: `unknown-${randomUUID().slice(0, 8)}@svc.test`,
        password: 'wrong-password',
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LOGIN_IP_MAX_FAILURES)).toEqual(Array(LOGIN_IP_MAX_FAILURES).fill(401));
    expect(statuses[LOGIN_IP_MAX_FAILURES]).toBe(429);
    const elsewhere = await from(direct, '127.0.6.4').post('/v1/auth/login', {
      email: `unknown-${randomUUID().slice(0, 8)}@svc.test`,
      password: 'wrong-password',
    });
    expect(elsewhere.status).toBe(401);
  });

  it('finding 6: an unknown e-mail costs the same password hashing as a registered one (no enumeration by timing)', async () => {
    await awayFromWindowEdge(LOGIN_WINDOW);
    const user = await researcher();
    const client = from(direct, '127.0.6.5');
    const timed = async (email: string): Promise<number> => {
      const started = performance.now();
      const res = await client.post('/v1/auth/login', { email, password: 'wrong-password' });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    // Warm-up: the first unknown address may build the stand-in hash.
    await timed(`unknown-${randomUUID().slice(0, 8)}@svc.test`);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      known.push(await timed(user.email));
      unknown.push(await timed(`unknown-${randomUUID().slice(0, 8)}@svc.test`));
    }
    expect(median(known)).toBeGreaterThan(20);
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('rule 6: repeated sign-ups for a taken e-mail are throttled per account (429 after login_max_failures)', async () => {
    await awayFromWindowEdge(LOGIN_WINDOW);
    const user = await researcher();
    const client = from(direct, '127.0.6.6');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await client.post('/v1/auth/signup', {
        email: user.email,
        username: `dup_${randomUUID().slice(0, 8)}`,
        display_name: 'dup',
        password: 'long-enough-pw',
        intended_use: 'x',
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(409));
    expect(statuses[10]).toBe(429);
  });
});
