// Imported first by main.ts: tracing has to start before pg and the HTTP server are loaded.
import { startProcessTracing, TracingHandle } from '@svc/platform/tracing';

/**
 * Starts tracing for the standalone process from the same settings as the services mode. The
 * standalone mode picks its database and queues itself, so their URLs may be unset at this point;
 * placeholders stand in for them, because only the tracing settings matter to this preload.
 */
export function startStandaloneTracing(env: Readonly<Record<string, string | undefined>>): TracingHandle {
  return startProcessTracing('svc-standalone', {
    SVC_DB_URL: 'postgres://standalone',
    SVC_AMQP_URL: 'amqp://standalone',
    SVC_ARTIFACTS_DIR: 'var/standalone/artifacts',
    ...env,
    SVC_MODE: 'standalone',
  });
}

startStandaloneTracing(process.env);
