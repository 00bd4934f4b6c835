import { createHash, randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { UserRepository } from '@svc/persistence';
import { PasswordHasher } from '@svc/platform';
import { AppProcess, freePort, HttpClient, HttpResult, spawnApp, testConfig, waitFor } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
}
interface UserView {
  id: string;
  email: string;
  role: string;
  status: string;
}
interface AuditEntry {
  action: string;
  actor_user_id: string | null;
  target: string | null;
  payload: Record<string, unknown>;
}

/** A message as the SMTP sink received it: envelope plus the raw RFC 5322 text. */
interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server on 127.0.0.1 that accepts everything and keeps each message's raw text. */
class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  private readonly server: SMTPServer;

  private constructor(readonly port: number) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.messages.push({
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
  }

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink(await freePort());
    await new Promise<void>((resolve, reject) => {
      sink.server.once('error', reject);
      sink.server.listen(sink.port, '127.0.0.1', () => resolve());
    });
    return sink;
  }

  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(address));
  }

  /** Waits for the `count`-th message to `address` and returns its decoded body. */
  async waitForMail(address: string, count = 1): Promise<{ mail: ReceivedMail; body: string }> {
    const mail = await waitFor(async () => this.to(address)[count - 1], {
      timeoutMs: 10_000,
      what: `mail #${count} to ${address}`,
    });
    return { mail, body: decodeBody(mail.raw) };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The body of a single-part text message, undoing quoted-printable or base64 transfer encoding. */
function decodeBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function headerOf(raw: string, name: string): string | undefined {
  const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1];
}

/** The `svc_session` Set-Cookie header of a response, split into its value and attributes. */
function sessionCookie(res: HttpResult): { value: string; attributes: string[]; header: string } {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('svc_session='));
  if (header === undefined)
    throw new Error(`no svc_session cookie in ${JSON.stringify(res.headers.getSetCookie())}`);
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  return { value: pair.slice('svc_session='.length), attributes, header };
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
const asCookie = (value: string): Record<string, string> => ({ cookie: `svc_session=${value}` });

const ADMIN_EMAIL = `admin-${randomUUID().slice(0, 8)}@svc.test`;
const ADMIN_PASSWORD = 'bootstrap-admin-password-1';
const JWT_SECRET = `email-flows-test-${randomUUID()}`;

/**
 * The bootstrap creates the administrator only while none exists; when another test file of the same
 * run already made one, create this file's administrator directly so the test stays independent.
 */
async function ensureAdmin(gateway: Gateway): Promise<void> {
  const users = new UserRepository(gateway.infra.db);
  if ((await users.findByEmail(ADMIN_EMAIL)) !== null) return;
  await users.create({
    email: ADMIN_EMAIL,
    username: ADMIN_EMAIL.split('@')[0] ?? 'admin',
    displayName: 'Administrator',
    passwordHash: await new PasswordHasher().hash(ADMIN_PASSWORD),
    role: 'admin',
    status: 'active',
    intendedUse: null,
  });
}

describe('e-mail flows: magic link and password reset (real auth-service, SMTP, PostgreSQL, RabbitMQ)', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    // The gateway answers 404 for the e-mail flows itself when SMTP is not configured, so it gets the
    // same SMTP setting as the auth-service (it never sends mail: the host alone turns the flows on).
    gateway = await createGateway(
      testConfig({ SVC_AUTHN_REQUIRED: 'true', SVC_JWT_SECRET: JWT_SECRET, SVC_SMTP_HOST: '127.0.0.1' }),
    );
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  describe('with SMTP configured', () => {
    let smtp: SmtpSink;
    let auth: AppProcess;
    let adminSession = '';
    let adminCookie: Record<string, string> = {};
    const user = {
      email: `reader-${randomUUID().slice(0, 8)}@svc.test`,
      username: `reader_${randomUUID().slice(0, 8)}`,
      display_name: 'Mail Reader',
      password: 'first-password-123',
      intended_use: 'integration test of the e-mail flows',
    };
    const newPassword = 'second-password-456';
    let userId = '';
    let magicToken = '';
    let magicCookie = '';
    let resetToken = '';
    let passwordCookie = '';

    beforeAll(async () => {
      smtp = await SmtpSink.start();
      auth = await spawnApp('auth-service', {
        SVC_AUTHN_REQUIRED: 'true',
        SVC_JWT_SECRET: JWT_SECRET,
        SVC_SMTP_HOST: '127.0.0.1',
        SVC_SMTP_PORT: String(smtp.port),
        SVC_SMTP_FROM_ADDR: 'noreply@svc.test',
        SVC_PUBLIC_URL: gateway.url,
        SVC_BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
        SVC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
      });
      await auth.waitForLog('auth-service ready');
      await ensureAdmin(gateway);
    });

    afterAll(async () => {
      // Only one auth-service may consume this run's RPC queue: the next describe starts its own.
      await auth?.stop();
      await smtp?.close();
    });

    it('the bootstrap administrator signs in and approves a new sign-up', async () => {
      const login = await api.post<UserView>('/v1/auth/login', {
        email: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ email: ADMIN_EMAIL, role: 'admin', status: 'active' });
      adminSession = sessionCookie(login).value;
      adminCookie = asCookie(adminSession);

      const signup = await api.post<UserView>('/v1/auth/signup', user);
      expect(signup.status).toBe(201);
      expect(signup.body).toMatchObject({ email: user.email, status: 'pending' });
      userId = signup.body.id;

      const approve = await api.post<UserView>(`/v1/admin/users/${userId}/approve`, {}, adminCookie);
      expect(approve.status).toBe(200);
      expect(approve.body).toMatchObject({ id: userId, status: 'active', role: 'researcher' });
    });

    it('a magic-link request answers 202 alike for a known and an unknown address, and mails only the known one', async () => {
      const unknown = `nobody-${randomUUID().slice(0, 8)}@svc.test`;
      const forUnknown = await api.post('/v1/auth/magic-link/request', { email: unknown });
      const forUser = await api.post('/v1/auth/magic-link/request', { email: user.email });
      expect(forUser.status).toBe(202);
      expect(forUnknown.status).toBe(202);
      expect(forUnknown.body).toEqual(forUser.body);

      const { mail, body } = await smtp.waitForMail(user.email);
      expect(mail.from).toBe('noreply@svc.test');
      expect(headerOf(mail.raw, 'subject')).toBe('Your sign-in link');
      const link = /(https?:\/\/\S+\/v1\/auth\/magic-link\/consume\?token=)([A-Za-z0-9_-]+)/.exec(body);
      expect(link).not.toBeNull();
      expect(link?.[1]).toBe(`${gateway.url}/v1/auth/magic-link/consume?token=`);
      magicToken = link?.[2] ?? '';
      expect(magicToken.length).toBeGreaterThanOrEqual(32);
      // The mail went out before the 202, so a mail for the unknown address would be here by now.
      expect(smtp.to(unknown)).toEqual([]);
      expect(smtp.messages).toHaveLength(1);
    });

    it('consuming the link sets a strict, HttpOnly, Secure 30-day session cookie that /auth/me accepts', async () => {
      const consume = await api.get<UserView>(`/v1/auth/magic-link/consume?token=${magicToken}`);
      expect(consume.status).toBe(200);
      expect(consume.body).toMatchObject({ id: userId, email: user.email });
      const cookie = sessionCookie(consume);
      const attributes = cookie.attributes.map((a) => a.toLowerCase());
      expect(attributes).toEqual(
        expect.arrayContaining(['httponly', 'secure', 'samesite=strict', 'max-age=2592000', 'path=/']),
      );
      magicCookie = cookie.value;

      const me = await api.get<UserView>('/v1/auth/me', asCookie(magicCookie));
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: userId, email: user.email, status: 'active' });
    });

    it('a magic link works only once', async () => {
      const again = await api.get<Problem>(`/v1/auth/magic-link/consume?token=${magicToken}`);
      expect(again.status).toBe(401);
      expect(again.headers.get('content-type')).toContain('application/problem+json');
      expect(again.headers.getSetCookie()).toEqual([]);
    });

    it('a password reset by e-mail sets the new password and revokes every session', async () => {
      const request = await api.post('/v1/auth/password-reset/request', { email: user.email });
      expect(request.status).toBe(202);
      const { mail, body } = await smtp.waitForMail(user.email, 2);
      expect(headerOf(mail.raw, 'subject')).toBe('Reset your password');
      resetToken = /^\s*([A-Za-z0-9_-]{32,})\s*$/m.exec(body)?.[1] ?? '';
      expect(resetToken).not.toBe('');

      const consume = await api.post('/v1/auth/password-reset/consume', {
        token: resetToken,
        new_password: newPassword,
      });
      expect(consume.status).toBe(200);
      expect(consume.body).toEqual({ reset: true, sessions_revoked: 1 });

      expect((await api.get('/v1/auth/me', asCookie(magicCookie))).status).toBe(401);
      expect((await api.post('/v1/auth/login', { email: user.email, password: user.password })).status).toBe(
        401,
      );
      const login = await api.post<UserView>('/v1/auth/login', { email: user.email, password: newPassword });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ id: userId });
      passwordCookie = sessionCookie(login).value;

      const reused = await api.post('/v1/auth/password-reset/consume', {
        token: resetToken,
        new_password: 'third-password-789',
      });
      expect(reused.status).toBe(401);
    });

    it('the audit log records the reset and the magic-link sign-in', async () => {
      const resets = await api.get<AuditEntry[]>('/v1/admin/audit?action=password_reset', adminCookie);
      expect(resets.status).toBe(200);
      expect(resets.body).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            action: 'password_reset',
            target: userId,
            payload: { sessions_revoked: 1 },
          }),
        ]),
      );
      const logins = await api.get<AuditEntry[]>(
        `/v1/admin/audit?action=login_ok&actor_user_id=${userId}`,
        adminCookie,
      );
      expect(logins.status).toBe(200);
      expect(logins.body).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ action: 'login_ok', target: userId, payload: { method: 'magic_link' } }),
        ]),
      );
    });

    it('the database keeps only hashes of session and e-mail tokens', async () => {
      const db = gateway.infra.db;
      const sessions =
        await db.query<{ user_id: string; token_hash: string }[]>(`SELECT * FROM user_session`);
      const tokens = await db.query<{ user_id: string; kind: string; token_hash: string }[]>(
        `SELECT * FROM auth_token ORDER BY created_at`,
      );
      expect(sessions.filter((s) => s.user_id === userId).map((s) => s.token_hash)).toEqual(
        expect.arrayContaining([sha256Hex(magicCookie), sha256Hex(passwordCookie)]),
      );
      expect(tokens.filter((t) => t.user_id === userId).map((t) => [t.kind, t.token_hash])).toEqual([
        ['magic_link', sha256Hex(magicToken)],
        ['password_reset', sha256Hex(resetToken)],
      ]);
      for (const row of [...sessions, ...tokens]) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      const stored = JSON.stringify([...sessions, ...tokens]);
      for (const secret of [magicCookie, passwordCookie, adminSession, magicToken, resetToken]) {
        expect(stored).not.toContain(secret);
      }
    });
  });

  describe('with SMTP not configured', () => {
    let auth: AppProcess;
    let plain: Gateway;
    let plainApi: HttpClient;

    beforeAll(async () => {
      auth = await spawnApp('auth-service', { SVC_AUTHN_REQUIRED: 'true', SVC_JWT_SECRET: JWT_SECRET });
      await auth.waitForLog('auth-service ready');
      plain = await createGateway(testConfig({ SVC_AUTHN_REQUIRED: 'true', SVC_JWT_SECRET: JWT_SECRET }));
      plainApi = new HttpClient(plain.url);
    });

    afterAll(async () => {
      await plain?.close();
      await auth?.stop();
    });

    const token = 'A'.repeat(43);
    it.each([
      ['POST', '/v1/auth/magic-link/request', '', { email: 'someone@svc.test' }],
      ['GET', '/v1/auth/magic-link/consume', `?token=${token}`, undefined],
      ['POST', '/v1/auth/password-reset/request', '', { email: 'someone@svc.test' }],
      ['POST', '/v1/auth/password-reset/consume', '', { token, new_password: 'a-long-enough-password' }],
    ])('%s %s answers 404 problem+json', async (method, path, query, body) => {
      const res = await plainApi.request<Problem>(method, `${path}${query}`, body);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.status).toBe(404);
      expect(res.body.detail).toContain('e-mail flows are disabled');
    });
  });
});
