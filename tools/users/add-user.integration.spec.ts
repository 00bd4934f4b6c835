import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createDataSource } from '@svc/persistence';
import { PasswordHasher } from '@svc/platform';
import {
  currentTestRun,
  prepareTemplateDatabase,
  startDatabaseServer,
  stopDatabaseServer,
  testEnv,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { openStandaloneDatabase, standalonePaths } from '../standalone/database';
import { lockFileOf } from '../standalone/data-lock';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The run's database and queues, with the mode left to the URL (standalone test runs set SVC_MODE,
 * which would send the tool to a standalone data folder).
 */
function servicesEnv(): Record<string, string> {
  const { SVC_MODE: _mode, ...env } = testEnv();
  return env;
}

/** Runs the CLI as `npm run user:add` does, with the given text piped to its standard input. */
function runCli(args: string[], stdin: string, env: Record<string, string> = servicesEnv()): Promise<CliRun> {
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
        env: { PATH: process.env['PATH'] ?? '', ...env },
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

describe('npm run user:add on a standalone data folder (child process, embedded database)', () => {
  const suffix = randomUUID().slice(0, 8);
  const dataDir = join(WORKSPACE_ROOT, 'tmp', `user-add-standalone-${suffix}`);
  const { pgdata } = standalonePaths(dataDir);
  const password = 'standalone-password-1';
  let services: DataSource;

  beforeAll(async () => {
    // A migrated cluster stands in for the data folder a first `npm start` leaves behind.
    const run = currentTestRun();
    mkdirSync(dataDir, { recursive: true });
    if (run.standalone !== undefined) cpSync(run.standalone.template, pgdata, { recursive: true });
    else prepareTemplateDatabase(pgdata);
    services = createDataSource({ url: servicesEnv()['SVC_DB_URL'] ?? '', poolSize: 1 });
    await services.initialize();
  }, 180_000);

  afterAll(async () => {
    await services?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The folder's account with that address, read with the folder opened by this process. */
  async function folderUser(address: string): Promise<UserRow | undefined> {
    const database = await openStandaloneDatabase(pgdata);
    const db = createDataSource({ url: database.url, poolSize: 1 });
    try {
      await db.initialize();
      return (await db.query<UserRow[]>(`SELECT * FROM app_user WHERE email = $1`, [address]))[0];
    } finally {
      if (db.isInitialized) await db.destroy();
      await database.close();
    }
  }

  const servicesUser = async (address: string): Promise<UserRow | undefined> =>
    (await services.query<UserRow[]>(`SELECT * FROM app_user WHERE email = $1`, [address]))[0];

  it('--standalone DIR opens the embedded database of the folder and adds the account there', async () => {
    const email = `folder-${suffix}@example.org`;
    const run = await runCli(['--standalone', dataDir, '--email', email, '--role', 'admin'], `${password}\n`);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`standalone data folder ${dataDir}`);
    expect(JSON.parse(run.stdout)).toMatchObject({ email, role: 'admin', status: 'active' });

    const row = await folderUser(email);
    expect(row).toMatchObject({ email, role: 'admin', status: 'active' });
    expect(await new PasswordHasher().verify(row?.password_hash ?? null, password)).toBe(true);
    expect(await servicesUser(email)).toBeUndefined();
    expect(existsSync(lockFileOf(pgdata))).toBe(false);
  });

  it('follows the mode npm start would pick: SVC_MODE=standalone writes to SVC_STANDALONE_DATA_DIR', async () => {
    const email = `by-mode-${suffix}@example.org`;
    const env = { ...servicesEnv(), SVC_MODE: 'standalone', SVC_STANDALONE_DATA_DIR: dataDir };
    const run = await runCli(['--email', email, '--role', 'operator'], `${password}\n`, env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('mode: standalone (SVC_MODE)');
    expect(await folderUser(email)).toMatchObject({ email, role: 'operator', status: 'active' });
    expect(await servicesUser(email)).toBeUndefined();
  });

  it('refuses a folder that holds no standalone data yet, and creates none', async () => {
    const empty = join(dataDir, 'never-started');
    mkdirSync(empty, { recursive: true });
    const run = await runCli(
      ['--standalone', empty, '--email', `x-${suffix}@example.org`, '--role', 'admin'],
      `${password}\n`,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`no standalone data in ${empty}`);
    expect(existsSync(join(empty, 'pgdata'))).toBe(false);
  });

  it('says so while the standalone service is still opening the folder', async () => {
    writeFileSync(lockFileOf(pgdata), JSON.stringify({ pid: process.pid, url: null }));
    try {
      const run = await runCli(
        ['--standalone', dataDir, '--email', `y-${suffix}@example.org`, '--role', 'admin'],
        `${password}\n`,
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`process ${process.pid}`);
      expect(run.stderr).toContain('try again once it is ready');
    } finally {
      rmSync(lockFileOf(pgdata), { force: true });
    }
  });

  it('adds the account through the database of the running service while it holds the folder', async () => {
    const server = await startDatabaseServer(pgdata, pgdata);
    const db = createDataSource({ url: server.url, poolSize: 1 });
    try {
      const email = `running-${suffix}@example.org`;
      const run = await runCli(
        ['--standalone', dataDir, '--email', email, '--role', 'researcher'],
        `${password}\n`,
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`the running standalone service (process ${server.pid})`);
      await db.initialize();
      const rows = await db.query<UserRow[]>(`SELECT * FROM app_user WHERE email = $1`, [email]);
      expect(rows).toMatchObject([{ email, role: 'researcher', status: 'active' }]);
    } finally {
      if (db.isInitialized) await db.destroy();
      await stopDatabaseServer(server, pgdata);
    }
  });
});
