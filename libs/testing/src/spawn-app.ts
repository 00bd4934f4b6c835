import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { testEnv, WORKSPACE_ROOT } from './test-environment';
import { waitFor } from './wait-for';

/** An app of the workspace running as its own process (so a test can SIGKILL or SIGTERM it). */
export class AppProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  get log(): string {
    return this.output;
  }

  async waitForLog(fragment: string, timeoutMs = 30_000): Promise<void> {
    await waitFor(async () => (this.output.includes(fragment) ? true : undefined), {
      timeoutMs,
      what: `'${fragment}' in the output of ${String(this.child.spawnargs.at(-1))}\n${this.output.slice(-2000)}`,
    });
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null) this.child.kill(signal);
  }

  async stop(): Promise<void> {
    this.kill('SIGKILL');
    await this.exited;
  }
}

/** Starts `apps/<name>/src/main.ts` against this run's database and queues. */
export async function spawnApp(name: string, env: Record<string, string> = {}): Promise<AppProcess> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      join(WORKSPACE_ROOT, 'tools', 'register.js'),
      join(WORKSPACE_ROOT, 'apps', name, 'src', 'main.ts'),
    ],
    {
      cwd: WORKSPACE_ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...testEnv({ SVC_LOG_LEVEL: 'info', ...env }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const app = new AppProcess(child);
  return app;
}
