import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobCommentRepository } from '../jobs/job-comment.repository';
import { JobEventRepository } from '../jobs/job-event.repository';
import { JobRepository, JobSubmitter } from '../jobs/job.repository';
import { PurgeCounts, RetentionRepository } from './retention.repository';
import { useOwnDatabase } from '../../testing/repository-test-support';
import { jobFields, saveEmbeddingConfig } from '../../testing/repository-fixtures';

// RetentionRepository in a database of its own (the purge reads every table): expired unlisted
// prediction sets, query sets and finished jobs go with what cascades from them, in one transaction;
// rows in use by a queued or running job, kept rows and rows not yet expired stay; a dry run only counts.

let own: DataSource;
let retention: RetentionRepository;
let jobs: JobRepository;

useOwnDatabase('retention', (opened) => {
  own = opened;
  retention = new RetentionRepository(own);
  jobs = new JobRepository(own);
});

const NOTHING: PurgeCounts = {
  prediction_sets: 0,
  predictions: 0,
  query_sets: 0,
  query_set_entries: 0,
  jobs: 0,
  job_events: 0,
};

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await own.query<T[]>(sql, params);
  return row!;
}

type Expiry = 'expired' | 'later' | 'kept';
const EXPIRES_AT: Record<Expiry, string | null> = {
  expired: '2000-01-01T00:00:00Z',
  later: '2999-01-01T00:00:00Z',
  kept: null,
};

/** Sets a row's visibility and expiry directly (an expiry in the past or the future). */
async function setOwnership(table: string, id: string, visibility: string, expiry: Expiry): Promise<void> {
  await own.query(`UPDATE ${table} SET visibility = $2, expires_at = $3 WHERE id = $1`, [
    id,
    visibility,
    EXPIRES_AT[expiry],
  ]);
}

/** What prediction sets hang on: a snapshot, an annotation set and an embedding config. */
async function references(): Promise<{ snapshot: string; annotationSet: string; config: string }> {
  const snapshot = (
    await one<{ id: string }>(
      `INSERT INTO ontology_snapshot (obo_version, obo_url) VALUES ($1, 'file:///go.obo') RETURNING id`,
      [`test-${randomUUID()}`],
    )
  ).id;
  const annotationSet = (
    await one<{ id: string }>(
      `INSERT INTO annotation_set (source, source_version, ontology_snapshot_id) VALUES ('goa', $1, $2) RETURNING id`,
      [randomUUID(), snapshot],
    )
  ).id;
  const config = await saveEmbeddingConfig(own, { max_length: 1000 });
  return { snapshot, annotationSet, config };
}

let refs: Awaited<ReturnType<typeof references>>;

async function predictionSet(
  visibility: string,
  expiry: Expiry,
  extra: { predictions?: number; jobId?: string | null; querySetId?: string | null } = {},
): Promise<string> {
  refs ??= await references();
  const id = (
    await one<{ id: string }>(
      `INSERT INTO prediction_set (embedding_config_id, annotation_set_id, ontology_snapshot_id, limit_per_entry,
         search_backend, aspect_separated_knn, feature_schema_sha, job_id, query_set_id)
       VALUES ($1, $2, $3, 5, 'numpy', false, 'sha', $4, $5) RETURNING id`,
      [refs.config, refs.annotationSet, refs.snapshot, extra.jobId ?? null, extra.querySetId ?? null],
    )
  ).id;
  for (let i = 0; i < (extra.predictions ?? 0); i += 1) {
    await own.query(
      `INSERT INTO prediction (prediction_set_id, protein_accession, go_term_id, go_id, aspect, distance,
         ref_protein_accession, vote_count, k_position)
       VALUES ($1, $2, 1, 'GO:0000001', 'F', 0.1, 'P0', 1, 1)`,
      [id, `Q${i}`],
    );
  }
  await setOwnership('prediction_set', id, visibility, expiry);
  return id;
}

async function querySet(visibility: string, expiry: Expiry, entries = 0): Promise<string> {
  const id = (
    await one<{ id: string }>(`INSERT INTO query_set (name) VALUES ($1) RETURNING id`, [randomUUID()])
  ).id;
  for (let i = 0; i < entries; i += 1) {
    const text = `MKV${randomUUID()
      .replace(/[^a-f]/g, '')
      .toUpperCase()}`;
    const sequence = (
      await one<{ id: number }>(
        `INSERT INTO sequence (sequence, sequence_hash) VALUES ($1, md5($1)) RETURNING id`,
        [text],
      )
    ).id;
    await own.query(
      `INSERT INTO query_set_entry (query_set_id, accession, sequence_id) VALUES ($1, $2, $3)`,
      [id, `Q${i}`, sequence],
    );
  }
  await setOwnership('query_set', id, visibility, expiry);
  return id;
}

const guest: JobSubmitter = {
  ownerUserId: null,
  role: 'guest',
  via: 'annotate',
  quotaKey: null,
  visibility: 'unlisted',
  expiresInDays: 7,
};

/** A job in the given status (with its lifecycle events), then given its visibility and expiry. */
async function job(
  status: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED',
  visibility: string,
  expiry: Expiry,
  extra: { parentJobId?: string; payload?: Record<string, unknown> } = {},
): Promise<string> {
  const created = await jobs.createQueued(
    jobFields({
      operation: 'test_retention',
      payload: extra.payload ?? { run: randomUUID() },
      parentJobId: extra.parentJobId ?? null,
      submitter: guest,
    }),
  );
  if (status !== 'QUEUED') await jobs.claim(created.id, 60);
  if (status === 'SUCCEEDED') await jobs.markSucceeded(created.id, null);
  if (status === 'FAILED') await jobs.markFailed(created.id, 'internal_error', 'stopped');
  if (status === 'CANCELLED') await jobs.cancel(created.id);
  await setOwnership('job', created.id, visibility, expiry);
  return created.id;
}

async function exists(table: string, id: string): Promise<boolean> {
  return (await own.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).length === 1;
}

describe('RetentionRepository.purgeExpired', () => {
  it('finds nothing to purge in a database without expired unlisted rows', async () => {
    await predictionSet('unlisted', 'later', { predictions: 1 });
    await querySet('owner', 'kept', 1);
    await job('SUCCEEDED', 'owner', 'kept');
    expect(await retention.purgeExpired({ dryRun: true })).toEqual(NOTHING);
    expect(await retention.purgeExpired({ dryRun: false })).toEqual(NOTHING);
  });

  it('removes what expired and counts it; a dry run counts the same and removes nothing', async () => {
    // Prediction sets: only the expired unlisted one not used by an active job goes, with its predictions.
    const activeJob = await job('RUNNING', 'unlisted', 'later');
    const goneSet = await predictionSet('unlisted', 'expired', { predictions: 3 });
    const inUseSet = await predictionSet('unlisted', 'expired', { predictions: 2, jobId: activeJob });
    const laterSet = await predictionSet('unlisted', 'later', { predictions: 1 });
    const ownerSet = await predictionSet('owner', 'expired', { predictions: 1 });
    const keptSet = await predictionSet('unlisted', 'kept');
    const finishedJob = await job('SUCCEEDED', 'owner', 'kept');
    const doneWithSet = await predictionSet('unlisted', 'expired', { predictions: 1, jobId: finishedJob });

    // Query sets: the one named by a queued job's payload (in any case) stays; the sequences stay.
    const goneQuerySet = await querySet('unlisted', 'expired', 2);
    const queuedReader = await querySet('unlisted', 'expired', 1);
    await job('QUEUED', 'unlisted', 'later', { payload: { query_set_id: queuedReader.toUpperCase() } });
    const publicQuerySet = await querySet('public', 'expired', 1);
    const referencing = await predictionSet('owner', 'kept', { querySetId: goneQuerySet });

    // Jobs: finished expired unlisted jobs go with their events, comments and children, unless a
    // child is still queued or running.
    const goneJob = await job('SUCCEEDED', 'unlisted', 'expired'); // job.created, job.succeeded
    await new JobEventRepository(own).append(goneJob, 'custom', null);
    await new JobCommentRepository(own).create(goneJob, 'note', null);
    const goneFailed = await job('FAILED', 'unlisted', 'expired'); // job.created, job.failed
    const goneChild = await job('SUCCEEDED', 'unlisted', 'expired', { parentJobId: goneFailed });
    const runningExpired = await job('RUNNING', 'unlisted', 'expired');
    const parentOfActive = await job('CANCELLED', 'unlisted', 'expired');
    const activeChild = await job('QUEUED', 'unlisted', 'later', { parentJobId: parentOfActive });
    const publicJob = await job('SUCCEEDED', 'public', 'expired');
    const laterJob = await job('SUCCEEDED', 'unlisted', 'later');

    const expected: PurgeCounts = {
      prediction_sets: 2,
      predictions: 4,
      query_sets: 1,
      query_set_entries: 2,
      jobs: 3,
      job_events: 2 + 1 + 2 + 2,
    };
    const [sequencesBefore] = await own.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM sequence`);

    expect(await retention.purgeExpired({ dryRun: true })).toEqual(expected);
    for (const id of [goneSet, doneWithSet]) expect(await exists('prediction_set', id)).toBe(true);
    expect(await exists('query_set', goneQuerySet)).toBe(true);
    for (const id of [goneJob, goneFailed, goneChild]) expect(await exists('job', id)).toBe(true);

    expect(await retention.purgeExpired({ dryRun: false })).toEqual(expected);

    for (const id of [goneSet, doneWithSet]) expect(await exists('prediction_set', id)).toBe(false);
    for (const id of [inUseSet, laterSet, ownerSet, keptSet, referencing])
      expect(await exists('prediction_set', id)).toBe(true);
    const [predictionsLeft] = await own.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM prediction_row WHERE prediction_set_id = ANY($1::uuid[])`,
      [[goneSet, doneWithSet]],
    );
    expect(predictionsLeft!.n).toBe(0);

    expect(await exists('query_set', goneQuerySet)).toBe(false);
    for (const id of [queuedReader, publicQuerySet]) expect(await exists('query_set', id)).toBe(true);
    const [entriesLeft] = await own.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM query_set_entry WHERE query_set_id = $1`,
      [goneQuerySet],
    );
    expect(entriesLeft!.n).toBe(0);
    const [sequencesAfter] = await own.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM sequence`);
    expect(sequencesAfter).toEqual(sequencesBefore);
    expect(
      await one<{ query_set_id: string | null }>(`SELECT query_set_id FROM prediction_set WHERE id = $1`, [
        referencing,
      ]),
    ).toEqual({
      query_set_id: null,
    });

    for (const id of [goneJob, goneFailed, goneChild]) expect(await exists('job', id)).toBe(false);
    for (const id of [
      activeJob,
      runningExpired,
      parentOfActive,
      activeChild,
      publicJob,
      laterJob,
      finishedJob,
    ])
      expect(await exists('job', id)).toBe(true);
    const [leftovers] = await own.query<{ events: number; comments: number }[]>(
      `SELECT (SELECT count(*)::int FROM job_event WHERE job_id = ANY($1::uuid[])) AS events,
              (SELECT count(*)::int FROM job_comment WHERE job_id = ANY($1::uuid[])) AS comments`,
      [[goneJob, goneFailed, goneChild]],
    );
    expect(leftovers).toEqual({ events: 0, comments: 0 });

    // Everything expired is gone: the next run finds nothing.
    expect(await retention.purgeExpired({ dryRun: false })).toEqual(NOTHING);
  });

  it('purges rows an active job held once that job has finished', async () => {
    const holder = await job('RUNNING', 'unlisted', 'later');
    const set = await predictionSet('unlisted', 'expired', { predictions: 1, jobId: holder });
    const parent = await job('SUCCEEDED', 'unlisted', 'expired');
    const child = await job('RUNNING', 'unlisted', 'expired', { parentJobId: parent });
    expect(await retention.purgeExpired({ dryRun: false })).toEqual(NOTHING);

    await jobs.markSucceeded(holder, null);
    await jobs.markSucceeded(child, null);
    expect(await retention.purgeExpired({ dryRun: false })).toEqual({
      ...NOTHING,
      prediction_sets: 1,
      predictions: 1,
      jobs: 2,
      job_events: 4,
    });
    expect(await exists('prediction_set', set)).toBe(false);
    expect(await exists('job', parent)).toBe(false);
    expect(await exists('job', child)).toBe(false);
  });

  it('counts the jobs and events that go with an expired job, and keeps a chain with a running descendant', async () => {
    // A finished child kept longer than its parent still goes with it (the rows cascade), and counts.
    const parent = await job('SUCCEEDED', 'unlisted', 'expired');
    const child = await job('SUCCEEDED', 'unlisted', 'later', { parentJobId: parent });
    // A chain whose grandchild still runs stays whole until it has finished.
    const root = await job('SUCCEEDED', 'unlisted', 'expired');
    const middle = await job('SUCCEEDED', 'unlisted', 'later', { parentJobId: root });
    const running = await job('RUNNING', 'unlisted', 'later', { parentJobId: middle });

    expect(await retention.purgeExpired({ dryRun: false })).toEqual({ ...NOTHING, jobs: 2, job_events: 4 });
    expect(await exists('job', parent)).toBe(false);
    expect(await exists('job', child)).toBe(false);
    expect(await exists('job', root)).toBe(true);
    expect(await exists('job', running)).toBe(true);

    await jobs.markSucceeded(running, null);
    expect(await retention.purgeExpired({ dryRun: false })).toEqual({ ...NOTHING, jobs: 3, job_events: 6 });
    expect(await exists('job', middle)).toBe(false);
  });
});
