import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  AppProcess,
  createSuiteWorld,
  freePort,
  HttpClient,
  runJobToSuccess,
  spawnApp,
  SuiteWorld,
  waitFor,
} from '@svc/testing';

/** One span as the OTLP/HTTP JSON exporter sends it, with the service that sent it. */
interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

// OTLP span kinds.
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'service' | 'attributes'> & { attributes?: OtlpAttribute[] })[];
    }[];
  }[];
}

const plain = (attributes: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(
    attributes.map((a) => [a.key, a.value.stringValue ?? a.value.intValue ?? a.value.boolValue]),
  );

/** A minimal OTLP/HTTP collector: accepts POST /v1/traces (JSON) and keeps every span. */
async function startCollector(): Promise<{ server: Server; url: string; spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const resource of body.resourceSpans ?? []) {
          const service = String(plain(resource.resource?.attributes)['service.name']);
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({ ...span, service, attributes: plain(span.attributes) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans };
}

describe('tracing: one trace from the HTTP request through the broker to the job (OTLP/HTTP)', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let world: SuiteWorld;
  let gateway: AppProcess;
  let worker: AppProcess;
  let api: HttpClient;

  beforeAll(async () => {
    collector = await startCollector();
    world = await createSuiteWorld('tracing');
    const otel = { SVC_OTEL_ENABLED: 'true', SVC_OTEL_ENDPOINT: collector.url };
    const port = await freePort();
    gateway = await spawnApp('gateway-api', {
      ...world.env,
      ...otel,
      SVC_PORT: String(port),
      SVC_OTEL_EXPORT_DELAY_MS: '200',
    });
    // The worker exports only when its batch delay runs out, i.e. never during the test: its spans
    // arrive only if SIGTERM flushes them.
    worker = await spawnApp('ingestion-worker', {
      ...world.env,
      ...otel,
      SVC_OTEL_EXPORT_DELAY_MS: '600000',
    });
    api = new HttpClient(`http://127.0.0.1:${port}`);
    await waitFor(async () => ((await api.get('/health/ready')).status === 200 ? true : undefined), {
      timeoutMs: 30_000,
      what: `a ready gateway\n${gateway.log}`,
    });
    await worker.waitForLog('worker started');
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await world?.dispose();
    await new Promise((resolve) => collector?.server.close(resolve));
  });

  it('links the gateway request, the publish, the consume, the job and its queries by one trace id', async () => {
    expect(gateway.log).toContain('tracing started');
    const job = await runJobToSuccess<{ id: string; status: string; error_message: string | null }>(
      api,
      '/v1/jobs',
      { operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } },
    );
    worker.kill('SIGTERM');
    expect(await worker.exited).toBe(0);

    const jobSpan = await waitFor(
      async () => collector.spans.find((s) => s.name === 'job ping' && s.attributes['job.id'] === job.id),
      { timeoutMs: 10_000, what: `the job span of ${job.id} (the worker's flush on SIGTERM)` },
    );
    const trace = await waitFor(
      async () => {
        const spans = collector.spans.filter((s) => s.traceId === jobSpan.traceId);
        return spans.some((s) => s.kind === SERVER) ? spans : undefined;
      },
      { timeoutMs: 10_000, what: 'the gateway spans of the same trace' },
    );
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const request = trace.find((s) => s.kind === SERVER)!;
    const publish = trace.find(
      (s) => s.kind === PRODUCER && s.name === `${world.env['SVC_QUEUE_PREFIX']}svc.ping publish`,
    )!;
    const consume = trace.find((s) => s.kind === CONSUMER)!;

    expect(request).toMatchObject({ service: 'svc-api' });
    expect(request.attributes['http.method'] ?? request.attributes['http.request.method']).toBe('POST');
    expect(publish).toMatchObject({ service: 'svc-api' });
    expect(consume).toMatchObject({ service: 'svc-worker-svc.jobs', parentSpanId: publish.spanId });
    expect(jobSpan).toMatchObject({ service: 'svc-worker-svc.jobs', parentSpanId: consume.spanId });
    // The publish happens within the request: walking up from it reaches the server span.
    let up = publish.parentSpanId;
    while (up !== undefined && up !== request.spanId) up = byId.get(up)?.parentSpanId;
    expect(up).toBe(request.spanId);
    // PostgreSQL is instrumented on both sides: the gateway's insert and the worker's claim.
    const queries = trace.filter(
      (s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql',
    );
    expect(new Set(queries.map((s) => s.service))).toEqual(new Set(['svc-api', 'svc-worker-svc.jobs']));
  });
});
