import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createSuiteWorld, SuiteWorld, testEnv, waitFor, WORKSPACE_ROOT } from '@svc/testing';

/** Every line a process writes is one JSON object unless the plain-text format is chosen. */
describe('process lines outside the logger', () => {
  // A database and queues of its own: the worker it starts must not take other suites' jobs.
  let world: SuiteWorld;
  beforeAll(async () => {
    world = await createSuiteWorld('process_lines');
  });
  afterAll(async () => {
    await world?.dispose();
  });

  const run = async (extra: Record<string, string>): Promise<{ lines: string[]; code: number | null }> => {
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      ...testEnv({ SVC_LOG_LEVEL: 'info', ...world.env }),
    };
    // The deprecated alias instead of SVC_DB_URL: the loader warns about it.
    delete env['SVC_DB_URL'];
    Object.assign(env, { DATABASE_URL: world.env['SVC_DB_URL'] }, extra);
    const child = spawn(
      process.execPath,
      [
        '-r',
        join(WORKSPACE_ROOT, 'tools', 'register.js'),
        join(WORKSPACE_ROOT, 'apps', 'ingestion-worker', 'src', 'main.ts'),
      ],
      { cwd: WORKSPACE_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let code: number | null;
    try {
      await waitFor(async () => (output.includes('worker started') ? true : undefined), {
        timeoutMs: 45_000,
        what: `the worker to start\n${output.slice(-2000)}`,
      });
      // The signal handlers are installed right after the runtime reports that it started.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      child.kill('SIGTERM');
      code = await exited;
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    return { lines: output.split('\n').filter((line) => line.trim() !== ''), code };
  };

  it('the DATABASE_URL deprecation warning and the SIGTERM line are single-line JSON', async () => {
    const { lines, code } = await run({});
    expect(code).toBe(0);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as { message?: string; level?: string };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    expect(parsed.some((l) => l.level === 'warn' && /DATABASE_URL is deprecated/.test(l.message ?? ''))).toBe(
      true,
    );
    expect(parsed.some((l) => /SIGTERM received, shutting down/.test(l.message ?? ''))).toBe(true);
  });

  it('with SVC_LOG_FORMAT=text the same lines are plain text', async () => {
    const { lines } = await run({ SVC_LOG_FORMAT: 'text' });
    expect(lines.some((line) => / WARN \[config\] DATABASE_URL is deprecated/.test(line))).toBe(true);
    expect(lines.some((line) => /SIGTERM received, shutting down/.test(line) && !line.startsWith('{'))).toBe(
      true,
    );
  });
});
