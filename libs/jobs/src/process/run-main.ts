import {
  AppConfig,
  ArtifactStoreUnavailable,
  ConfigError,
  loadConfig,
  shutdownProcessTracing,
  startupLogFormat,
  writeProcessLine,
} from '@svc/platform';

/** sysexits: EX_UNAVAILABLE for a dependency that is down, EX_CONFIG for bad settings. */
const EXIT_UNAVAILABLE = 69;
const EXIT_CONFIG = 78;

/** The one line a process prints when it cannot start, and its exit code. */
export function describeStartupFailure(name: string, error: unknown): { line: string; code: number } {
  if (error instanceof ConfigError)
    return { line: `${name} failed to start: ${error.message}`, code: EXIT_CONFIG };
  if (error instanceof ArtifactStoreUnavailable)
    return {
      line: `${name} failed to start: ArtifactStoreUnavailable: ${error.message}`,
      code: EXIT_UNAVAILABLE,
    };
  return { line: `${name} failed to start: ${String((error as Error)?.stack ?? error)}`, code: 1 };
}

/**
 * The configuration of one component started as its own process. The standalone mode's queues live
 * inside one process, so a component started alone in that mode would never meet the others.
 */
export function separateProcessConfig(name: string): AppConfig {
  const config = loadConfig();
  if (config.mode === 'standalone')
    throw new ConfigError([
      `mode: ${name} runs alone only in the services mode; SVC_MODE=standalone runs every component in one process (npm start, or tools/standalone/main.ts)`,
    ]);
  return config;
}

/**
 * Entry point shared by the HTTP apps: load the configuration (exit 78 listing every bad setting),
 * start, and close gracefully on SIGTERM or SIGINT.
 */
export function runServiceMain(
  name: string,
  start: (config: AppConfig) => Promise<{ close(): Promise<void> }>,
): void {
  const main = async (): Promise<void> => {
    const config = separateProcessConfig(name);
    const service = await start(config);
    const stop = (signal: string): void => {
      writeProcessLine(name, 'info', `${signal} received, shutting down`, config.logFormat);
      // Spans still buffered (the request that asked for the stop among them) are exported last.
      service
        .close()
        .then(() => shutdownProcessTracing())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            writeProcessLine(
              name,
              'error',
              `shutdown failed: ${(error as Error).stack ?? String(error)}`,
              config.logFormat,
            );
            process.exit(1);
          },
        );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  };
  main().catch((error: unknown) => {
    const { line, code } = describeStartupFailure(name, error);
    writeProcessLine(name, 'error', line, startupLogFormat());
    process.exit(code);
  });
}
