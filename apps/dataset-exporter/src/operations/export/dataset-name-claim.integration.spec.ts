import { randomUUID } from 'node:crypto';
import { currentTestRun } from '@svc/testing';
import { DataSource } from 'typeorm';
import { createDataSource, DatasetRepository, JobRepository } from '@svc/persistence';

// The dataset name claim against the run's real PostgreSQL: an export claims its name before it
// uploads anything under datasets/<name>/, so two exports of one name cannot overwrite each other.

let db: DataSource;
let datasets: DatasetRepository;
let jobs: JobRepository;

beforeAll(async () => {
  db = createDataSource({ url: currentTestRun().dbUrl, poolSize: 2 });
  await db.initialize();
  datasets = new DatasetRepository(db);
  jobs = new JobRepository(db);
});

afterAll(async () => {
  await db?.destroy();
});

async function exportJob(): Promise<string> {
  const job = await jobs.createQueued({
    operation: 'export_research_dataset',
    queueName: 'svc.training',
    payload: { run: randomUUID() },
    meta: {},
    description: null,
    tags: [],
    dedupKey: null,
    dispatchDeadlineSeconds: 30,
  });
  return job.id;
}

describe('DatasetRepository.claimName', () => {
  it('holds a name for one running export until it is released or its job ends', async () => {
    const name = `claim-${randomUUID()}`;
    const first = await exportJob();
    const second = await exportJob();

    expect(await datasets.claimName(name, first)).toBe(true);
    expect(await datasets.claimName(name, first)).toBe(true); // the same job, run again
    expect(await datasets.claimName(name, second)).toBe(false);

    await datasets.releaseName(name, second); // not its claim: nothing changes
    expect(await datasets.claimName(name, second)).toBe(false);

    await datasets.releaseName(name, first);
    expect(await datasets.claimName(name, second)).toBe(true);
    expect(await datasets.claimName(name, first)).toBe(false);
  });

  it('lets a claim left by a job that ended without publishing be taken over', async () => {
    const name = `claim-${randomUUID()}`;
    const crashed = await exportJob();
    const next = await exportJob();
    expect(await datasets.claimName(name, crashed)).toBe(true);
    expect(await jobs.markFailed(crashed, 'internal_error', 'the export stopped')).toBe(true);

    expect(await datasets.claimName(name, next)).toBe(true);
  });

  it('refuses a name a dataset already has', async () => {
    const name = `claim-${randomUUID()}`;
    const job = await exportJob();
    await datasets.create({
      name,
      operation: 'import_by_reference',
      job_id: null,
      embedding_config_id: null,
      ontology_snapshot_id: null,
      annotation_source: null,
      k: 5,
      key_prefix: null,
      storage_backend: 'local',
      train_uri: 'file:///datasets/train.parquet',
      eval_uri: null,
      manifest_uri: 'file:///datasets/manifest.json',
      manifest_sha: 'a'.repeat(64),
      schema_sha: 'b'.repeat(64),
      schema_sha_v2: null,
      n_train_rows: 1,
      n_eval_rows: 0,
      train_snapshot_pairs: [],
      eval_snapshot_pair: null,
      producer_version: null,
      producer_git_sha: null,
      meta: {},
      owner_user_id: null,
      visibility: 'owner',
    });

    expect(await datasets.claimName(name, job)).toBe(false);
  });
});
