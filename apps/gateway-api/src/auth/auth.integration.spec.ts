import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, HttpClient, HttpResult, spawnApp, testConfig, waitFor } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const ADMIN = { email: 'admin@svc.test', password: 'bootstrap-secret-1' };
const AUTH_ENV = { SVC_AUTHN_REQUIRED: 'true' };

interface Problem {
  type: string;
  status: number;
  detail?: string;
  code?: string;
}

function cookieOf(res: HttpResult): string {
  const header = res.headers.get('set-cookie') ?? '';
  const match = /svc_session=([^;]+)/.exec(header);
  if (match === null) throw new Error(`no session cookie in ${header}`);
  return `svc_session=${match[1]}`;
}

describe('identity and access over HTTP', () => {
  let auth: AppProcess;
  let gateway: Gateway;
  let api: HttpClient;
  interface TestUser {
    id: string;
    email: string;
    password: string;
    cookie: string;
    key?: string;
    keyId?: string;
  }
  const users: Record<string, TestUser> = {};
  let adminCookie = '';
  let adminKey = '';

  const asCookie = (cookie: string) => api.withHeaders({ cookie });
  const asKey = (key: string) => api.withHeaders({ authorization: `ApiKey ${key}` });

  const signupAndApprove = async (name: string, role: 'researcher' | 'operator') => {
    const email = `${name}-${randomUUID().slice(0, 8)}@svc.test`;
    const password = `pw-${randomUUID()}`;
    const res = await api.post<{ id: string; status: string }>('/v1/auth/signup', {
      email,
      username: `${name}_${randomUUID().slice(0, 6)}`,
      display_name: name,
      password,
      intended_use: 'benchmarking GO predictions',
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending');
    const approved = await asCookie(adminCookie).post<{ role: string; status: string }>(
      `/v1/admin/users/${res.body.id}/approve`,
      { role },
    );
    expect(approved.body).toMatchObject({ role, status: 'active' });
    const login = await api.post('/v1/auth/login', { email, password });
    expect(login.status).toBe(200);
    const user: TestUser = { id: res.body.id, email, password, cookie: cookieOf(login) };
    users[name] = user;
    return user;
  };

  beforeAll(async () => {
    auth = await spawnApp('auth-service', {
      ...AUTH_ENV,
      SVC_BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      SVC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    });
    await auth.waitForLog('auth-service ready');
    gateway = await createGateway(testConfig(AUTH_ENV));
    api = new HttpClient(gateway.url);
    const login = await api.post('/v1/auth/login', ADMIN);
    expect(login.status).toBe(200);
    adminCookie = cookieOf(login);
    const key = await asCookie(adminCookie).post<{ key: string }>('/v1/auth/api-keys', {
      name: 'admin automation',
    });
    adminKey = key.body.key;
  });

  afterAll(async () => {
    await gateway?.close();
    await auth?.stop();
  });

  it('login sets an HttpOnly, Secure, SameSite=Strict session cookie for 30 days; /auth/me answers with it', async () => {
    const login = await api.post<{ email: string; role: string }>('/v1/auth/login', ADMIN);
    expect(login.body).toMatchObject({ email: ADMIN.email, role: 'admin', status: 'active' });
    const header = login.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/Secure/i);
    expect(header).toMatch(/SameSite=Strict/i);
    expect(header).toMatch(/Max-Age=2592000/);
    const me = await asCookie(cookieOf(login)).get<{ email: string }>('/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(ADMIN.email);
    expect((await api.get('/v1/auth/me')).status).toBe(401);
  });

  it('signup is pending until approved; duplicates give 409; bad passwords 401; pending and deactivated 403', async () => {
    const email = `pending-${randomUUID().slice(0, 8)}@svc.test`;
    const body = {
      email,
      username: `p_${randomUUID().slice(0, 8)}`,
      display_name: 'P',
      password: 'long-enough-pw',
      intended_use: 'x',
    };
    const created = await api.post<{ id: string; email: string; username: string; status: string }>(
      '/auth/signup',
      body,
    );
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['email', 'id', 'status', 'username']);
    expect((await api.post<Problem>('/v1/auth/signup', { ...body, username: 'other_name' })).status).toBe(
      409,
    );
    expect((await api.post<Problem>('/v1/auth/signup', { ...body, email: `x${email}` })).status).toBe(409);
    expect((await api.post('/v1/auth/signup', { ...body, email: 'not-an-email' })).status).toBe(422);

    const pending = await api.post<Problem>('/v1/auth/login', { email, password: 'long-enough-pw' });
    expect(pending.status).toBe(403);
    expect(pending.body.detail).toBe('account_pending_approval');
    const wrong = await api.post<Problem>('/v1/auth/login', {
      email: ADMIN.email,
      password: 'nope-nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('ApiKey, Bearer');

    await asCookie(adminCookie).post(`/v1/admin/users/${created.body.id}/approve`, {});
    const deactivated = await asCookie(adminCookie).patch<{ status: string }>(
      `/v1/admin/users/${created.body.id}`,
      { status: 'deactivated' },
    );
    expect(deactivated.body.status).toBe('deactivated');
    const blocked = await api.post<Problem>('/v1/auth/login', { email, password: 'long-enough-pw' });
    expect(blocked.status).toBe(403);
    expect(blocked.body.detail).toBe('account_deactivated');
  });

  it('each of the four credential forms works, and POST /jobs follows the role floor', async () => {
    const researcher = await signupAndApprove('researcher', 'researcher');
    const key = await asCookie(researcher.cookie).post<{
      key: string;
      prefix: string;
      id: string;
      role: string;
      revoked_at: null;
    }>('/v1/auth/api-keys', {
      name: 'laptop',
    });
    expect(key.status).toBe(201);
    expect(key.body.key.startsWith(key.body.prefix)).toBe(true);
    expect(key.body.prefix).toHaveLength(8);
    expect(key.body.role).toBe('researcher');
    researcher.key = key.body.key;
    researcher.keyId = key.body.id;
    const bearer = await api.post<{
      token: string;
      token_type: string;
      expires_in: number;
      role: string;
      sub: string;
    }>('/v1/auth/api-key-login', {
      api_key: key.body.key,
      ttl_seconds: 120,
    });
    expect(bearer.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 120,
      role: 'researcher',
      sub: researcher.id,
    });
    expect(
      (await api.post('/v1/auth/api-key-login', { api_key: key.body.key, ttl_seconds: 30 })).status,
    ).toBe(422);

    const forms: Record<string, string>[] = [
      { authorization: `ApiKey ${key.body.key}` },
      { 'x-api-key': key.body.key },
      { authorization: `Bearer ${bearer.body.token}` },
      { cookie: researcher.cookie },
    ];
    for (const headers of forms) {
      const me = await api.get<{ id: string }>('/v1/auth/me', headers);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(researcher.id);
      const job = await api.post(
        '/v1/jobs',
        { operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } },
        headers,
      );
      expect(job.status).toBe(201);
    }
    // A researcher holds one key, with researcher scope.
    expect((await asCookie(researcher.cookie).post('/v1/auth/api-keys', { name: 'second' })).status).toBe(
      409,
    );
    expect((await asKey(key.body.key).get('/v1/auth/api-keys')).status).toBe(403);
    // Bad credentials are 401 even on open routes.
    const badCredentials: Record<string, string>[] = [
      { authorization: 'ApiKey nonsense-key-123456' },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: 'Basic abc' },
      { cookie: 'svc_session=forged' },
    ];
    for (const headers of badCredentials) {
      const res = await api.get<Problem>('/v1/jobs', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('ApiKey, Bearer');
    }
  });

  it('a revoked key gives 401 within 5 seconds on every gateway replica', async () => {
    const replica = await createGateway(testConfig(AUTH_ENV));
    try {
      const other = new HttpClient(replica.url);
      const operator = await signupAndApprove('operator', 'operator');
      const minted = await asCookie(operator.cookie).post<{ key: string; id: string; role: string }>(
        '/v1/auth/api-keys',
        { name: 'ops', role: 'operator' },
      );
      expect(minted.body.role).toBe('operator');
      operator.key = minted.body.key;
      operator.keyId = minted.body.id;
      const spare = await asCookie(operator.cookie).post<{ key: string; id: string }>('/v1/auth/api-keys', {
        name: 'spare',
      });
      expect((await other.get('/v1/workers/status', { 'x-api-key': spare.body.key })).status).toBe(200);
      const exchanged = await api.post<{ token: string }>('/v1/auth/api-key-login', {
        api_key: spare.body.key,
        ttl_seconds: 3600,
      });
      const bearer = { authorization: `Bearer ${exchanged.body.token}` };
      expect((await other.get('/v1/workers/status', bearer)).status).toBe(200);
      const revoked = await asKey(adminKey).delete<{ revoked_at: string | null }>(
        `/v1/auth/api-keys/${spare.body.id}`,
      );
      expect(revoked.body.revoked_at).not.toBeNull();
      expect((await api.get('/v1/auth/me', { 'x-api-key': spare.body.key })).status).toBe(401);
      const started = Date.now();
      await waitFor(
        async () =>
          (await other.get('/v1/jobs', { 'x-api-key': spare.body.key })).status === 401 ? true : undefined,
        {
          timeoutMs: 5000,
          what: 'the replica to refuse the revoked key',
        },
      );
      expect(Date.now() - started).toBeLessThan(5000);
      // A bearer token exchanged for the key dies with it.
      await waitFor(async () => ((await other.get('/v1/jobs', bearer)).status === 401 ? true : undefined), {
        timeoutMs: 5000,
        what: 'the replica to refuse the token of the revoked key',
      });
      const list =
        await asKey(adminKey).get<{ id: string; revoked_at: string | null }[]>('/v1/auth/api-keys');
      expect(list.body.find((k) => k.id === spare.body.id)?.revoked_at).not.toBeNull();
    } finally {
      await replica.close();
    }
  });

  it('logout and admin revocation end sessions (401 afterwards); logout without a cookie is 204', async () => {
    const login = await api.post('/v1/auth/login', {
      email: users['researcher']!.email,
      password: users['researcher']!.password,
    });
    const cookie = cookieOf(login);
    expect((await asCookie(cookie).get('/v1/auth/me')).status).toBe(200);
    const out = await asCookie(cookie).post('/v1/auth/logout');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/svc_session=;/);
    expect((await asCookie(cookie).get('/v1/auth/me')).status).toBe(401);
    expect((await api.post('/v1/auth/logout')).status).toBe(204);

    const again = cookieOf(
      await api.post('/v1/auth/login', {
        email: users['researcher']!.email,
        password: users['researcher']!.password,
      }),
    );
    const revoked = await asKey(adminKey).post<{ sessions_revoked: number }>(
      `/v1/auth/admin/revoke-sessions/${users['researcher']!.id}`,
    );
    expect(revoked.body.sessions_revoked).toBeGreaterThanOrEqual(1);
    expect((await asCookie(again).get('/v1/auth/me')).status).toBe(401);
    expect((await asCookie(users['researcher']!.cookie).get('/v1/auth/me')).status).toBe(401);
  });

  it('every route enforces its role floor for anonymous, researcher, operator and admin callers', async () => {
    const spec = await api.get<{ paths: Record<string, Record<string, { 'x-role-floor'?: string }>> }>(
      '/openapi.json',
    );
    const rank = { guest: 0, researcher: 1, operator: 2, admin: 3 } as const;
    const callers: { name: string; rank: number; headers: Record<string, string> }[] = [
      { name: 'anonymous', rank: 0, headers: {} },
      { name: 'researcher', rank: 1, headers: { authorization: `ApiKey ${users['researcher']!.key}` } },
      { name: 'operator', rank: 2, headers: { 'x-api-key': users['operator']!.key! } },
      { name: 'admin', rank: 3, headers: { authorization: `ApiKey ${adminKey}` } },
    ];
    // Executing a database reset here would wipe the other tests' data; it has a test of its own.
    const skipForAllowed = new Set(['POST /v1/admin/reset-db']);
    // Open to every role, but about the caller's own account: anonymous callers get 401.
    const identityRequired = new Set(['GET /v1/auth/me']);
    let checked = 0;
    for (const [path, operations] of Object.entries(spec.body.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const floor = operation['x-role-floor'] as keyof typeof rank | undefined;
        expect({ route: `${method.toUpperCase()} ${path}`, floor }).toEqual({
          route: `${method.toUpperCase()} ${path}`,
          floor: expect.any(String),
        });
        const concrete = path.replace(/\{[^}]+\}/g, randomUUID());
        for (const caller of callers) {
          const allowed =
            caller.rank >= rank[floor!] &&
            !(caller.rank === 0 && identityRequired.has(`${method.toUpperCase()} ${path}`));
          if (allowed && skipForAllowed.has(`${method.toUpperCase()} ${path}`)) continue;
          for (const url of path.startsWith('/v1/') ? [concrete, concrete.slice(3)] : [concrete]) {
            const body = ['post', 'patch', 'put'].includes(method) ? {} : undefined;
            const res = await api.request(method.toUpperCase(), url, body, caller.headers);
            const where = `${caller.name} ${method.toUpperCase()} ${url} (floor ${floor})`;
            if (allowed)
              expect({ where, status: [401, 403].includes(res.status) ? res.status : 'passed' }).toEqual({
                where,
                status: 'passed',
              });
            else
              expect({ where, status: res.status }).toEqual({ where, status: caller.rank === 0 ? 401 : 403 });
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Anonymous mutating calls are never 2xx.
    for (const [path, operations] of Object.entries(spec.body.paths)) {
      for (const method of Object.keys(operations).filter((m) =>
        ['post', 'patch', 'delete', 'put'].includes(m),
      )) {
        const res = await api.request(
          method.toUpperCase(),
          path.replace(/\{[^}]+\}/g, randomUUID()),
          method === 'delete' ? undefined : {},
        );
        if (operations[method]!['x-role-floor'] !== 'guest') expect([401, 403]).toContain(res.status);
      }
    }
  });

  it('POST /jobs: 10 a minute per caller, then 429 with Retry-After, and the counter survives a gateway restart', async () => {
    const second = new Date().getUTCSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    // A caller of its own, so no other test has used its budget this minute.
    const fresh = await signupAndApprove('ratelimited', 'operator');
    const headers: Record<string, string> = { cookie: fresh.cookie };
    const post = (client: HttpClient): Promise<HttpResult<Problem>> =>
      client.post<Problem>(
        '/v1/jobs',
        { operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } },
        headers,
      );
    for (let i = 0; i < 10; i += 1) expect((await post(api)).status).toBe(201);
    const limited = await post(api);
    expect(limited.status).toBe(429);
    expect(limited.body.type).toBe('/problems/rate-limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await gateway.close();
    gateway = await createGateway(testConfig(AUTH_ENV));
    api = new HttpClient(gateway.url);
    const afterRestart = await post(api);
    expect(afterRestart.status).toBe(429);
  });

  it('daily job quota per role from auth.quotas: 429 quota-exceeded once used up; administrators are exempt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-quota-'));
    const file = join(dir, 'system.yaml');
    writeFileSync(file, 'auth:\n  quotas:\n    operator:\n      jobs: 2\n');
    const limited = await createGateway(
      testConfig({ ...AUTH_ENV, SVC_CONFIG_FILE: file, SVC_RATELIMIT_POST_JOBS: '1000/minute' }),
    );
    try {
      const client = new HttpClient(limited.url);
      const operator = await signupAndApprove('quota', 'operator');
      const post = (headers: Record<string, string>) =>
        client.post<Problem>(
          '/v1/jobs',
          { operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } },
          headers,
        );
      expect((await post({ cookie: operator.cookie })).status).toBe(201);
      expect((await post({ cookie: operator.cookie })).status).toBe(201);
      const over = await post({ cookie: operator.cookie });
      expect(over.status).toBe(429);
      expect(over.body.type).toBe('/problems/quota-exceeded');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      for (let i = 0; i < 3; i += 1)
        expect((await post({ authorization: `ApiKey ${adminKey}` })).status).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('stores argon2id hashes and SHA-256 digests only, never a raw key or token', async () => {
    const db = gateway.infra.db;
    const hashes = await db.query(`SELECT password_hash FROM app_user WHERE password_hash IS NOT NULL`);
    expect(hashes.length).toBeGreaterThan(2);
    for (const row of hashes) expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const dump = JSON.stringify([
      await db.query('SELECT * FROM api_key'),
      await db.query('SELECT * FROM user_session'),
      await db.query('SELECT * FROM app_user'),
      await db.query('SELECT * FROM audit_log'),
    ]);
    for (const secret of [
      adminKey,
      users['researcher']!.key!,
      users['operator']!.key!,
      adminCookie.split('=')[1]!,
    ]) {
      expect(dump.includes(secret)).toBe(false);
    }
    for (const u of Object.values(users)) expect(dump.includes(u.password)).toBe(false);
    const sessions = await db.query('SELECT token_hash FROM user_session');
    for (const row of sessions) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records visitor events for GETs with a 16-hex daily hash and no address', async () => {
    await api.get('/v1/jobs?limit=1');
    const rows = await waitFor(async () => {
      const found: { visitor_hash: string }[] = await gateway.infra.db.query(
        `SELECT visitor_hash, path, status, day::text AS day FROM visitor_event WHERE path = '/v1/jobs'`,
      );
      return found.length > 0 ? found : undefined;
    });
    expect(rows[0]?.visitor_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(await gateway.infra.db.query('SELECT * FROM visitor_event'))).not.toContain(
      '127.0.0.1',
    );
  });

  it('the audit log holds each security action and refuses changes; user deletion and reset are audited', async () => {
    const victim = await signupAndApprove('deleteme', 'researcher');
    expect((await asKey(adminKey).patch(`/v1/admin/users/${victim.id}`, { role: 'operator' })).status).toBe(
      200,
    );
    expect((await asKey(adminKey).delete(`/v1/users/${victim.id}`)).status).toBe(200);
    expect((await asKey(adminKey).delete(`/v1/users/${victim.id}`)).status).toBe(404);
    const audit = await asKey(adminKey).get<{ action: string }[]>('/v1/admin/audit?limit=1000');
    const actions = new Set(audit.body.map((a) => a.action));
    for (const action of [
      'signup',
      'login_ok',
      'login_fail',
      'logout',
      'admin_approve',
      'role_change',
      'deactivate',
      'api_key_mint',
      'api_key_revoke',
      'sessions_revoked',
      'user_deleted',
    ]) {
      expect({ action, present: actions.has(action) }).toEqual({ action, present: true });
    }
    const filtered = await asKey(adminKey).get<{ action: string }[]>('/v1/admin/audit?action=logout');
    expect(filtered.body.every((a) => a.action === 'logout')).toBe(true);
    await expect(gateway.infra.db.query(`UPDATE audit_log SET action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(gateway.infra.db.query(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);

    const reset = await asKey(adminKey).post<{ reset: boolean }>('/v1/admin/reset-db');
    expect(reset.status).toBe(200);
    const after = await api.post('/v1/auth/login', ADMIN);
    expect(after.status).toBe(200);
    const log = await asCookie(cookieOf(after)).get<{ action: string }[]>('/v1/admin/audit');
    expect(log.body.map((a) => a.action)).toContain('db_reset');
    const [{ n }] = await gateway.infra.db.query(`SELECT count(*)::int AS n FROM app_user`);
    expect(n).toBe(1);
  });
});
