import type * as OtelApi from '@opentelemetry/api';
import { childTraceparent, isTraceparent } from '../messaging/traceparent';
import type { ModuleLoader } from './start-tracing';

type Api = typeof OtelApi;

// The numeric values of the API's SpanKind and SpanStatusCode enums; stable parts of the OTel API.
const KIND = { internal: 0, producer: 3, consumer: 4 } as const;
const STATUS_ERROR = 2;

/**
 * Spans around broker messages and job executions, with the W3C `traceparent` carried in message
 * headers. With the OpenTelemetry API and a started SDK, the publisher's span context goes into the
 * header and the consumer continues that trace. Without them (packages absent or tracing off) the
 * header still carries the trace id forward, so logs of one request and its jobs share it.
 */
export class MessageTracing {
  constructor(private readonly api: Api | null) {}

  /** Runs `publish` with the header value to send; inside a producer span when tracing is on. */
  async producer<T>(
    queue: string,
    parent: string | null | undefined,
    publish: (traceparent: string) => Promise<T>,
  ): Promise<T> {
    const api = this.api;
    if (api === null) return publish(childTraceparent(parent));
    const base = this.parentContext(api, parent);
    const span = api.trace.getTracer('svc.broker').startSpan(
      `${queue} publish`,
      {
        kind: KIND.producer,
        attributes: { 'messaging.system': 'rabbitmq', 'messaging.destination.name': queue },
      },
      base,
    );
    const carrier: Record<string, string> = {};
    api.propagation.inject(api.trace.setSpan(base, span), carrier);
    const header = isTraceparent(carrier['traceparent']) ? carrier['traceparent'] : childTraceparent(parent);
    return this.finish(span, () => publish(header));
  }

  /** Runs a delivery's handler inside a consumer span that continues the header's trace. */
  async consumer<T>(queue: string, traceparent: string | null, handle: () => Promise<T>): Promise<T> {
    const api = this.api;
    if (api === null) return handle();
    const parent = traceparent !== null ? this.extract(api, traceparent) : api.ROOT_CONTEXT;
    const span = api.trace.getTracer('svc.broker').startSpan(
      `${queue} process`,
      {
        kind: KIND.consumer,
        attributes: { 'messaging.system': 'rabbitmq', 'messaging.destination.name': queue },
      },
      parent,
    );
    return api.context.with(api.trace.setSpan(parent, span), () => this.finish(span, handle));
  }

  /** Runs `work` in a child span of the current one; `failed` marks results that count as errors. */
  async span<T>(
    name: string,
    attributes: Record<string, string>,
    work: () => Promise<T>,
    failed: (result: T) => boolean = () => false,
  ): Promise<T> {
    const api = this.api;
    if (api === null) return work();
    const span = api.trace.getTracer('svc.jobs').startSpan(name, { kind: KIND.internal, attributes });
    const ctx = api.trace.setSpan(api.context.active(), span);
    return api.context.with(ctx, () => this.finish(span, work, failed));
  }

  /** The active context when it holds a span (an HTTP request, a job); else the given header's trace. */
  private parentContext(api: Api, parent: string | null | undefined): OtelApi.Context {
    const active = api.context.active();
    if (api.trace.getSpanContext(active) !== undefined || !isTraceparent(parent)) return active;
    return this.extract(api, parent);
  }

  private extract(api: Api, traceparent: string): OtelApi.Context {
    return api.propagation.extract(api.ROOT_CONTEXT, { traceparent });
  }

  private async finish<T>(
    span: OtelApi.Span,
    work: () => Promise<T>,
    failed: (result: T) => boolean = () => false,
  ): Promise<T> {
    try {
      const result = await work();
      if (failed(result)) span.setStatus({ code: STATUS_ERROR });
      return result;
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: STATUS_ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  }
}

/** Loads the OpenTelemetry API if it is installed; null otherwise. */
export function loadTracingApi(load: ModuleLoader = require): Api | null {
  try {
    return load('@opentelemetry/api') as Api;
  } catch {
    return null;
  }
}

let shared: MessageTracing | undefined;

/** The process-wide instance; the API is looked up once, on first use. */
export function messageTracing(): MessageTracing {
  return (shared ??= new MessageTracing(loadTracingApi()));
}
