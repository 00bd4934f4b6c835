import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { ChannelModel, connect, ConsumeMessage } from 'amqplib';
import {
  AppProcess,
  createSuiteWorld,
  currentTestRun,
  embedProteinsWithKmer,
  HttpClient,
  runJobToSuccess,
  SHARED_DATA_DIR,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob as Job,
  unfinishedJobs,
  waitFor,
  waitForJobEndExplained,
} from '@svc/testing';
import { createGateway, Gateway } from '../../src/app.factory';

const ROOT = resolve(__dirname, '../../../..');

/**
 * predict_go_terms on the tiny holdout (40 queries in batches of 4), whose prediction rows have no
 * unique key: after a worker is killed mid-batch, or a write step is delivered three times and
 * redelivered after a channel close, the prediction set holds exactly the rows of an undisturbed run.
 */
describe('fault: prediction rows under crashes and duplicate deliveries', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let api: HttpClient;
  let connection: ChannelModel;
  const workers: AppProcess[] = [];
  let predictor: AppProcess;
  let request: Record<string, unknown>;
  let reference: string[];

  const jobOf = async (id: string): Promise<Job> => (await api.get<Job>(`/v1/jobs/${id}`)).body;
  const query = (sql: string, params?: unknown[]) => gateway.infra.db.query(sql, params);
  const start = async (name: string): Promise<AppProcess> => {
    const app = await spawnApp(name, world.env);
    workers.push(app);
    await app.waitForLog('worker started');
    return app;
  };
  /** The prediction rows a job stored, one string per row, sorted (duplicates stay visible). */
  const rowsOf = async (jobId: string): Promise<string[]> =>
    (
      (await query(
        `SELECT p.protein_accession || ' ' || p.go_id || ' ' || p.ref_protein_accession AS row
           FROM prediction p JOIN prediction_set s ON s.id = p.prediction_set_id
          WHERE s.job_id = $1 ORDER BY 1`,
        [jobId],
      )) as { row: string }[]
    ).map((r) => r.row);
  const setsOf = async (jobId: string): Promise<number> =>
    (
      (await query(`SELECT count(*)::int AS n FROM prediction_set WHERE job_id = $1`, [jobId])) as {
        n: number;
      }[]
    )[0]!.n;
  /**
   * A distinct request each time (identical active jobs are refused), with the same predictions: k-mer
   * vectors are non-negative, so no cosine distance exceeds 1 and the threshold drops nothing.
   */
  const queue = async (): Promise<string> => {
    const res = await api.post<{ id: string }>('/v1/embeddings/predict', {
      ...request,
      distance_threshold: 1.5 + Math.random() * 0.4,
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const finish = async (jobId: string): Promise<void> => {
    const job = await waitForJobEndExplained<Job>(api, jobId, 120_000, () => predictor.log);
    expect(job.error_message).toBeNull();
    expect(job.status).toBe('SUCCEEDED');
    expect(job.progress_current).toBe(40);
    expect(job.progress_total).toBe(40);
    expect(await setsOf(jobId)).toBe(1);
    expect(await rowsOf(jobId)).toEqual(reference);
  };

  beforeAll(async () => {
    world = await createSuiteWorld('faults_predict');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    await start('ingestion-worker');
    await start('embedding-worker');
    predictor = await start('prediction-worker');
    connection = await connect(currentTestRun().amqpUrl);
    const run = (path: string, body: unknown): Promise<Job> => runJobToSuccess<Job>(api, path, body);
    const snapshot = await run('/v1/annotations/snapshots/load', {
      obo_url: join(ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    const snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const set = await run('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshotId,
      gaf_url: join(ROOT, 'fixtures/tiny-t0.2022-09-12.gaf'),
      source_version: `tiny-t0-${randomUUID()}`,
    });
    const kmerConfigId = await embedProteinsWithKmer(api, join(SHARED_DATA_DIR, 'tiny/sequences.fasta'));
    request = {
      embedding_config_id: kmerConfigId,
      annotation_set_id: set.result!['annotation_set_id'],
      ontology_snapshot_id: snapshotId,
      limit_per_entry: 3,
      batch_size: 4,
    };
    // The undisturbed run every faulty one is compared with.
    const clean = await queue();
    await waitForJobEndExplained<Job>(api, clean, 120_000, () => predictor.log);
    reference = await rowsOf(clean);
  }, 300_000);

  afterAll(async () => {
    await connection?.close().catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
  });

  it('has something to compare: the undisturbed run stored predictions for the queries', () => {
    expect(reference.length).toBeGreaterThan(40);
  });

  it('stores the same rows when the prediction worker is killed mid-batch', async () => {
    const jobId = await queue();
    await waitFor(
      async () => {
        const job = await jobOf(jobId);
        return ['SUCCEEDED', 'FAILED'].includes(job.status) || (job.progress_current ?? 0) >= 4
          ? job
          : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 20, what: 'the first batch to be written' },
    );
    predictor.kill('SIGKILL');
    await predictor.exited;
    expect((await jobOf(jobId)).progress_current).toBeLessThan(40);
    predictor = await start('prediction-worker');
    await finish(jobId);
  });

  it('stores the same rows when a write step is delivered three times and redelivered after a channel close', async () => {
    const writeQueue = `${world.env['SVC_QUEUE_PREFIX']}svc.predictions.write`;
    const thief = await connection.createChannel();
    await thief.prefetch(2);
    const held: ConsumeMessage[] = [];
    await thief.consume(writeQueue, (msg) => msg !== null && held.push(msg), { noAck: false });
    const jobId = await queue();
    await waitFor(async () => (held.length >= 2 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'two prediction writes held by the second consumer',
    });
    const publisher = await connection.createConfirmChannel();
    for (let copy = 0; copy < 2; copy++)
      publisher.sendToQueue(writeQueue, held[0]!.content, held[0]!.properties);
    await publisher.waitForConfirms();
    await publisher.close();
    const ignored = 'step already committed; duplicate delivery ignored';
    await waitFor(
      async () =>
        predictor.log.includes(ignored) || (await jobOf(jobId)).status !== 'RUNNING' ? true : undefined,
      { what: 'the copies of the held write to be consumed' },
    );
    await thief.close();
    await finish(jobId);
    expect(predictor.log).toContain(ignored);
    expect(await unfinishedJobs(query)).toEqual([]);
  });
});
