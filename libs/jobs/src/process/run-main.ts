import { AppConfig, ConfigError, loadConfig } from '@svc/platform';

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
    const service = await start(separateProcessConfig(name));
    const stop = (signal: string): void => {
      process.stderr.write(`${name}: ${signal} received, shutting down\n`);
      service.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`${name}: shutdown failed: ${(error as Error).stack ?? String(error)}\n`);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  };
  main().catch((error: unknown) => {
    const message = error instanceof ConfigError ? error.message : String((error as Error).stack ?? error);
    process.stderr.write(`${name} failed to start: ${message}\n`);
    process.exit(error instanceof ConfigError ? 78 : 1);
  });
}
