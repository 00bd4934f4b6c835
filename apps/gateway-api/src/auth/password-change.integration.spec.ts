import { randomUUID } from 'node:crypto';
import {
  createUser,
  Problem,
  SecurityStack,
  sessionCookieOf,
  SignedInUser,
  startSecurityStack,
} from '../../test/security/security-stack';

// POST /v1/auth/password over HTTP against the real auth-service, PostgreSQL and RabbitMQ: a signed-in
// user replaces their own password without e-mail. A small login_max_failures keeps the throttle
// case short.
const MAX_FAILURES = 3;

interface PasswordChanged {
  changed: true;
  sessions_revoked: number;
}

interface AuditEntry {
  action: string;
  actor_user_id: string | null;
  target: string | null;
  payload: Record<string, unknown>;
}

describe('changing one’s own password (POST /v1/auth/password)', () => {
  let stack: SecurityStack;

  beforeAll(async () => {
    stack = await startSecurityStack('password_change', {
      env: { SVC_LOGIN_MAX_FAILURES: String(MAX_FAILURES) },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const login = (user: SignedInUser, password: string) =>
    stack.api.post('/v1/auth/login', { email: user.email, password });
  const change = (headers: Record<string, string>, body: Record<string, unknown>) =>
    stack.api.post<PasswordChanged & Problem>('/v1/auth/password', body, headers);
  const auditOf = async (action: string, actor: string): Promise<AuditEntry[]> => {
    const res = await stack.api.get<AuditEntry[]>(
      `/v1/admin/audit?action=${action}&actor_user_id=${actor}`,
      stack.admin.headers,
    );
    expect(res.status).toBe(200);
    return res.body;
  };
  const newPassword = () => `new-${randomUUID()}`;

  it('with the current password: the new one signs in and the old one not; other sessions end, this one stays; audited', async () => {
    const user = await createUser(stack, 'researcher');
    const other = { cookie: sessionCookieOf(await login(user, user.password)) };
    const third = { cookie: sessionCookieOf(await login(user, user.password)) };
    expect((await stack.api.get('/v1/auth/me', other)).status).toBe(200);
    const next = newPassword();

    const res = await change(user.headers, { current_password: user.password, new_password: next });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ changed: true, sessions_revoked: 2 });

    expect((await stack.api.get('/v1/auth/me', user.headers)).status).toBe(200);
    for (const revoked of [other, third]) {
      expect((await stack.api.get('/v1/auth/me', revoked)).status).toBe(401);
      expect((await stack.api.get('/v1/jobs', revoked)).status).toBe(401);
    }
    expect((await login(user, user.password)).status).toBe(401);
    expect((await login(user, next)).status).toBe(200);

    expect(await auditOf('password_changed', user.id)).toEqual([
      expect.objectContaining({ target: user.id, payload: { sessions_revoked: 2 } }),
    ]);
    const [row] = await stack.gateway.infra.db.query<{ password_hash: string }[]>(
      `SELECT password_hash FROM app_user WHERE id = $1`,
      [user.id],
    );
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    expect(row?.password_hash.includes(next)).toBe(false);
  });

  it('a wrong current password is 403 problem+json and changes nothing; past login_max_failures the account waits (429 with Retry-After), the right password too', async () => {
    const user = await createUser(stack, 'researcher');
    const other = { cookie: sessionCookieOf(await login(user, user.password)) };
    for (let i = 0; i < MAX_FAILURES; i += 1) {
      const wrong = await change(user.headers, {
        current_password: 'not-my-password',
        new_password: newPassword(),
      });
      expect(wrong.status).toBe(403);
      expect(wrong.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(wrong.body).toMatchObject({
        type: '/problems/forbidden',
        detail: 'the current password is wrong',
        code: 'wrong_current_password',
      });
    }
    // Every session of the account shares the account's counter.
    for (const headers of [user.headers, other]) {
      const throttled = await change(headers, {
        current_password: user.password,
        new_password: newPassword(),
      });
      expect(throttled.status).toBe(429);
      expect(throttled.body.type).toBe('/problems/rate-limited');
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    expect((await login(user, user.password)).status).toBe(200);
    expect((await stack.api.get('/v1/auth/me', user.headers)).status).toBe(200);
    expect((await stack.api.get('/v1/auth/me', other)).status).toBe(200);
    const failures = await auditOf('login_fail', user.id);
    expect(failures.filter((entry) => entry.payload['reason'] === 'wrong_current_password')).toHaveLength(
      MAX_FAILURES,
    );
    const throttledLog = await stack.api.get<AuditEntry[]>(
      '/v1/admin/audit?action=login_throttled&limit=1000',
      stack.admin.headers,
    );
    expect(throttledLog.body.map((entry) => entry.payload)).toContainEqual(
      expect.objectContaining({ flow: 'password_change', scope: 'account' }),
    );

    // The counter is the account's: another account at the same address is not held back.
    const bystander = await createUser(stack, 'researcher');
    const changed = await change(bystander.headers, {
      current_password: bystander.password,
      new_password: newPassword(),
    });
    expect(changed.status).toBe(200);
  });

  it('a new password shorter than the sign-up minimum or equal to the current one is 422 naming new_password', async () => {
    const user = await createUser(stack, 'researcher');
    const cases: { body: Record<string, unknown>; field: string }[] = [
      { body: { current_password: user.password, new_password: 'short-pw' }, field: 'new_password' },
      { body: { current_password: user.password, new_password: user.password }, field: 'new_password' },
      { body: { current_password: user.password, new_password: 'x'.repeat(1001) }, field: 'new_password' },
      { body: { new_password: newPassword() }, field: 'current_password' },
      { body: { current_password: user.password }, field: 'new_password' },
    ];
    for (const { body, field } of cases) {
      const res = await change(user.headers, body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(res.body.type).toBe('/problems/validation-error');
      expect(res.body.errors?.map((e) => e.path)).toContain(field);
    }
    expect((await login(user, user.password)).status).toBe(200);
    expect((await stack.api.get('/v1/auth/me', user.headers)).status).toBe(200);
  });

  it('anonymous callers are 401 problem+json', async () => {
    const res = await change({}, { current_password: 'whatever-it-is', new_password: newPassword() });
    expect(res.status).toBe(401);
    expect(res.body.type).toBe('/problems/unauthorized');
  });

  it('an API key, or a bearer token exchanged for one, is refused with 403: only a session changes a password', async () => {
    const user = await createUser(stack, 'researcher');
    const minted = await stack.api.post<{ key: string }>(
      '/v1/auth/api-keys',
      { name: 'laptop' },
      user.headers,
    );
    expect(minted.status).toBe(201);
    const exchanged = await stack.api.post<{ token: string }>('/v1/auth/api-key-login', {
      api_key: minted.body.key,
    });
    expect(exchanged.status).toBe(200);
    const credentials: Record<string, string>[] = [
      { authorization: `ApiKey ${minted.body.key}` },
      { 'x-api-key': minted.body.key },
      { authorization: `Bearer ${exchanged.body.token}` },
    ];
    for (const headers of credentials) {
      const res = await change(headers, { current_password: user.password, new_password: newPassword() });
      expect(res.status).toBe(403);
      expect(res.body.type).toBe('/problems/forbidden');
      expect(res.body.detail).toMatch(/signed-in session/);
    }
    expect((await login(user, user.password)).status).toBe(200);
    expect(await auditOf('password_changed', user.id)).toEqual([]);
  });
});
