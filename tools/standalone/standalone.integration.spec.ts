import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { currentTestRun, prepareTemplateDatabase, testEnv, WORKSPACE_ROOT } from '@svc/testing';
import { openStandaloneDatabase, standalonePaths } from './database';
import { DataFolderInUseError } from './data-lock';
import { startStandalone } from './standalone';

/** Collects what the standalone mode prints for the person at the terminal. */
class Terminal extends Writable {
  text = '';

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

interface SignIn {
  status: number;
  body: unknown;
  cookie: string;
}

async function signIn(url: string, email: string, password: string): Promise<SignIn> {
  const response = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { status: response.status, body: await response.json(), cookie };
}

describe('the standalone mode on a new data folder: the first-run administrator', () => {
  const run = currentTestRun();
  const id = randomBytes(3).toString('hex');
  const dataDir = join(WORKSPACE_ROOT, 'tmp', `standalone-first-run-${id}`);
  const { pgdata } = standalonePaths(dataDir);
  const env = (): NodeJS.ProcessEnv =>
    testEnv({
      SVC_STANDALONE_DATA_DIR: dataDir,
      SVC_ARTIFACTS_DIR: join(dataDir, 'artifacts'),
      SVC_QUEUE_PREFIX: `${run.queuePrefix}first_run_${id}.`,
    });
  let firstPassword = '';

  beforeAll(() => {
    // A migrated cluster stands in for the first start's initdb, which only costs time here.
    mkdirSync(dataDir, { recursive: true });
    if (run.standalone !== undefined) cpSync(run.standalone.template, pgdata, { recursive: true });
    else prepareTemplateDatabase(pgdata);
  }, 180_000);

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates an administrator, prints its one-time password once, and locks the folder while it runs', async () => {
    const terminal = new Terminal();
    const standalone = await startStandalone(env(), { terminal });
    try {
      const password = /password\s+(\S+)/.exec(terminal.text)?.[1] ?? '';
      expect(terminal.text).toContain('admin@localhost');
      expect(terminal.text).toMatch(/username\s+admin\b/);
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(terminal.text.split(password)).toHaveLength(2);
      firstPassword = password;

      const signedIn = await signIn(standalone.url, 'admin@localhost', password);
      expect(signedIn).toMatchObject({ status: 200, body: { username: 'admin', role: 'admin' } });
      // One embedded database session per folder: a second opener is refused, not let in.
      await expect(openStandaloneDatabase(pgdata)).rejects.toThrow(DataFolderInUseError);
    } finally {
      await standalone.close();
    }
  }, 120_000);

  it('creates no other administrator and prints no password when it starts again', async () => {
    const terminal = new Terminal();
    const standalone = await startStandalone(env(), { terminal });
    try {
      expect(terminal.text).toBe('');
      const signedIn = await signIn(standalone.url, 'admin@localhost', firstPassword);
      expect(signedIn.status).toBe(200);
      const users = await fetch(`${standalone.url}/v1/admin/users`, { headers: { cookie: signedIn.cookie } });
      expect(users.status).toBe(200);
      const admins = ((await users.json()) as { role: string }[]).filter((u) => u.role === 'admin');
      expect(admins).toHaveLength(1);
    } finally {
      await standalone.close();
    }
  }, 120_000);
});
