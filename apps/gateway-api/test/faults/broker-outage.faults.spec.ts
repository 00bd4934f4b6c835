import { randomUUID } from 'node:crypto';
import {
  AppProcess,
  createSuiteWorld,
  currentTestRun,
  EmbeddingWorkload,
  HttpClient,
  queueEmbeddingWorkload,
  spawnApp,
  storedEmbeddings,
  SuiteWorld,
  TcpProxy,
  testConfig,
  unfinishedJobs,
  waitFor,
  waitForJobEndExplained,
  TestJob as Job,
  TERMINAL_JOB_STATUSES as TERMINAL,
} from '@svc/testing';
import { createGateway, Gateway } from '../../src/app.factory';

/**
 * The broker connection of every app cut by a TCP proxy while jobs are queued and running, then
 * restored: publishes during the outage are refused with 503 and leave nothing behind, unacknowledged
 * steps come back after the reconnect, and every job ends with its rows stored exactly once.
 */
describe('fault: broker connections dropped and restored', () => {
  let world: SuiteWorld;
  let proxy: TcpProxy;
  let gateway: Gateway;
  let api: HttpClient;
  let worker: AppProcess | undefined;

  const query = (sql: string, params?: unknown[]) => gateway.infra.db.query(sql, params);
  const jobOf = async (id: string): Promise<Job> => (await api.get<Job>(`/v1/jobs/${id}`)).body;
  const brokerState = async (): Promise<string> =>
    (await api.get<{ checks: { broker: string } }>('/health/ready')).body.checks.broker;

  beforeAll(async () => {
    world = await createSuiteWorld('faults_broker');
    const upstream = new URL(currentTestRun().amqpUrl);
    proxy = await TcpProxy.start({ host: upstream.hostname, port: Number(upstream.port || 5672) });
    const env = { ...world.env, SVC_AMQP_URL: proxy.rewrite(currentTestRun().amqpUrl) };
    gateway = await createGateway(testConfig(env));
    api = new HttpClient(gateway.url);
    worker = await spawnApp('embedding-worker', env);
    await worker.waitForLog('worker started');
    await waitFor(async () => ((await api.get('/health/ready')).status === 200 ? true : undefined), {
      what: 'the gateway to be ready',
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
    await proxy?.close();
    await world?.dispose();
  });

  it('refuses publishes during the outage and finishes every job after the reconnect', async () => {
    const running = await queueEmbeddingWorkload(api, {
      fasta: 'mini/sequences.fasta',
      name: 'broker-running',
      sequencesPerJob: 10,
    });
    const queuedBehind = await queueEmbeddingWorkload(api, {
      fasta: 'tiny/sequences.fasta',
      name: 'broker-queued',
      sequencesPerJob: 4,
    });
    const early = await waitFor(
      async () => {
        const job = await jobOf(running.jobId);
        return TERMINAL.includes(job.status) || (job.progress_current ?? 0) >= 20 ? job : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 20, what: 'the first batches to be written' },
    );
    expect(early).toMatchObject({ status: 'RUNNING', error_message: null });

    proxy.cut();
    // Still to be finished: RUNNING, or QUEUED when its coordinator was handed back mid-dispatch.
    expect(['QUEUED', 'RUNNING']).toContain((await jobOf(running.jobId)).status);
    await waitFor(async () => ((await brokerState()) === 'down' ? true : undefined), {
      what: 'the gateway to notice the outage',
    });
    // A publish during the outage: 503 problem, and no job row is left to strand.
    const marker = randomUUID();
    const refused = await api.post<{ status: number; type: string }>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload: { message: marker },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.type).toBe('/problems/service-unavailable');
    const [left] = await query(`SELECT count(*)::int AS n FROM job WHERE payload->>'message' = $1`, [marker]);
    expect(left).toEqual({ n: 0 });
    // Long enough for in-flight steps to finish their database work and fail to acknowledge.
    await new Promise((resolve) => setTimeout(resolve, 3000));

    proxy.restore();
    await waitFor(async () => ((await brokerState()) === 'ok' ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the gateway to reconnect',
    });

    const after = await queueEmbeddingWorkload(api, {
      fasta: 'tiny/sequences.fasta',
      name: 'broker-after',
      sequencesPerJob: 8,
    });
    for (const workload of [running, queuedBehind, after]) await expectComplete(workload);
    expect(worker?.log).toContain('broker disconnected');
    expect(await unfinishedJobs(query)).toEqual([]);
  });

  async function expectComplete(workload: EmbeddingWorkload): Promise<void> {
    const job = await waitForJobEndExplained<Job>(api, workload.jobId, 90_000, () => worker?.log ?? '');
    expect(job.error_message).toBeNull();
    expect(job.status).toBe('SUCCEEDED');
    expect(job.progress_total).toBe(workload.sequences);
    expect(job.progress_current).toBe(workload.sequences);
    expect(await storedEmbeddings(query, workload)).toEqual({
      rows: workload.sequences,
      sequences: workload.sequences,
      missing: 0,
    });
  }
});
