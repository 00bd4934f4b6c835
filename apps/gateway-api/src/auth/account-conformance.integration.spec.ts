import { randomUUID } from 'node:crypto';
import {
  createUser,
  SecurityStack,
  SignedInUser,
  startSecurityStack,
} from '../../test/security/security-stack';

const ping = () => ({ operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } });

describe('accounts: limits count accepted work, disabled e-mail flows, the logout cookie', () => {
  let stack: SecurityStack;
  let researcher: SignedInUser;

  beforeAll(async () => {
    stack = await startSecurityStack('account_conformance');
    researcher = await createUser(stack, 'researcher');
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('POST /jobs counts only accepted submissions against the per-minute rate (10 by default)', async () => {
    for (let i = 0; i < 12; i += 1) {
      const refused = await stack.api.post(
        '/v1/jobs',
        { ...ping(), queue_name: 'svc.jobs' },
        researcher.headers,
      );
      expect(refused.status).toBe(422);
    }
    for (let i = 0; i < 10; i += 1)
      expect((await stack.api.post('/v1/jobs', ping(), researcher.headers)).status).toBe(201);
    expect((await stack.api.post('/v1/jobs', ping(), researcher.headers)).status).toBe(429);
  });

  it('administrators are exempt from the per-user rate', async () => {
    for (let i = 0; i < 12; i += 1)
      expect((await stack.api.post('/v1/jobs', ping(), stack.admin.headers)).status).toBe(201);
  });

  it('without SMTP the e-mail flows answer 404 first: before validating the body or charging a rate', async () => {
    for (let i = 0; i < 15; i += 1) {
      const res = await stack.api.post<{ detail: string }>('/v1/auth/password-reset/request', {
        nonsense: 1,
      });
      expect(res.status).toBe(404);
      expect(res.body.detail).toMatch(/SMTP is not configured/);
    }
    expect((await stack.api.post('/v1/auth/magic-link/request', {})).status).toBe(404);
    expect((await stack.api.get('/v1/auth/magic-link/consume')).status).toBe(404);
    expect((await stack.api.post('/v1/auth/password-reset/consume', {})).status).toBe(404);
  });

  it('logout clears the session cookie with Secure, HttpOnly and SameSite=Strict', async () => {
    const user = await createUser(stack, 'researcher');
    const res = await stack.api.post('/v1/auth/logout', undefined, user.headers);
    expect(res.status).toBe(204);
    const header = res.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/svc_session=;/);
    expect(header).toMatch(/Secure/i);
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Strict/i);
  });
});
