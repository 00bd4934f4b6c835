import type { AppConfig } from '../config/app-config';

/** The running tracing pipeline of this process, or an inactive stand-in. */
export interface TracingHandle {
  readonly active: boolean;
  /** Exports what is still buffered and stops; safe to call more than once. */
  shutdown(): Promise<void>;
}

/** Loads a module by name; `require` in production, a failing stand-in in tests. */
export type ModuleLoader = (id: string) => unknown;

export const INACTIVE_TRACING: TracingHandle = { active: false, shutdown: async () => undefined };

// The optional packages, typed by the few members used here, so that a build without them still
// compiles and a process without them still starts.
interface SdkNodeModule {
  NodeSDK: new (configuration: Record<string, unknown>) => { start(): void; shutdown(): Promise<void> };
  tracing: {
    BatchSpanProcessor: new (exporter: unknown, config: { scheduledDelayMillis: number }) => unknown;
    ParentBasedSampler: new (config: { root: unknown }) => unknown;
    TraceIdRatioBasedSampler: new (ratio: number) => unknown;
  };
}
type Ctor<K extends string> = Record<K, new (config?: Record<string, unknown>) => unknown>;

/**
 * The OTLP/HTTP traces URL: an endpoint given as a bare origin (`http://collector:4318`) gets the
 * standard `/v1/traces` path, a URL with a path is used as it is; null keeps the exporter's default.
 */
export function tracesUrl(endpoint: string | null): string | undefined {
  if (endpoint === null) return undefined;
  const url = new URL(endpoint);
  return url.pathname === '/' || url.pathname === '' ? `${url.origin}/v1/traces` : url.href;
}

/**
 * Starts OpenTelemetry tracing for this process: inbound and outbound HTTP and PostgreSQL queries
 * are instrumented (the broker's spans come from the broker adapter itself), spans are sampled by a
 * parent-based ratio sampler and exported in batches over OTLP/HTTP. Must run before `pg` and the
 * HTTP server modules are loaded. Missing packages give one warning and an inactive handle.
 */
export function startTracing(options: {
  otel: AppConfig['otel'];
  serviceName: string;
  warn: (message: string) => void;
  load?: ModuleLoader;
}): TracingHandle {
  const { otel, warn } = options;
  if (!otel.enabled) return INACTIVE_TRACING;
  const load = options.load ?? require;
  let sdkNode: SdkNodeModule;
  let exporters: Ctor<'OTLPTraceExporter'>;
  let http: Ctor<'HttpInstrumentation'>;
  let pg: Ctor<'PgInstrumentation'>;
  try {
    sdkNode = load('@opentelemetry/sdk-node') as SdkNodeModule;
    exporters = load('@opentelemetry/exporter-trace-otlp-http') as Ctor<'OTLPTraceExporter'>;
    http = load('@opentelemetry/instrumentation-http') as Ctor<'HttpInstrumentation'>;
    pg = load('@opentelemetry/instrumentation-pg') as Ctor<'PgInstrumentation'>;
  } catch (error) {
    warn(
      `tracing is enabled but the OpenTelemetry packages are not installed (${(error as Error).message}); continuing without tracing`,
    );
    return INACTIVE_TRACING;
  }
  const url = tracesUrl(otel.endpoint);
  const { tracing } = sdkNode;
  const sdk = new sdkNode.NodeSDK({
    serviceName: otel.serviceName ?? options.serviceName,
    sampler: new tracing.ParentBasedSampler({ root: new tracing.TraceIdRatioBasedSampler(otel.sampleRatio) }),
    spanProcessors: [
      new tracing.BatchSpanProcessor(new exporters.OTLPTraceExporter(url !== undefined ? { url } : {}), {
        scheduledDelayMillis: otel.exportDelayMs,
      }),
    ],
    instrumentations: [new http.HttpInstrumentation(), new pg.PgInstrumentation()],
  });
  sdk.start();
  let stopping: Promise<void> | null = null;
  return {
    active: true,
    shutdown: () =>
      (stopping ??= sdk.shutdown().catch((error: unknown) => {
        warn(`tracing shutdown failed: ${(error as Error).message}`);
      })),
  };
}
