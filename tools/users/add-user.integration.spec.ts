import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createDataSource } from '@svc/persistence';
import { PasswordHasher } from '@svc/platform';
import { testEnv, WORKSPACE_ROOT } from '@svc/testing';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as `npm run user:add` does, with the given text piped to its standard input. */
function runCli(args: string[], stdin: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '-r',
        join(WORKSPACE_ROOT, 'tools', 'register.js'),
        join(WORKSPACE_ROOT, 'tools', 'users', 'add-user.ts'),
        ...args,
      ],
      {
        cwd: WORKSPACE_ROOT,
        env: { PATH: process.env['PATH'] ?? '', ...testEnv() },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

interface UserRow {
  id: string;
  email: string;
  username: string;
  display_name: string;
  password_hash: string;
  role: string;
  status: string;
}

describe('npm run user:add (child process, real PostgreSQL)', () => {
  let db: DataSource;
  const suffix = randomUUID().slice(0, 8);
  const email = `operator-${suffix}@example.org`;
  const password = 'operator-password-1';

  beforeAll(async () => {
    db = createDataSource({ url: testEnv()['SVC_DB_URL'] ?? '', poolSize: 1 });
    await db.initialize();
  });

  afterAll(async () => {
    await db?.destroy();
  });

  const userRow = async (address: string): Promise<UserRow | undefined> =>
    (await db.query<UserRow[]>(`SELECT * FROM app_user WHERE lower(email) = lower($1)`, [address]))[0];

  it('creates an active user with an argon2id hash of the piped password and audits it', async () => {
    const run = await runCli(
      [
        '--email',
        email,
        '--role',
        'operator',
        '--username',
        `op_${suffix}`,
        '--display-name',
        'Night Operator',
      ],
      `${password}\n`,
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const printed = JSON.parse(run.stdout) as Record<string, string>;
    expect(printed).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email,
      username: `op_${suffix}`,
      role: 'operator',
      status: 'active',
    });

    const row = await userRow(email);
    expect(row).toMatchObject({
      id: printed['id'],
      username: `op_${suffix}`,
      display_name: 'Night Operator',
      role: 'operator',
      status: 'active',
    });
    expect(row?.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(await new PasswordHasher().verify(row?.password_hash ?? null, password)).toBe(true);

    const audit = await db.query<{ actor_user_id: string | null; payload: Record<string, unknown> }[]>(
      `SELECT actor_user_id, payload FROM audit_log WHERE action = 'signup' AND target = $1`,
      [printed['id']],
    );
    expect(audit).toEqual([{ actor_user_id: null, payload: { via: 'cli', role: 'operator' } }]);
  });

  it('refuses an e-mail address that is already registered, whatever its case, with exit code 1', async () => {
    const run = await runCli(['--email', email.toUpperCase(), '--role', 'admin'], `${password}\n`);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('is already registered');
    expect(await userRow(email)).toMatchObject({ role: 'operator' });
  });

  it('refuses a password shorter than the minimum and creates nothing', async () => {
    const other = `short-${suffix}@example.org`;
    const run = await runCli(['--email', other, '--role', 'researcher'], 'short\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the password must have at least');
    expect(await userRow(other)).toBeUndefined();
  });

  it('rejects invalid arguments with exit code 2 before touching the database', async () => {
    const run = await runCli(['--email', `x-${suffix}@example.org`, '--role', 'superuser'], `${password}\n`);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown role 'superuser'");
    expect(run.stderr).toContain('usage: npm run user:add');
  });
});
