import {
  AppProcess,
  createSuiteWorld,
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
 * A batch worker SIGKILLed while compute_embeddings has steps in flight: the broker gives the
 * unacknowledged step back, a new worker runs it, and every sequence ends with exactly one vector and
 * one tick of progress (a step whose tick committed just before the kill is not counted twice).
 */
describe('fault: embedding worker killed mid-batch', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let api: HttpClient;
  const workers: AppProcess[] = [];

  const startWorker = async (): Promise<AppProcess> => {
    const worker = await spawnApp('embedding-worker', world.env);
    workers.push(worker);
    await worker.waitForLog('worker started');
    return worker;
  };
  const query = (sql: string, params?: unknown[]) => gateway.infra.db.query(sql, params);
  const jobOf = async (id: string): Promise<Job> => (await api.get<Job>(`/v1/jobs/${id}`)).body;

  beforeAll(async () => {
    world = await createSuiteWorld('faults_kill');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
  });

  it('finishes the job with every vector stored once after SIGKILL and a fresh worker', async () => {
    const first = await startWorker();
    const workload = await queueEmbeddingWorkload(api, {
      fasta: 'mini/sequences.fasta',
      name: 'kill-mid-batch',
      sequencesPerJob: 10,
    });
    // Killed once some batches are written and most are still to come: a step is being worked on.
    const before = await waitFor(
      async () => {
        const job = await jobOf(workload.jobId);
        const done = job.progress_current ?? 0;
        return job.status === 'RUNNING' && done >= 20 ? job : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 20, what: 'the first batches to be written' },
    );
    first.kill('SIGKILL');
    await first.exited;
    const atKill = await jobOf(workload.jobId);
    expect(atKill.status).toBe('RUNNING');
    expect(atKill.progress_current).toBeLessThan(workload.sequences);
    expect(before.progress_total).toBe(workload.sequences);

    const second = await startWorker();
    // The killed worker's unacknowledged step comes back to the new one.
    await second.waitForLog('redelivered step message');
    const job = await waitForJobEndExplained<Job>(api, workload.jobId, 90_000, () => second.log);

    expect(job.error_message).toBeNull();
    expect(job.status).toBe('SUCCEEDED');
    expect(job.progress_total).toBe(workload.sequences);
    expect(job.progress_current).toBe(workload.sequences);
    expect(await storedEmbeddings(query, workload)).toEqual({
      rows: workload.sequences,
      sequences: workload.sequences,
      missing: 0,
    });
    const events = (
      await api.get<{ event: string; fields: { resumed?: boolean } }[]>(
        `/v1/jobs/${workload.jobId}/events?limit=1000`,
      )
    ).body;
    expect(events.filter((e) => e.event === 'job.succeeded')).toHaveLength(1);
    // Killed while still dispatching, the coordinator ran again after its lease expired: that run
    // resumed the stored plan rather than planning anew (events are newest first).
    const plans = events.filter((e) => e.event === 'compute_embeddings.planned').map((e) => e.fields.resumed);
    expect(plans.at(-1)).toBe(false);
    expect(plans.slice(0, -1).every((resumed) => resumed === true)).toBe(true);
    expect(events.filter((e) => e.event === 'job.started')).toHaveLength(plans.length);
    expect(await unfinishedJobs(query)).toEqual([]);
  });
});
