import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Db } from '../sql';
import { FollowUpRepository } from './follow-up.repository';
import { JobEventRepository } from './job-event.repository';
import { JobRecord } from './job.record';
import { JobRepository, JobSubmitter, NewJob } from './job.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import { jobFields } from '../../testing/repository-fixtures';

// FollowUpRepository against the run's PostgreSQL, inside the transaction that closes a job: the
// job's submitter, an identical active job, the follow-up inserted without a dedup conflict, the
// follow-up's id recorded in the result, a follow-up failed over quota; all kept or rolled back together.

let db: DataSource;
let jobs: JobRepository;
let events: JobEventRepository;

useRunDatabase((opened) => {
  db = opened;
  jobs = new JobRepository(db);
  events = new JobEventRepository(db);
});

const newDedupKey = (): string => randomBytes(8).toString('hex');

const newJob = (extra: Partial<NewJob> = {}): NewJob => jobFields({ operation: 'test_follow_up', ...extra });

const guest = (extra: Partial<JobSubmitter> = {}): JobSubmitter => ({
  ownerUserId: null,
  role: 'guest',
  via: 'annotate',
  quotaKey: 'ip:0123456789abcdef',
  visibility: 'unlisted',
  expiresInDays: 7,
  ...extra,
});

/** A job claimed by a worker. */
async function running(): Promise<JobRecord> {
  const job = await jobs.createQueued(newJob());
  const claimed = await jobs.claim(job.id, 60);
  return claimed!;
}

/** Runs `work` in a transaction with a FollowUpRepository on it. */
function inTransaction<T>(work: (followUps: FollowUpRepository, tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(new FollowUpRepository(tx), tx));
}

describe('FollowUpRepository.source', () => {
  it("gives the job's meta and submitter, with the days left before it expires", async () => {
    const who = guest();
    const job = await jobs.createQueued(
      newJob({ meta: { then: { operation: 'predict_go_terms' } }, submitter: who }),
    );

    const source = await inTransaction((f) => f.source(job.id));
    expect(source).toEqual({
      meta: { then: { operation: 'predict_go_terms' } },
      owner_user_id: null,
      visibility: 'unlisted',
      submitted_role: 'guest',
      submitted_via: 'annotate',
      quota_key: 'ip:0123456789abcdef',
      expires_in_days: expect.any(Number),
    });
    expect(source!.expires_in_days).toBeCloseTo(7, 3);
  });

  it('gives null days for a job that is kept, and null for an unknown job', async () => {
    const owner = randomUUID();
    const job = await jobs.createQueued(
      newJob({
        submitter: {
          ownerUserId: owner,
          role: 'researcher',
          via: 'api',
          quotaKey: owner,
          visibility: 'owner',
          expiresInDays: null,
        },
      }),
    );
    expect(await inTransaction((f) => f.source(job.id))).toMatchObject({
      owner_user_id: owner,
      visibility: 'owner',
      submitted_role: 'researcher',
      submitted_via: 'api',
      quota_key: owner,
      expires_in_days: null,
    });
    expect(await inTransaction((f) => f.source(randomUUID()))).toBeNull();
  });
});

describe('FollowUpRepository.activeByDedupKey', () => {
  it('names a QUEUED or RUNNING job with the key and its owner and visibility; none once it finished', async () => {
    const dedupKey = newDedupKey();
    const owner = randomUUID();
    expect(await inTransaction((f) => f.activeByDedupKey(dedupKey))).toBeNull();

    const job = await jobs.createQueued(newJob({ dedupKey, submitter: guest({ ownerUserId: owner }) }));
    const expected = { id: job.id, owner_user_id: owner, visibility: 'unlisted' };
    expect(await inTransaction((f) => f.activeByDedupKey(dedupKey))).toEqual(expected);
    await jobs.claim(job.id, 60);
    expect(await inTransaction((f) => f.activeByDedupKey(dedupKey))).toEqual(expected);
    await jobs.markSucceeded(job.id, null);
    expect(await inTransaction((f) => f.activeByDedupKey(dedupKey))).toBeNull();
  });
});

describe('FollowUpRepository.insertWithoutConflict', () => {
  it('inserts the follow-up as a QUEUED child with its dedup key and job.created event', async () => {
    const parent = await jobs.createQueued(newJob());
    const dedupKey = newDedupKey();
    const who = guest();
    const next = await inTransaction((f) =>
      f.insertWithoutConflict(newJob({ parentJobId: parent.id, dedupKey, submitter: who })),
    );

    expect(next).toMatchObject({
      status: 'QUEUED',
      parent_job_id: parent.id,
      dedup_key: dedupKey,
      visibility: 'unlisted',
      submitted_via: 'annotate',
    });
    expect(await jobs.findById(next.id)).toEqual(next);
    expect((await events.list(next.id, 10)).map((e) => e.event)).toEqual(['job.created']);
  });

  it('inserts a follow-up without a dedup key as it is', async () => {
    const next = await inTransaction((f) => f.insertWithoutConflict(newJob()));
    expect(await jobs.findById(next.id)).toMatchObject({ status: 'QUEUED', dedup_key: null });
  });

  it('drops the dedup key when an identical job is active, and the transaction goes on', async () => {
    const dedupKey = newDedupKey();
    const active = await jobs.createQueued(newJob({ dedupKey }));
    const parent = await running();

    const next = await inTransaction(async (f, tx) => {
      const inserted = await f.insertWithoutConflict(newJob({ parentJobId: parent.id, dedupKey }));
      // The unique violation was rolled back to its savepoint: the transaction still writes.
      await f.record(parent.id, 'follow_up_job_id', inserted.id, 'test_follow_up', 'job.follow_up_queued');
      expect((await new JobRepository(db).findById(inserted.id, tx))?.dedup_key).toBeNull();
      return inserted;
    });

    expect(next.id).not.toBe(active.id);
    expect(next).toMatchObject({ status: 'QUEUED', dedup_key: null, parent_job_id: parent.id });
    expect((await jobs.getById(parent.id)).result).toEqual({ follow_up_job_id: next.id });
    expect(await jobs.findActiveByDedupKey(dedupKey)).toMatchObject({ id: active.id });
  });

  it('rethrows any other failure', async () => {
    await expect(
      inTransaction((f) => f.insertWithoutConflict(newJob({ dedupKey: 'not-a-dedup-key' }))),
    ).rejects.toThrow();
  });
});

describe('FollowUpRepository.record', () => {
  it("adds the follow-up's id to the job's result under its key, with an event", async () => {
    const job = await running();
    await jobs.mergeResult(job.id, { fields: { embeddings: 3 } });
    const followUpId = randomUUID();

    await inTransaction((f) =>
      f.record(job.id, 'prediction_job_id', followUpId, 'predict_go_terms', 'job.follow_up_joined'),
    );

    expect((await jobs.getById(job.id)).result).toEqual({ embeddings: 3, prediction_job_id: followUpId });
    const [event] = await events.list(job.id, 1);
    expect(event).toMatchObject({
      event: 'job.follow_up_joined',
      level: 'info',
      message: null,
      fields: { operation: 'predict_go_terms', prediction_job_id: followUpId },
    });
  });
});

describe('FollowUpRepository.failOverQuota', () => {
  it('keeps the follow-up as a FAILED quota_exceeded job with its job.failed event', async () => {
    const next = await inTransaction((f) => f.insertWithoutConflict(newJob()));
    await inTransaction((f) => f.failOverQuota(next.id, 'daily quota for jobs reached (5 of 5 used)'));

    expect(await jobs.getById(next.id)).toMatchObject({
      status: 'FAILED',
      error_code: 'quota_exceeded',
      error_message: 'daily quota for jobs reached (5 of 5 used)',
      leased_until: null,
      finished_at: expect.any(String),
    });
    const [event] = await events.list(next.id, 1);
    expect(event).toMatchObject({
      event: 'job.failed',
      level: 'error',
      message: 'daily quota for jobs reached (5 of 5 used)',
      fields: { error_code: 'quota_exceeded' },
    });
  });
});

describe('FollowUpRepository in the closing transaction', () => {
  /** Queues a follow-up of `parentId` in the closing transaction and records it in the parent's result. */
  async function queueFollowUp(tx: Db, parentId: string, extra: Partial<NewJob> = {}): Promise<string> {
    const followUps = new FollowUpRepository(tx);
    const next = await followUps.insertWithoutConflict(newJob({ parentJobId: parentId, ...extra }));
    await followUps.record(parentId, 'follow_up_job_id', next.id, 'test_follow_up', 'job.follow_up_queued');
    return next.id;
  }

  it("commits the follow-up and the parent's result together with the parent's success", async () => {
    const parent = await running();
    let nextId = '';
    expect(
      await jobs.markSucceeded(parent.id, { embeddings: 2 }, async (tx) => {
        nextId = await queueFollowUp(tx, parent.id);
      }),
    ).toBe(true);

    expect((await jobs.getById(parent.id)).result).toEqual({ embeddings: 2, follow_up_job_id: nextId });
    expect(await jobs.getStatus(nextId)).toBe('QUEUED');
  });

  it('keeps nothing when the closing transaction fails', async () => {
    const parent = await running();
    let nextId = '';
    await expect(
      jobs.markSucceeded(parent.id, { embeddings: 2 }, async (tx) => {
        nextId = await queueFollowUp(tx, parent.id, { dedupKey: newDedupKey() });
        throw new Error('publish bookkeeping failed');
      }),
    ).rejects.toThrow('publish bookkeeping failed');

    expect(nextId).not.toBe('');
    expect(await jobs.findById(nextId)).toBeNull();
    expect(await jobs.getById(parent.id)).toMatchObject({ status: 'RUNNING', result: null });
    expect((await events.list(parent.id, 10)).map((e) => e.event)).toEqual(['job.created']);
  });
});
