// Imported first by main.ts: tracing has to start before pg and the HTTP server are loaded.
import { startProcessTracing } from '@svc/platform/tracing';

startProcessTracing('svc-worker-svc.predictions');
