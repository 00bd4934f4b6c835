import { isTraceparent } from '../messaging/traceparent';
import { loadTracingApi, MessageTracing } from './message-tracing';
import { startTracing, tracesUrl } from './start-tracing';

const OTEL = { enabled: true, endpoint: null, serviceName: null, sampleRatio: 1, exportDelayMs: 100 };
const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function missingPackages(id: string): never {
  throw new Error(`Cannot find module '${id}'`);
}

describe('startTracing', () => {
  it('warns once and continues without tracing when the OpenTelemetry packages are missing', async () => {
    const warnings: string[] = [];
    const handle = startTracing({
      otel: OTEL,
      serviceName: 'svc-api',
      warn: (m) => warnings.push(m),
      load: missingPackages,
    });
    expect(handle.active).toBe(false);
    await expect(handle.shutdown()).resolves.toBeUndefined();
    expect(warnings).toEqual([
      "tracing is enabled but the OpenTelemetry packages are not installed (Cannot find module '@opentelemetry/sdk-node'); continuing without tracing",
    ]);
  });

  it('loads nothing when tracing is off', () => {
    const loaded: string[] = [];
    const handle = startTracing({
      otel: { ...OTEL, enabled: false },
      serviceName: 'svc-api',
      warn: () => undefined,
      load: (id) => loaded.push(id),
    });
    expect(handle.active).toBe(false);
    expect(loaded).toEqual([]);
  });
});

describe('tracesUrl', () => {
  it.each([
    { endpoint: null, expected: undefined },
    { endpoint: 'http://collector:4318', expected: 'http://collector:4318/v1/traces' },
    { endpoint: 'http://collector:4318/', expected: 'http://collector:4318/v1/traces' },
    { endpoint: 'https://otel.example.org/v1/traces', expected: 'https://otel.example.org/v1/traces' },
    { endpoint: 'http://127.0.0.1:9999/custom/path', expected: 'http://127.0.0.1:9999/custom/path' },
  ])('$endpoint -> $expected', ({ endpoint, expected }) => expect(tracesUrl(endpoint)).toBe(expected));
});

describe('loadTracingApi', () => {
  it('is null when @opentelemetry/api is missing', () => expect(loadTracingApi(missingPackages)).toBeNull());
});

// Without an SDK (packages missing, or present but tracing off) the header still travels.
describe.each([
  { name: 'without the OpenTelemetry API', api: () => null },
  { name: 'with the API but no SDK started', api: () => loadTracingApi() },
])('MessageTracing $name', ({ api }) => {
  const tracing = new MessageTracing(api());

  it('continues the parent trace in the published header, with a new span id', async () => {
    const header = await tracing.producer('svc.ping', PARENT, async (h) => h);
    expect(isTraceparent(header)).toBe(true);
    expect(header.split('-')[1]).toBe(PARENT.split('-')[1]);
    expect(header.split('-')[2]).not.toBe(PARENT.split('-')[2]);
  });

  it('starts a new sampled trace without a parent', async () => {
    const header = await tracing.producer('svc.ping', null, async (h) => h);
    expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(header.split('-')[1]).not.toBe(PARENT.split('-')[1]);
  });

  it('runs consumers and job spans, passing results and errors through', async () => {
    expect(await tracing.consumer('svc.ping', PARENT, async () => 'ack')).toBe('ack');
    expect(await tracing.span('job ping', { 'job.id': 'x' }, async () => 7)).toBe(7);
    await expect(
      tracing.consumer('svc.ping', null, async () => {
        throw new Error('handler broke');
      }),
    ).rejects.toThrow('handler broke');
  });
});
