import { AppProcess, freePort, HttpClient, spawnApp, testConfig, waitFor } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

describe('health, metrics, docs and versioning', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
    await gateway.infra.broker.waitUntilReady(10_000);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('/health and /health/ready live at the root only', async () => {
    expect((await api.get('/health')).body).toEqual({ status: 'ok' });
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', broker: 'ok' } });
    expect((await api.get('/v1/health')).status).toBe(404);
  });

  it('/metrics serves the Prometheus exposition with every collector of the specification', async () => {
    await api.get('/v1/jobs');
    for (const path of ['/metrics', '/v1/metrics']) {
      const res = await api.get<string>(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      for (const name of [
        'jobs_total',
        'job_duration_seconds',
        'embeddings_batch_seconds',
        'predictions_batch_seconds',
        'db_pool_in_use',
        'http_requests_total',
        'http_request_duration_seconds',
        'http_requests_in_flight',
      ]) {
        expect(res.text).toContain(`# TYPE ${name} `);
      }
      expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/v1\/jobs",status="200"\} \d+/);
    }
  });

  it('/docs is served and /openapi.json lists only the /v1 form of each route', async () => {
    const docs = await api.get<string>('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const spec = await api.get<{ paths: Record<string, unknown>; info: { title: string } }>('/openapi.json');
    expect(spec.status).toBe(200);
    const paths = Object.keys(spec.body.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v1/jobs',
        '/v1/jobs/{id}',
        '/v1/jobs/{id}/events',
        '/v1/jobs/{id}/cancel',
        '/v1/jobs/{id}/comments',
        '/v1/workers/status',
      ]),
    );
    expect(paths.filter((p) => !p.startsWith('/v1/') && !p.startsWith('/health'))).toEqual([]);
    // Every route is in the contract, the Prometheus scrape included (text/plain).
    expect(paths).toContain('/v1/metrics');
  });

  it('echoes a request id, or makes one', async () => {
    const given = await api.get('/v1/jobs?limit=1', { 'x-request-id': 'trace-me-123' });
    expect(given.headers.get('x-request-id')).toBe('trace-me-123');
    const made = await api.get('/v1/jobs?limit=1');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('legacy root paths reach the same handlers as /v1', async () => {
    const a = await api.get('/jobs?limit=5');
    const b = await api.get('/v1/jobs?limit=5');
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
  });
});

describe('worker HTTP surface', () => {
  let worker: AppProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    worker = await spawnApp('ingestion-worker', { SVC_METRICS_PORT: String(port) });
    await worker.waitForLog('worker started');
  });

  afterAll(async () => {
    await worker?.stop();
  });

  it('serves /health, /health/ready and /metrics on SVC_METRICS_PORT', async () => {
    const api = new HttpClient(`http://127.0.0.1:${port}`);
    expect((await api.get('/health')).body).toEqual({ status: 'ok', service: 'ingestion-worker' });
    await waitFor(async () => ((await api.get('/health/ready')).status === 200 ? true : undefined), {
      what: 'worker readiness',
    });
    const metrics = await api.get<string>('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('# TYPE jobs_total counter');
  });

  it('exits 0 on SIGTERM', async () => {
    worker.kill('SIGTERM');
    const code = await worker.exited;
    // On failure the assertion shows the end of the worker's output.
    expect({ code, tail: code === 0 ? '' : worker.log.slice(-3000) }).toEqual({ code: 0, tail: '' });
    expect(worker.log).toContain('worker stopped');
  });
});
