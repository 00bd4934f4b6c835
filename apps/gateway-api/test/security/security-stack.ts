import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  AppProcess,
  createSuiteWorld,
  HttpClient,
  HttpResult,
  spawnApp,
  SuiteWorld,
  testConfig,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { createGateway, Gateway } from '../../src/app.factory';

export type AccountRole = 'researcher' | 'operator' | 'admin';

export interface SignedInUser {
  id: string;
  email: string;
  password: string;
  role: AccountRole;
  /** `{ cookie: 'svc_session=...' }`, ready to pass as request headers. */
  headers: Record<string, string>;
}

/** The real stack with accounts on: a suite database, the auth-service, the gateway and some workers. */
export interface SecurityStack {
  world: SuiteWorld;
  env: Record<string, string>;
  gateway: Gateway;
  auth: AppProcess;
  workers: AppProcess[];
  api: HttpClient;
  admin: SignedInUser;
  close(): Promise<void>;
}

const ADMIN_PASSWORD = 'bootstrap-secret-1';

/** An application/problem+json body as the hostile-input tests read it (members beyond these by name). */
export interface Problem {
  type: string;
  status: number;
  detail?: string;
  errors?: { path: string; message: string }[];
  [member: string]: unknown;
}

/** A multipart form with `fasta` as its `file` part and the given text fields. */
export function fastaForm(
  fasta: string,
  fields: Record<string, string> = {},
  filename = 'upload.fasta',
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([fasta], { type: 'text/plain' }), filename);
  return form;
}

/** `count` short protein records named `<prefix>_<i>`. */
export function fastaOf(count: number, prefix: string): string {
  return Array.from(
    { length: count },
    (_, i) => `>${prefix}_${i} protein ${i}\nMKTAYIAKQRQISFVKSHFSRQ\n`,
  ).join('');
}

export function sessionCookieOf(res: HttpResult): string {
  const header = res.headers.get('set-cookie') ?? '';
  const match = /svc_session=([^;]+)/.exec(header);
  if (match === null) throw new Error(`no session cookie in answer ${res.status}: ${res.text.slice(0, 300)}`);
  return `svc_session=${match[1]}`;
}

/**
 * Starts the stack the hostile-input suites attack: authentication required, a database of the
 * suite's own, the fixtures folder as the only allowed file source, and the named workers.
 */
export async function startSecurityStack(
  name: string,
  options: { workers?: string[]; env?: Record<string, string> } = {},
): Promise<SecurityStack> {
  const world = await createSuiteWorld(name);
  const adminEmail = `admin-${randomUUID().slice(0, 8)}@svc.test`;
  const env: Record<string, string> = {
    ...world.env,
    SVC_AUTHN_REQUIRED: 'true',
    SVC_SOURCE_ALLOWED_ROOTS: join(WORKSPACE_ROOT, 'fixtures'),
    ...options.env,
  };
  const auth = await spawnApp('auth-service', {
    ...env,
    SVC_BOOTSTRAP_ADMIN_EMAIL: adminEmail,
    SVC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
  });
  const workers = (options.workers ?? []).map((worker) => spawnApp(worker, env));
  const started = await Promise.all(workers);
  await auth.waitForLog('auth-service ready', 60_000);
  await Promise.all(started.map((worker) => worker.waitForLog('worker started', 60_000)));
  const gateway = await createGateway(testConfig(env));
  const api = new HttpClient(gateway.url);
  const login = await api.post('/v1/auth/login', { email: adminEmail, password: ADMIN_PASSWORD });
  if (login.status !== 200) throw new Error(`bootstrap admin login failed: ${login.status} ${login.text}`);
  const me = await api.get<{ id: string }>('/v1/auth/me', { cookie: sessionCookieOf(login) });
  const admin: SignedInUser = {
    id: me.body.id,
    email: adminEmail,
    password: ADMIN_PASSWORD,
    role: 'admin',
    headers: { cookie: sessionCookieOf(login) },
  };
  return {
    world,
    env,
    gateway,
    auth,
    workers: started,
    api,
    admin,
    async close() {
      await Promise.all(started.map((worker) => worker.stop()));
      await gateway.close();
      await auth.stop();
      await world.dispose();
    },
  };
}

/** Signs a new account up, has the bootstrap administrator give it `role`, and signs it in. */
export async function createUser(stack: SecurityStack, role: AccountRole): Promise<SignedInUser> {
  const { api } = stack;
  const email = `${role}-${randomUUID().slice(0, 8)}@svc.test`;
  const password = `pw-${randomUUID()}`;
  const signup = await api.post<{ id: string }>('/v1/auth/signup', {
    email,
    username: `${role}_${randomUUID().slice(0, 8)}`,
    display_name: role,
    password,
    intended_use: 'hostile-input tests',
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.text}`);
  // Approval grants researcher or operator; an administrator is promoted afterwards.
  const approved = await api.post(
    `/v1/admin/users/${signup.body.id}/approve`,
    { role: role === 'admin' ? 'operator' : role },
    stack.admin.headers,
  );
  if (approved.status !== 200) throw new Error(`approval failed: ${approved.status} ${approved.text}`);
  if (role === 'admin') {
    const promoted = await api.patch(`/v1/admin/users/${signup.body.id}`, { role }, stack.admin.headers);
    if (promoted.status !== 200) throw new Error(`promotion failed: ${promoted.status} ${promoted.text}`);
  }
  const login = await api.post('/v1/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { id: signup.body.id, email, password, role, headers: { cookie: sessionCookieOf(login) } };
}
