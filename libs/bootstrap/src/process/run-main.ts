import { AppConfig, ConfigError, loadConfig, runProcessMain } from '@svc/platform';

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
 * start, and close gracefully on SIGTERM or SIGINT (`runProcessMain`).
 */
export function runServiceMain(
  name: string,
  start: (config: AppConfig) => Promise<{ close(): Promise<void> }>,
): void {
  runProcessMain(name, async () => {
    const config = separateProcessConfig(name);
    const service = await start(config);
    // Spans still buffered (the request that asked for the stop among them) are exported last.
    return { close: () => service.close(), logFormat: config.logFormat };
  });
}
