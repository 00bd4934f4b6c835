import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
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
  testConfig,
  unfinishedJobs,
  waitFor,
  waitForJobEndExplained,
  TestJob as Job,
} from '@svc/testing';
import { createGateway, Gateway } from '../../src/app.factory';

/**
 * The broker delivers at least once: a job message published twice more, a write step published
 * again, and steps given back when a consumer's channel closes all run without a second execution
 * of the job, a second tick of progress or a second copy of a row.
 */
describe('fault: duplicate deliveries', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let api: HttpClient;
  let worker: AppProcess;
  let connection: ChannelModel;

  const query = (sql: string, params?: unknown[]) => gateway.infra.db.query(sql, params);
  const jobOf = async (id: string): Promise<Job> => (await api.get<Job>(`/v1/jobs/${id}`)).body;
  const queue = (logical: string): string => `${world.env['SVC_QUEUE_PREFIX']}${logical}`;
  const logLines = (...fragments: string[]): number =>
    worker.log.split('\n').filter((line) => fragments.every((f) => line.includes(f))).length;
  const eventNames = async (id: string): Promise<string[]> =>
    (await api.get<{ event: string }[]>(`/v1/jobs/${id}/events?limit=1000`)).body.map((e) => e.event);

  beforeAll(async () => {
    world = await createSuiteWorld('faults_dup');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    worker = await spawnApp('embedding-worker', world.env);
    await worker.waitForLog('worker started');
    connection = await connect(currentTestRun().amqpUrl);
  });

  afterAll(async () => {
    await connection?.close().catch(() => undefined);
    await worker?.stop();
    await gateway?.close();
    await world?.dispose();
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

  it('runs a job once when its message is published twice more', async () => {
    const workload = await queueEmbeddingWorkload(api, {
      fasta: 'tiny/sequences.fasta',
      name: 'dup-job',
      sequencesPerJob: 5,
    });
    const channel = await connection.createConfirmChannel();
    const body = Buffer.from(JSON.stringify({ job_id: workload.jobId }));
    for (let copy = 0; copy < 2; copy++)
      channel.sendToQueue(queue('svc.embeddings'), body, {
        persistent: true,
        contentType: 'application/json',
      });
    await channel.waitForConfirms();
    await channel.close();

    await expectComplete(workload);
    await waitFor(
      async () => (logLines('duplicate delivery ignored', workload.jobId) >= 2 ? true : undefined),
      { what: 'both extra deliveries to be ignored' },
    );
    const names = await eventNames(workload.jobId);
    expect(names.filter((n) => n === 'job.started')).toHaveLength(1);
    expect(names.filter((n) => n === 'compute_embeddings.planned')).toHaveLength(1);
    expect(names.filter((n) => n === 'job.succeeded')).toHaveLength(1);
  });

  it('stores and ticks a write step once when it is published again and redelivered after a channel close', async () => {
    // A second consumer on the write queue that takes two writes and holds them unacknowledged.
    const thief: Channel = await connection.createChannel();
    await thief.prefetch(2);
    const held: ConsumeMessage[] = [];
    await thief.consume(queue('svc.embeddings.write'), (msg) => msg !== null && held.push(msg), {
      noAck: false,
    });
    const workload = await queueEmbeddingWorkload(api, {
      fasta: 'mini/sequences.fasta',
      name: 'dup-steps',
      sequencesPerJob: 10,
    });
    await waitFor(async () => (held.length >= 2 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'two write steps held by the second consumer',
    });
    const [first, second] = held as [ConsumeMessage, ConsumeMessage];
    const countOf = (msg: ConsumeMessage): number =>
      (JSON.parse(msg.content.toString()) as { payload: { sequence_count: number } }).payload.sequence_count;

    // The first held write, published twice more: one copy commits, the other is a duplicate. Were
    // it counted again, progress would reach the total while the second held write is still unwritten.
    const publisher = await connection.createConfirmChannel();
    for (let copy = 0; copy < 2; copy++)
      publisher.sendToQueue(queue('svc.embeddings.write'), first.content, first.properties);
    await publisher.waitForConfirms();
    await publisher.close();
    const waiting = workload.sequences - countOf(second);
    const beforeClose = await waitFor(
      async () => {
        const job = await jobOf(workload.jobId);
        return job.status !== 'RUNNING' || job.progress_current === waiting ? job : undefined;
      },
      { timeoutMs: 60_000, what: 'every write but the held second one to be counted' },
    );
    expect(beforeClose).toMatchObject({ status: 'RUNNING', progress_current: waiting });
    await worker.waitForLog('step already committed; duplicate delivery ignored');
    // Settled: no further tick arrives while the second write is held.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await jobOf(workload.jobId)).toMatchObject({ status: 'RUNNING', progress_current: waiting });

    // Closing the channel gives both held writes back to the broker, which redelivers them.
    await thief.close();
    await expectComplete(workload);
    await worker.waitForLog('redelivered step message');
    expect(await unfinishedJobs(query)).toEqual([]);
  });
});
