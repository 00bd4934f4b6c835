import { randomUUID } from 'node:crypto';
import { ListScope, Visibility } from '@svc/domain';
import { DataSource } from 'typeorm';
import { DatasetRecord, DatasetRepository, NewDataset } from './dataset.repository';
import { insertJob } from '../../testing/repository-fixtures';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';
import { JobRepository } from '../jobs/job.repository';

// DatasetRepository against the run's PostgreSQL: datasets are registered under unique names, found
// by id or name, and listed by ownership scope a page at a time; an export claims its name before it
// uploads anything under datasets/<name>/, so two exports of one name cannot overwrite each other.

let db: DataSource;
let datasets: DatasetRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase((opened) => {
  db = opened;
  datasets = new DatasetRepository(db);
});

function dataset(extra: Partial<NewDataset> = {}): NewDataset {
  const name = extra.name ?? `dataset-${randomUUID()}`;
  return {
    name,
    operation: 'export_research_dataset',
    job_id: randomUUID(),
    embedding_config_id: randomUUID(),
    ontology_snapshot_id: randomUUID(),
    annotation_source: 'goa',
    k: 5,
    key_prefix: `datasets/${name}/`,
    storage_backend: 's3',
    train_uri: `s3://bucket/datasets/${name}/train.parquet`,
    eval_uri: `s3://bucket/datasets/${name}/eval.parquet`,
    manifest_uri: `s3://bucket/datasets/${name}/manifest.json`,
    manifest_sha: 'a'.repeat(64),
    schema_sha: 'b'.repeat(64),
    schema_sha_v2: 'c'.repeat(64),
    n_train_rows: 1200,
    n_eval_rows: 300,
    train_snapshot_pairs: ['2023-01:2023-06', '2023-06:2024-01'],
    eval_snapshot_pair: '2024-01:2024-06',
    producer_version: '0.1.0',
    producer_git_sha: 'deadbeef',
    meta: { negatives: 'sampled', seed: 7 },
    owner_user_id: null,
    visibility: 'owner',
    ...extra,
  };
}

const owned = (owner: string | null, visibility: Visibility): Partial<NewDataset> => ({
  owner_user_id: owner,
  visibility,
});

const idsOf = (rows: DatasetRecord[]): string[] => rows.map((r) => r.id);

describe('DatasetRepository.create', () => {
  it('stores every field and returns the record with its id and creation time', async () => {
    const input = dataset(owned(randomUUID(), 'owner'));
    const created = await datasets.create(input);

    expect(created).toEqual({
      ...input,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(ISO_MICROS),
    });
    expect(await datasets.find(created.id)).toEqual(created);
  });

  it('stores an imported dataset with its optional fields empty', async () => {
    const input = dataset({
      operation: 'import_by_reference',
      job_id: null,
      embedding_config_id: null,
      ontology_snapshot_id: null,
      annotation_source: null,
      key_prefix: null,
      storage_backend: 'local',
      eval_uri: null,
      schema_sha_v2: null,
      n_eval_rows: 0,
      train_snapshot_pairs: [],
      eval_snapshot_pair: null,
      producer_version: null,
      producer_git_sha: null,
      meta: {},
    });
    const created = await datasets.create(input);
    expect(created).toEqual({ ...input, id: expect.any(String), created_at: expect.any(String) });
  });

  it('refuses a name a dataset already has (conflict), and keeps the first', async () => {
    const name = `dataset-${randomUUID()}`;
    const first = await datasets.create(dataset({ name }));

    const error = await domainError(datasets.create(dataset({ name, k: 10 })));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(`a dataset named '${name}' already exists`);
    expect(await datasets.find(name)).toEqual(first);
  });
});

describe('DatasetRepository.existsByName', () => {
  it('is true for a registered name only', async () => {
    const name = `dataset-${randomUUID()}`;
    expect(await datasets.existsByName(name)).toBe(false);
    await datasets.create(dataset({ name }));
    expect(await datasets.existsByName(name)).toBe(true);
    expect(await datasets.existsByName(name.toUpperCase())).toBe(false);
  });
});

describe('DatasetRepository.find', () => {
  it('finds a dataset by its id or its name, else null', async () => {
    const created = await datasets.create(dataset());
    expect(await datasets.find(created.id)).toEqual(created);
    expect(await datasets.find(created.name)).toEqual(created);
    expect(await datasets.find(randomUUID())).toBeNull();
    expect(await datasets.find(`dataset-${randomUUID()}`)).toBeNull();
  });

  it('prefers the dataset with that id over one named like it, and finds a uuid-like name without an id', async () => {
    const target = await datasets.create(dataset());
    const impostor = await datasets.create(dataset({ name: target.id }));
    const uuidName = randomUUID();
    const named = await datasets.create(dataset({ name: uuidName }));

    expect(await datasets.find(target.id)).toEqual(target);
    expect(impostor.name).toBe(target.id);
    expect(await datasets.find(uuidName)).toEqual(named);
  });
});

describe('DatasetRepository.list', () => {
  it('is newest first, a page at a time with `after`', async () => {
    const owner = randomUUID();
    const a = await datasets.create(dataset(owned(owner, 'owner')));
    const b = await datasets.create(dataset(owned(owner, 'owner')));
    const c = await datasets.create(dataset(owned(owner, 'owner')));
    const mine: ListScope = { kind: 'own', userId: owner };

    const all = await datasets.list({ scope: mine, limit: 10 });
    expect(all).toEqual([c, b, a]);
    const page = await datasets.list({ scope: mine, limit: 2 });
    expect(idsOf(page)).toEqual([c.id, b.id]);
    expect(idsOf(await datasets.list({ scope: mine, limit: 2, after: page[1]!.created_at }))).toEqual([a.id]);
    expect(await datasets.list({ scope: mine, limit: 2, after: a.created_at })).toEqual([]);
  });

  it('shows each scope the rows it may see; unlisted rows only to staff', async () => {
    const me = randomUUID();
    const someone = randomUUID();
    const myOwn = await datasets.create(dataset(owned(me, 'owner')));
    const myUnlisted = await datasets.create(dataset(owned(me, 'unlisted')));
    const theirOwn = await datasets.create(dataset(owned(someone, 'owner')));
    const theirPublic = await datasets.create(dataset(owned(someone, 'public')));
    const system = await datasets.create(dataset(owned(null, 'owner')));
    const ours = new Set([myOwn.id, myUnlisted.id, theirOwn.id, theirPublic.id, system.id]);
    const visible = async (scope: ListScope): Promise<string[]> =>
      idsOf(await datasets.list({ scope, limit: 1000 })).filter((id) => ours.has(id));

    expect(await visible({ kind: 'all' })).toEqual([
      system.id,
      theirPublic.id,
      theirOwn.id,
      myUnlisted.id,
      myOwn.id,
    ]);
    expect(await visible({ kind: 'own', userId: me })).toEqual([myOwn.id]);
    expect(await visible({ kind: 'public_and_own', userId: me })).toEqual([theirPublic.id, myOwn.id]);
    expect(await visible({ kind: 'public_and_own', userId: null })).toEqual([theirPublic.id]);
  });
});

describe('DatasetRepository.claimName', () => {
  const exportJob = (): Promise<string> =>
    insertJob(db, { operation: 'export_research_dataset', queueName: 'svc.training' });

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
    expect(await new JobRepository(db).markFailed(crashed, 'internal_error', 'the export stopped')).toBe(
      true,
    );

    expect(await datasets.claimName(name, next)).toBe(true);
  });

  it('refuses a name a dataset already has', async () => {
    const name = `claim-${randomUUID()}`;
    const job = await exportJob();
    await datasets.create(dataset({ name, operation: 'import_by_reference', job_id: null }));

    expect(await datasets.claimName(name, job)).toBe(false);
  });
});
