import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { AppConfig } from '@svc/platform';
import { currentTestRun, testConfig, testEnv, WORKSPACE_ROOT } from './test-environment';
import { waitFor } from './wait-for';

/** How an app is stopped: its own process, or a component started inside the test process. */
interface AppControl {
  label: string;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

/**
 * An app of the workspace started by a test: its own process (so a test can SIGKILL or SIGTERM it),
 * or, in standalone runs, a component of the test process that shares its in-process queues.
 */
export class AppProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  constructor(
    private readonly control: AppControl,
    streams: NodeJS.ReadableStream[],
  ) {
    for (const stream of streams) stream.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = control.exited;
  }

  get log(): string {
    return this.output;
  }

  async waitForLog(fragment: string, timeoutMs = 30_000): Promise<void> {
    await waitFor(async () => (this.output.includes(fragment) ? true : undefined), {
      timeoutMs,
      what: `'${fragment}' in the output of ${this.control.label}\n${this.output.slice(-2000)}`,
    });
  }

  kill(signal: NodeJS.Signals): void {
    this.control.kill(signal);
  }

  async stop(): Promise<void> {
    this.kill('SIGKILL');
    await this.exited;
  }
}

function childControl(child: ChildProcess): AppControl {
  return {
    label: String(child.spawnargs.at(-1)),
    kill: (signal) => {
      if (child.exitCode === null) child.kill(signal);
    },
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
}

/** Starts `apps/<name>/src/main.ts` against this run's database and queues. */
export async function spawnApp(name: string, env: Record<string, string> = {}): Promise<AppProcess> {
  if (currentTestRun().standalone !== undefined) return startInProcess(name, env);
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
  return new AppProcess(childControl(child), [child.stdout, child.stderr]);
}

/** What tools/standalone/in-process-app.ts offers (loaded at run time: apps are not libraries). */
interface InProcessApps {
  startInProcessApp(
    name: string,
    config: AppConfig,
    logDestination?: NodeJS.WritableStream,
  ): Promise<{ close(): Promise<void> }>;
}

function inProcessApps(): InProcessApps {
  // A plain require keeps the apps in the test file's module registry (an ES import() would not),
  // where the in-process queues of the gateway the test created live.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(WORKSPACE_ROOT, 'tools', 'standalone', 'in-process-app')) as InProcessApps;
}

/**
 * Standalone runs: the app starts inside the test process, with the same code as its main.ts, so it
 * shares the in-process queues with the gateway the test created. A signal stops it gracefully; an
 * in-process component cannot die abruptly, so SIGKILL does the same.
 */
async function startInProcess(name: string, env: Record<string, string>): Promise<AppProcess> {
  const config = testConfig({ SVC_LOG_LEVEL: 'info', ...env });
  const logs = new PassThrough();
  let resolveExit!: (code: number | null) => void;
  const exited = new Promise<number | null>((resolve) => (resolveExit = resolve));
  let stop: (() => Promise<void>) | null = null;
  let stopping = false;
  const control: AppControl = {
    label: `${name} (in process)`,
    kill: () => {
      if (stopping) return;
      stopping = true;
      const done = stop === null ? Promise.resolve() : stop();
      done.then(
        () => resolveExit(0),
        (error: unknown) => {
          logs.write(`${name}: shutdown failed: ${String(error)}\n`);
          resolveExit(1);
        },
      );
    },
    exited,
  };
  const app = new AppProcess(control, [logs]);
  try {
    const started = await inProcessApps().startInProcessApp(name, config, logs);
    stop = () => started.close();
  } catch (error) {
    logs.write(`${name} failed to start: ${String((error as Error).stack ?? error)}\n`);
    resolveExit(1);
  }
  return app;
}
