import { randomUUID } from 'node:crypto';
import { AppProcess, freePort, HttpClient, spawnApp, testConfig, waitFor } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

interface Job {
  id: string;
  status: string;
  requeue_count: number;
  error_code: string | null;
}

/**
 * Worker crashes and restarts: a ping survives SIGKILL (lease expiry, reaper) and SIGTERM (graceful
 * hand-back). Lease 4 s, heartbeat 1 s, reaper every 1 s in these tests.
 */
describe('job recovery when a worker dies or stops', () => {
  let gateway: Gateway;
  let api: HttpClient;
  const workers: AppProcess[] = [];

  const startWorker = async (): Promise<AppProcess> => {
    const worker = await spawnApp('ingestion-worker', { SVC_METRICS_PORT: String(await freePort()) });
    workers.push(worker);
    await worker.waitForLog('worker started');
    return worker;
  };

  const statusOf = async (id: string): Promise<Job> => (await api.get<Job>(`/v1/jobs/${id}`)).body;
  const waitForStatus = (id: string, status: string, timeoutMs = 30_000): Promise<Job> =>
    waitFor(async () => ((await statusOf(id)).status === status ? statusOf(id) : undefined), {
      timeoutMs,
      what: `job ${id} to become ${status}`,
    });
  const eventsOf = async (id: string): Promise<string[]> =>
    (await api.get<{ event: string }[]>(`/v1/jobs/${id}/events`)).body.map((e) => e.event);

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('SIGKILL mid-run: the reaper re-queues the expired lease and another worker finishes the job', async () => {
    const first = await startWorker();
    const res = await api.post<{ id: string }>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload: { message: randomUUID(), sleep_seconds: 3 },
    });
    await waitForStatus(res.body.id, 'RUNNING');
    first.kill('SIGKILL');
    await first.exited;
    expect((await statusOf(res.body.id)).status).toBe('RUNNING');
    await startWorker();
    const done = await waitForStatus(res.body.id, 'SUCCEEDED');
    expect(done.requeue_count).toBe(1);
    expect(await eventsOf(res.body.id)).toEqual(expect.arrayContaining(['job.requeued', 'job.succeeded']));
  });

  it('SIGTERM mid-run: the job goes back to QUEUED at once and completes after a restart', async () => {
    const first = await startWorker();
    const res = await api.post<{ id: string }>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload: { message: randomUUID(), sleep_seconds: 2 },
    });
    await waitForStatus(res.body.id, 'RUNNING');
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const handedBack = await statusOf(res.body.id);
    expect(handedBack.status).toBe('QUEUED');
    expect(handedBack.requeue_count).toBe(0);
    expect(await eventsOf(res.body.id)).toContain('job.requeued');
    await startWorker();
    await waitForStatus(res.body.id, 'SUCCEEDED');
  });

  it('GET /workers/status reports consumers and waiting messages per queue', async () => {
    await startWorker();
    type Status = { queues: { queue: string; consumers: number; messages_ready: number }[] };
    // The worker subscribes as soon as its channel is open, which may be just after it logs that it started.
    const res = await waitFor(
      async () => {
        const r = await api.get<Status>('/v1/workers/status');
        return r.body.queues.some((q) => q.queue === 'svc.ping' && q.consumers === 1) ? r : undefined;
      },
      { what: 'the worker to subscribe to svc.ping' },
    );
    expect(res.status).toBe(200);
    expect(res.body.queues.map((q) => q.queue)).toEqual([
      'svc.ping',
      'svc.jobs',
      'svc.embeddings',
      'svc.predictions',
      'svc.training',
      'svc.evaluations',
      'svc.embeddings.batch',
      'svc.embeddings.write',
      'svc.predictions.batch',
      'svc.predictions.write',
    ]);
    const pingQueue = res.body.queues.find((q) => q.queue === 'svc.ping');
    expect(pingQueue?.consumers).toBe(1);
    expect((await api.get('/workers/status')).status).toBe(200);
  });
});

describe('gateway with the broker unreachable', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    // Port 1 on loopback: nothing listens there, so every connection attempt is refused.
    gateway = await createGateway(testConfig({ SVC_AMQP_URL: 'amqp://guest:guest@127.0.0.1:1' }));
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('/health/ready answers 503 naming the broker; /health stays 200', async () => {
    const ready = await api.get<{ status: number; detail: string; checks: Record<string, string> }>(
      '/health/ready',
    );
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toContain('application/problem+json');
    expect(ready.body.detail).toContain('broker');
    expect(ready.body.checks).toEqual({ database: 'ok', broker: 'down' });
    expect((await api.get('/health')).status).toBe(200);
  });

  it('POST /jobs answers 503 problem+json and leaves no job behind', async () => {
    const payload = { message: randomUUID() };
    const res = await api.post<{ type: string; status: number }>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload,
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ type: '/problems/service-unavailable', status: 503 });
    const [row] = await gateway.infra.db.query(
      'SELECT count(*)::int AS n FROM job WHERE payload = $1::jsonb',
      [JSON.stringify(payload)],
    );
    expect(row).toEqual({ n: 0 });
    expect((await api.get('/v1/workers/status')).status).toBe(503);
  });
});
