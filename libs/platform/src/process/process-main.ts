import { ArtifactStoreUnavailable } from '../artifacts';
import type { LogFormat } from '../config/app-config';
import { ConfigError, startupLogFormat } from '../config/load-config';
import { writeProcessLine } from '../logging/process-line';
import { shutdownProcessTracing } from '../tracing/process-tracing';

/** sysexits: EX_UNAVAILABLE for a dependency that is down, EX_CONFIG for bad settings. */
const EXIT_UNAVAILABLE = 69;
const EXIT_CONFIG = 78;

/**
 * The one line a process prints when it cannot start, and its exit code: 78 for bad settings (or a
 * cause `explained` says another try would meet again), 69 for an unreachable artifact store, 1 with
 * the stack for anything else.
 */
export function describeStartupFailure(
  name: string,
  error: unknown,
  explained: (error: unknown) => boolean = () => false,
): { line: string; code: number } {
  if (error instanceof ConfigError || (error instanceof Error && explained(error)))
    return { line: `${name} failed to start: ${error.message}`, code: EXIT_CONFIG };
  if (error instanceof ArtifactStoreUnavailable)
    return {
      line: `${name} failed to start: ArtifactStoreUnavailable: ${error.message}`,
      code: EXIT_UNAVAILABLE,
    };
  return { line: `${name} failed to start: ${String((error as Error)?.stack ?? error)}`, code: 1 };
}

/** A started process: how it closes, and the log format its lines use. */
export interface StartedProcess {
  close(): Promise<void>;
  logFormat: LogFormat;
  /** Told of a promise rejected with no handler (a worker logs it as a failure). */
  onUnhandledRejection?: (reason: unknown) => void;
}

/**
 * The entry point of every process (the HTTP apps, the workers, the standalone mode): start it,
 * printing one line and exiting with `describeStartupFailure`'s code when it cannot; then on SIGTERM
 * or SIGINT close it once, export the spans still buffered, and exit 0 (1 when closing fails).
 */
export function runProcessMain(
  name: string,
  start: () => Promise<StartedProcess>,
  options: { explained?: (error: unknown) => boolean } = {},
): void {
  const main = async (): Promise<void> => {
    const started = await start();
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      writeProcessLine(name, 'info', `${signal} received, shutting down`, started.logFormat);
      started
        .close()
        .then(() => shutdownProcessTracing())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            const message = `shutdown failed: ${(error as Error).stack ?? String(error)}`;
            writeProcessLine(name, 'error', message, started.logFormat);
            process.exit(1);
          },
        );
    };
    const onRejection = started.onUnhandledRejection;
    if (onRejection !== undefined) process.on('unhandledRejection', (reason: unknown) => onRejection(reason));
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  };
  main().catch((error: unknown) => {
    const { line, code } = describeStartupFailure(name, error, options.explained);
    writeProcessLine(name, 'error', line, startupLogFormat());
    process.exit(code);
  });
}
