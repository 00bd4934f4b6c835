import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from './test-environment';
import { waitFor } from './wait-for';

/** Integration suites run in standalone mode when this variable is 1 (`npm run test:standalone`). */
export const STANDALONE_VARIABLE = 'SVC_TEST_STANDALONE';

export function standaloneTestMode(): boolean {
  return process.env[STANDALONE_VARIABLE] === '1';
}

const SERVE = join(WORKSPACE_ROOT, 'tools', 'standalone', 'serve-database.ts');

function serveArgs(...args: string[]): string[] {
  return ['-r', join(WORKSPACE_ROOT, 'tools', 'register.js'), SERVE, ...args];
}

/** Creates and migrates a template cluster once per run, so each world copies it instead of running initdb. */
export function prepareTemplateDatabase(pgdata: string): void {
  const log = openSync(`${pgdata}.log`, 'a');
  try {
    const result = spawnSync(process.execPath, serveArgs(pgdata, ''), {
      cwd: WORKSPACE_ROOT,
      stdio: ['ignore', log, log],
    });
    if (result.status !== 0)
      throw new Error(`preparing the embedded database failed:\n${readFileSync(`${pgdata}.log`, 'utf8')}`);
  } finally {
    closeSync(log);
  }
}

export interface DatabaseServer {
  url: string;
  pid: number;
}

/**
 * Serves an embedded database (a copy of the template) from its own process, which ends with the
 * process that started it. Returns once the database answers and is migrated.
 */
export async function startDatabaseServer(pgdata: string, template: string): Promise<DatabaseServer> {
  const ready = `${pgdata}.ready`;
  const log = openSync(`${pgdata}.log`, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, serveArgs(pgdata, ready, template), {
      cwd: WORKSPACE_ROOT,
      env: { PATH: process.env['PATH'] ?? '' },
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  const info = await waitFor(
    async () => {
      if (exited) throw new Error(readFileSync(`${pgdata}.log`, 'utf8'));
      return existsSync(ready) ? (JSON.parse(readFileSync(ready, 'utf8')) as { url: string }) : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 50, what: `the embedded database at ${pgdata}` },
  );
  return { url: info.url, pid: child.pid! };
}

/** Stops a database server started by this run and removes its folder. */
export async function stopDatabaseServer(server: DatabaseServer, pgdata: string): Promise<void> {
  try {
    process.kill(server.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
  await waitFor(
    async () => {
      try {
        process.kill(server.pid, 0);
        return undefined;
      } catch {
        return true;
      }
    },
    { timeoutMs: 15_000, what: `database server ${server.pid} to stop` },
  ).catch(() => {
    try {
      process.kill(server.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  });
  for (const path of [pgdata, `${pgdata}.ready`, `${pgdata}.log`])
    rmSync(path, { recursive: true, force: true });
}
