import { loadConfig } from '../config/load-config';
import { createLogger } from '../logging/logger';
import { INACTIVE_TRACING, startTracing, TracingHandle } from './start-tracing';

let current: TracingHandle = INACTIVE_TRACING;

/**
 * The preload of every app's entry point: starts tracing from the configuration before the app's
 * own modules (and with them `pg` and the HTTP server) are loaded. An invalid configuration is left
 * for the entry point to report; this only skips tracing.
 */
export function startProcessTracing(
  defaultServiceName: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): TracingHandle {
  let config;
  try {
    config = loadConfig({ env, onWarning: () => undefined });
  } catch {
    return current;
  }
  if (!config.otel.enabled) return current;
  const logger = createLogger({ name: 'tracing', format: config.logFormat, level: config.logLevel });
  current = startTracing({
    otel: config.otel,
    serviceName: defaultServiceName,
    warn: (message) => logger.warn(message),
  });
  if (current.active)
    logger.info('tracing started', {
      service_name: config.otel.serviceName ?? defaultServiceName,
      endpoint: config.otel.endpoint,
      sample_ratio: config.otel.sampleRatio,
    });
  return current;
}

/** Flushes and stops this process's tracing (a no-op when it never started). */
export async function shutdownProcessTracing(): Promise<void> {
  const handle = current;
  current = INACTIVE_TRACING;
  await handle.shutdown();
}
