import { randomUUID } from 'node:crypto';
import { HttpClient, HttpResult, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../../src/app.factory';
import { createUser, Problem, SecurityStack, startSecurityStack } from './security-stack';

/** Small limits of this suite's own stack, so that each abuse shows in a few requests. */
const SIGNUP_ADDRESS_LIMIT = 3;
const LOGIN_MAX_FAILURES = 3;
const LOGIN_DELAY_SECONDS = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Limits count in clock-aligned windows: waits out a window's last seconds so one test's counts share one. */
async function awayFromWindowEdge(windowSeconds: number, margin = 20): Promise<void> {
  const size = windowSeconds * 1000;
  const left = size - (Date.now() % size);
  if (left < margin * 1000) await sleep(left + 500);
}

const HOUR = 3600;
const MINUTE = 60;

function expectRateLimited(res: HttpResult<Problem>): number {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body.type).toBe('/problems/rate-limited');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  return retryAfter;
}

describe('abuse of identity: sign-up floods, IPv6 address groups, account lock-out, one person many credentials', () => {
  let stack: SecurityStack;
  let direct: Gateway;
  /** Trusts 127.0.0.1 as its reverse proxy, so a test can speak for any client address. */
  let proxied: Gateway;

  const from = (gateway: Gateway, address: string): HttpClient =>
    new HttpClient(gateway.url, {}, { localAddress: address });
  const signupBody = (tag: string) => ({
    email: `${tag}-${randomUUID().slice(0, 8)}@svc.test`,
    username: `${tag}_${randomUUID().slice(0, 8)}`,
    display_name: tag,
    password: `pw-${randomUUID()}`,
    intended_use: 'abuse tests',
  });

  beforeAll(async () => {
    stack = await startSecurityStack('abuse_identity', {
      env: {
        SVC_SIGNUP_ADDRESS_LIMIT: String(SIGNUP_ADDRESS_LIMIT),
        SVC_LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
        SVC_LOGIN_DELAY_SECONDS: String(LOGIN_DELAY_SECONDS),
        SVC_LOGIN_DELAY_MAX_SECONDS: String(LOGIN_DELAY_SECONDS * 4),
        // The anonymous rate finding 7 spends is the e-mail flows', which exist only with SMTP; no
        // mail server listens there, and mail is sent after the answer, so none is needed.
        SVC_SMTP_HOST: '127.0.0.1',
        SVC_SMTP_PORT: '9',
      },
    });
    direct = stack.gateway;
    proxied = await createGateway(testConfig({ ...stack.env, SVC_TRUSTED_PROXIES: '127.0.0.1' }));
  });

  afterAll(async () => {
    await proxied?.close();
    await stack?.close();
  });

  it('finding 5: accepted sign-ups are limited per address (429 with Retry-After); refused ones and other addresses are not counted', async () => {
    await awayFromWindowEdge(HOUR);
    const flooder = from(direct, '127.0.5.1');
    // A refused sign-up (the e-mail is taken) costs no account and does not count.
    const taken = await flooder.post('/v1/auth/signup', { ...signupBody('taken'), email: stack.admin.email });
    expect(taken.status).toBe(409);
    for (let i = 0; i < SIGNUP_ADDRESS_LIMIT; i += 1) {
      const res = await flooder.post('/v1/auth/signup', signupBody('flood'));
      expect(res.status).toBe(201);
    }
    const over = await flooder.post<Problem>('/v1/auth/signup', signupBody('flood'));
    expect(expectRateLimited(over)).toBeLessThanOrEqual(HOUR);
    // No pending account was created for the refused sign-up.
    const pending = await from(direct, '127.0.0.1').get<{ email: string }[]>(
      '/v1/admin/users?status=pending',
      stack.admin.headers,
    );
    expect(pending.status).toBe(200);
    expect(pending.body.filter((user) => user.email.startsWith('flood-'))).toHaveLength(SIGNUP_ADDRESS_LIMIT);
    // Another address signs up as usual.
    expect((await from(direct, '127.0.5.2').post('/v1/auth/signup', signupBody('other'))).status).toBe(201);
  });

  const magicLinkRequests = async (forwardedFor: string[]): Promise<number[]> => {
    const proxy = from(proxied, '127.0.0.1');
    const statuses: number[] = [];
    for (const address of forwardedFor) {
      const res = await proxy.post(
        '/v1/auth/magic-link/request',
        { email: `nobody-${randomUUID().slice(0, 8)}@svc.test` },
        { 'x-forwarded-for': address },
      );
      statuses.push(res.status);
    }
    return statuses;
  };

  it('finding 7: the addresses of one IPv6 /64 share one anonymous budget; an IPv4-mapped address is its IPv4 address', async () => {
    await awayFromWindowEdge(HOUR);
    // email_request allows 5 an hour per caller; five addresses of 2001:db8:7:1::/64 spend it.
    const sameNetwork = await magicLinkRequests([
      '2001:db8:7:1::a',
      '2001:db8:7:1::b',
      '2001:db8:7:1:ffff:ffff:ffff:c',
      '2001:db8:7:1:1234::d',
      '2001:0db8:0007:0001:0000:0000:0000:000e',
    ]);
    expect(sameNetwork).not.toContain(429);
    expect(await magicLinkRequests(['2001:db8:7:1::f'])).toEqual([429]);
    // The next /64 is another caller.
    expect(await magicLinkRequests(['2001:db8:7:2::a'])).not.toContain(429);
    // An IPv4 client seen through an IPv6 socket is the same caller as seen through an IPv4 one.
    expect(await magicLinkRequests(Array(5).fill('::ffff:203.0.113.9'))).not.toContain(429);
    expect(await magicLinkRequests(['203.0.113.9'])).toEqual([429]);
    // IPv4 stays per address.
    expect(await magicLinkRequests(['203.0.113.10'])).not.toContain(429);
  });

  it('finding 8: wrong passwords slow down their own address with a doubling delay; the owner still signs in from another address', async () => {
    const victim = await createUser(stack, 'researcher');
    const attacker = from(direct, '127.0.8.1');
    const guess = (password: string) =>
      attacker.post<Problem>('/v1/auth/login', { email: victim.email, password });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) expect((await guess(`wrong-${i}-pw`)).status).toBe(401);
    // Past the free failures the pair (account, address) waits the delay, whatever the password.
    const first = expectRateLimited(await guess('wrong-again'));
    expect(first).toBeLessThanOrEqual(LOGIN_DELAY_SECONDS);
    expectRateLimited(await guess(victim.password));
    // The owner, elsewhere, is not locked out by someone else's guesses.
    const owner = await from(direct, '127.0.8.2').post('/v1/auth/login', {
      email: victim.email,
      password: victim.password,
    });
    expect(owner.status).toBe(200);
    // Once the delay is over the attacker may guess once more; the next delay is twice as long.
    await sleep(first * 1000 + 200);
    expect((await guess('wrong-after-delay')).status).toBe(401);
    const second = expectRateLimited(await guess('wrong-too-soon'));
    expect(second).toBeGreaterThan(LOGIN_DELAY_SECONDS);
    expect(second).toBeLessThanOrEqual(2 * LOGIN_DELAY_SECONDS);
    const audit = await from(direct, '127.0.0.1').get<{ action: string; payload: Record<string, unknown> }[]>(
      '/v1/admin/audit?action=login_throttled',
      stack.admin.headers,
    );
    expect(audit.status).toBe(200);
    expect(
      audit.body.some(
        (entry) => entry.payload['flow'] === 'login' && entry.payload['scope'] === 'account_address',
      ),
    ).toBe(true);
  });

  it("finding 12: a researcher's session, API key and bearer token share one post_jobs rate", async () => {
    const researcher = await createUser(stack, 'researcher');
    const client = from(direct, '127.0.12.1');
    const minted = await client.post<{ key: string }>('/v1/auth/api-keys', { name: 'k' }, researcher.headers);
    expect(minted.status).toBe(201);
    const exchanged = await client.post<{ token: string }>('/v1/auth/api-key-login', {
      api_key: minted.body.key,
    });
    expect(exchanged.status).toBe(200);
    const credentials = [
      researcher.headers,
      { authorization: `ApiKey ${minted.body.key}` },
      { authorization: `Bearer ${exchanged.body.token}` },
    ];
    const job = () => ({ operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } });
    await awayFromWindowEdge(MINUTE);
    // post_jobs allows 10 a minute: spread over three credentials, the person still gets 10.
    for (let i = 0; i < 10; i += 1) {
      const res = await client.post('/v1/jobs', job(), credentials[i % credentials.length]);
      expect(res.status).toBe(201);
    }
    for (const headers of credentials)
      expectRateLimited(await client.post<Problem>('/v1/jobs', job(), headers));
  });
});
