import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Db } from '../sql';
import { JobCommentRepository } from './job-comment.repository';
import { JobEventRepository } from './job-event.repository';
import { JobRecord } from './job.record';
import { JobRepository, JobSubmitter, NewJob } from './job.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';
import { jobFields } from '../../testing/repository-fixtures';

// JobRepository against the run's PostgreSQL: each state change (create, claim, lease, succeed, fail,
// defer, tick, cancel, delete, requeue, reap) happens once, with its event in the same transaction,
// and the readers (by id, dedup key, list with ownership scope, queued, running, last success).

let db: DataSource;
let jobs: JobRepository;
let events: JobEventRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase(
  (opened) => {
    db = opened;
    jobs = new JobRepository(db);
    events = new JobEventRepository(db);
  },
  { poolSize: 4 },
);

/** An operation name no other test uses: filters and `lastSucceededAt` on it see this test's jobs only. */
const newOperation = (): string => `test_op_${randomUUID().replace(/-/g, '')}`;
/** A dedup key as the service computes them: 16 hex digits. */
const newDedupKey = (): string => randomBytes(8).toString('hex');

function newJob(extra: Partial<NewJob> = {}): NewJob {
  return jobFields({ operation: extra.operation ?? newOperation(), payload: { n: 1 }, ...extra });
}

const submitter = (extra: Partial<JobSubmitter> = {}): JobSubmitter => ({
  ownerUserId: randomUUID(),
  role: 'researcher',
  via: 'api',
  quotaKey: null,
  visibility: 'owner',
  expiresInDays: null,
  ...extra,
});

async function running(extra: Partial<NewJob> = {}, leaseSeconds = 60): Promise<JobRecord> {
  const job = await jobs.createQueued(newJob(extra));
  const claimed = await jobs.claim(job.id, leaseSeconds);
  expect(claimed?.status).toBe('RUNNING');
  return claimed!;
}

/** The job's event names, oldest first. */
async function eventNames(jobId: string): Promise<string[]> {
  return (await events.list(jobId, 100)).map((e) => e.event).reverse();
}

/** Seconds from now until an ISO timestamp (negative when it has passed). */
const secondsUntil = (iso: string | null): number => (Date.parse(iso!) - Date.now()) / 1000;

describe('JobRepository.createQueued', () => {
  it('inserts a QUEUED system job with a dispatch deadline and its job.created event', async () => {
    const operation = newOperation();
    const job = await jobs.createQueued(
      newJob({
        operation,
        payload: { accession: 'P12345' },
        meta: { source: 'test' },
        description: 'a test job',
        tags: ['a', 'b'],
        dispatchDeadlineSeconds: 30,
      }),
    );

    expect(job).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      operation,
      queue_name: 'svc.test',
      status: 'QUEUED',
      payload: { accession: 'P12345' },
      meta: { source: 'test' },
      result: null,
      parent_job_id: null,
      created_at: expect.stringMatching(ISO_MICROS),
      started_at: null,
      finished_at: null,
      progress_current: null,
      progress_total: null,
      error_code: null,
      error_message: null,
      dedup_key: null,
      leased_until: expect.stringMatching(ISO_MICROS),
      requeue_count: 0,
      description: 'a test job',
      findings: null,
      tags: ['a', 'b'],
      owner_user_id: null,
      visibility: 'owner',
      expires_at: null,
      submitted_role: null,
      submitted_via: 'system',
    });
    expect(secondsUntil(job.leased_until)).toBeGreaterThan(20);
    expect(secondsUntil(job.leased_until)).toBeLessThanOrEqual(30);
    expect(await jobs.findById(job.id)).toEqual(job);
    expect(await jobs.getById(job.id)).toEqual(job);

    const [created] = await events.list(job.id, 10);
    expect(created).toMatchObject({
      job_id: job.id,
      event: 'job.created',
      level: 'info',
      fields: { operation, queue_name: 'svc.test' },
    });
  });

  it("records the submitter: owner, role, entry point, quota key, visibility and an unlisted job's expiry", async () => {
    const who = submitter({
      role: 'guest',
      via: 'annotate',
      quotaKey: 'ip:0123456789abcdef',
      visibility: 'unlisted',
      expiresInDays: 7,
    });
    const job = await jobs.createQueued(newJob({ submitter: who }));

    expect(job).toMatchObject({
      owner_user_id: who.ownerUserId,
      visibility: 'unlisted',
      submitted_role: 'guest',
      submitted_via: 'annotate',
      expires_at: expect.stringMatching(ISO_MICROS),
    });
    expect(Date.parse(job.expires_at!) - Date.parse(job.created_at)).toBeCloseTo(7 * 86_400_000, -3);
    const [row] = await db.query<{ quota_key: string }[]>(`SELECT quota_key FROM job WHERE id = $1`, [
      job.id,
    ]);
    expect(row!.quota_key).toBe('ip:0123456789abcdef');
  });

  it('refuses a second active job with the same dedup key, naming the first; a finished one frees the key', async () => {
    const operation = newOperation();
    const dedupKey = newDedupKey();
    const first = await jobs.createQueued(newJob({ operation, dedupKey }));
    expect(await jobs.findActiveByDedupKey(dedupKey)).toEqual(first);

    const error = await domainError(jobs.createQueued(newJob({ operation, dedupKey })));
    expect(error.code).toBe('duplicate_job');
    expect(error.message).toBe(`an identical ${operation} job is already queued`);
    expect(error.extra).toEqual({ existing_job_id: first.id });

    await jobs.claim(first.id, 60);
    const whileRunning = await domainError(jobs.createQueued(newJob({ operation, dedupKey })));
    expect(whileRunning.message).toBe(`an identical ${operation} job is already running`);
    const [count] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM job WHERE dedup_key = $1`,
      [dedupKey],
    );
    expect(count!.n).toBe(1);

    expect(await jobs.markFailed(first.id, 'internal_error', 'stopped')).toBe(true);
    expect(await jobs.findActiveByDedupKey(dedupKey)).toBeNull();
    const second = await jobs.createQueued(newJob({ operation, dedupKey }));
    expect(await jobs.findActiveByDedupKey(dedupKey)).toEqual(second);
  });

  it('links a child to its parent', async () => {
    const parent = await jobs.createQueued(newJob());
    const child = await jobs.createQueued(newJob({ parentJobId: parent.id }));
    expect(child.parent_job_id).toBe(parent.id);
  });
});

describe('JobRepository readers', () => {
  it('findById, getStatus and findActiveByDedupKey are null, and getById fails not_found, for unknown rows', async () => {
    const missing = randomUUID();
    expect(await jobs.findById(missing)).toBeNull();
    expect(await jobs.getStatus(missing)).toBeNull();
    expect(await jobs.findActiveByDedupKey(newDedupKey())).toBeNull();
    const error = await domainError(jobs.getById(missing));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('Job not found');
  });

  it('getStatus follows the job through its states', async () => {
    const job = await jobs.createQueued(newJob());
    expect(await jobs.getStatus(job.id)).toBe('QUEUED');
    await jobs.claim(job.id, 60);
    expect(await jobs.getStatus(job.id)).toBe('RUNNING');
    await jobs.markSucceeded(job.id, null);
    expect(await jobs.getStatus(job.id)).toBe('SUCCEEDED');
  });

  it('queuedJobs lists every QUEUED job oldest first, with its queue', async () => {
    const a = await jobs.createQueued(newJob({ queueName: 'svc.a' }));
    const claimed = await running();
    const b = await jobs.createQueued(newJob({ queueName: 'svc.b' }));

    const queued = await jobs.queuedJobs();
    const ours = queued.filter((j) => [a.id, b.id, claimed.id].includes(j.id));
    expect(ours).toEqual([
      { id: a.id, queue_name: 'svc.a' },
      { id: b.id, queue_name: 'svc.b' },
    ]);
  });

  it('runningAmong names the RUNNING jobs among those asked', async () => {
    const queued = await jobs.createQueued(newJob());
    const a = await running();
    const b = await running();
    const done = await running();
    await jobs.markSucceeded(done.id, null);

    expect(await jobs.runningAmong([queued.id, a.id, b.id, done.id, randomUUID()])).toEqual(
      new Set([a.id, b.id]),
    );
    expect(await jobs.runningAmong([])).toEqual(new Set());
  });

  it('lastSucceededAt is the newest finish among SUCCEEDED jobs of the operations, else null', async () => {
    const op = newOperation();
    const other = newOperation();
    expect(await jobs.lastSucceededAt([op, other])).toBeNull();

    const failed = await running({ operation: op });
    await jobs.markFailed(failed.id, 'internal_error', 'no');
    expect(await jobs.lastSucceededAt([op])).toBeNull();

    const first = await running({ operation: op });
    await jobs.markSucceeded(first.id, null);
    const second = await running({ operation: other });
    await jobs.markSucceeded(second.id, null);
    const firstAt = Date.parse((await jobs.getById(first.id)).finished_at!);
    const secondAt = Date.parse((await jobs.getById(second.id)).finished_at!);

    expect(await jobs.lastSucceededAt([op])).toBeCloseTo(firstAt, -1);
    expect(await jobs.lastSucceededAt([op, other])).toBeCloseTo(secondAt, -1);
    expect(secondAt).toBeGreaterThanOrEqual(firstAt);
  });
});

describe('JobRepository.list', () => {
  it('filters by operation and status, newest first, a page at a time with `after`', async () => {
    const operation = newOperation();
    const a = await jobs.createQueued(newJob({ operation }));
    const b = await running({ operation });
    const c = await jobs.createQueued(newJob({ operation }));
    const all = { kind: 'all' } as const;

    const listed = await jobs.list({ scope: all, operation, includeChildren: false, limit: 10 });
    expect(listed.map((j) => j.id)).toEqual([c.id, b.id, a.id]);
    expect(listed[1]).toEqual(b);
    const queued = await jobs.list({
      scope: all,
      operation,
      status: 'QUEUED',
      includeChildren: false,
      limit: 10,
    });
    expect(queued.map((j) => j.id)).toEqual([c.id, a.id]);

    const page = await jobs.list({ scope: all, operation, includeChildren: false, limit: 2 });
    expect(page.map((j) => j.id)).toEqual([c.id, b.id]);
    const next = await jobs.list({
      scope: all,
      operation,
      includeChildren: false,
      limit: 2,
      after: page[1]!.created_at,
    });
    expect(next.map((j) => j.id)).toEqual([a.id]);
  });

  it('leaves child jobs out unless asked, and lists the children of one parent', async () => {
    const operation = newOperation();
    const parent = await jobs.createQueued(newJob({ operation }));
    const child = await jobs.createQueued(newJob({ operation, parentJobId: parent.id }));
    const unrelated = await jobs.createQueued(newJob({ operation }));
    const all = { kind: 'all' } as const;

    const top = await jobs.list({ scope: all, operation, includeChildren: false, limit: 10 });
    expect(top.map((j) => j.id)).toEqual([unrelated.id, parent.id]);
    const every = await jobs.list({ scope: all, operation, includeChildren: true, limit: 10 });
    expect(every.map((j) => j.id)).toEqual([unrelated.id, child.id, parent.id]);
    const children = await jobs.list({
      scope: all,
      parentJobId: parent.id,
      includeChildren: false,
      limit: 10,
    });
    expect(children.map((j) => j.id)).toEqual([child.id]);
  });

  it('keeps to the rows the scope may see; unlisted jobs appear only to staff', async () => {
    const operation = newOperation();
    const me = randomUUID();
    const someone = randomUUID();
    const make = (ownerUserId: string | null, visibility: JobSubmitter['visibility']) =>
      jobs.createQueued(newJob({ operation, submitter: submitter({ ownerUserId, visibility }) }));
    const myOwn = await make(me, 'owner');
    const myUnlisted = await make(me, 'unlisted');
    const myPublic = await make(me, 'public');
    const theirOwn = await make(someone, 'owner');
    const theirPublic = await make(someone, 'public');
    const guestUnlisted = await make(null, 'unlisted');
    const ids = async (scope: Parameters<JobRepository['list']>[0]['scope']): Promise<string[]> =>
      (await jobs.list({ scope, operation, includeChildren: false, limit: 20 })).map((j) => j.id);

    expect(await ids({ kind: 'all' })).toEqual([
      guestUnlisted.id,
      theirPublic.id,
      theirOwn.id,
      myPublic.id,
      myUnlisted.id,
      myOwn.id,
    ]);
    expect(await ids({ kind: 'own', userId: me })).toEqual([myPublic.id, myOwn.id]);
    expect(await ids({ kind: 'public_and_own', userId: me })).toEqual([
      theirPublic.id,
      myPublic.id,
      myOwn.id,
    ]);
    expect(await ids({ kind: 'public_and_own', userId: null })).toEqual([theirPublic.id, myPublic.id]);
  });
});

describe('JobRepository dispatch', () => {
  it('markDispatched clears the dispatch deadline of a QUEUED job, not the lease of a RUNNING one', async () => {
    const queued = await jobs.createQueued(newJob());
    await jobs.markDispatched(queued.id);
    expect((await jobs.getById(queued.id)).leased_until).toBeNull();

    const claimed = await running();
    await jobs.markDispatched(claimed.id);
    expect((await jobs.getById(claimed.id)).leased_until).toBe(claimed.leased_until);
  });

  it('deleteUndispatched removes a QUEUED job with its events, and nothing else', async () => {
    const queued = await jobs.createQueued(newJob());
    expect(await jobs.deleteUndispatched(queued.id)).toBe(true);
    expect(await jobs.findById(queued.id)).toBeNull();
    expect(await events.list(queued.id, 10)).toEqual([]);
    expect(await jobs.deleteUndispatched(queued.id)).toBe(false);

    const claimed = await running();
    expect(await jobs.deleteUndispatched(claimed.id)).toBe(false);
    expect(await jobs.getStatus(claimed.id)).toBe('RUNNING');
  });
});

describe('JobRepository claim and lease', () => {
  it('claim moves QUEUED to RUNNING once, with a start time and a lease', async () => {
    const job = await jobs.createQueued(newJob());
    const claimed = await jobs.claim(job.id, 120);
    expect(claimed).toEqual({
      ...job,
      status: 'RUNNING',
      started_at: expect.stringMatching(ISO_MICROS),
      leased_until: expect.stringMatching(ISO_MICROS),
    });
    expect(secondsUntil(claimed!.leased_until)).toBeGreaterThan(100);
    expect(secondsUntil(claimed!.leased_until)).toBeLessThanOrEqual(120);

    expect(await jobs.claim(job.id, 120)).toBeNull();
    expect(await jobs.claim(randomUUID(), 120)).toBeNull();
  });

  it('gives a job to only one of several concurrent claims', async () => {
    const job = await jobs.createQueued(newJob());
    const claims = await Promise.all(Array.from({ length: 4 }, () => jobs.claim(job.id, 60)));
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
  });

  it('renewLease extends the lease of a RUNNING job only', async () => {
    const claimed = await running({}, 5);
    expect(await jobs.renewLease(claimed.id, 300)).toBe(true);
    expect(secondsUntil((await jobs.getById(claimed.id)).leased_until)).toBeGreaterThan(250);

    const queued = await jobs.createQueued(newJob());
    expect(await jobs.renewLease(queued.id, 300)).toBe(false);
    await jobs.markSucceeded(claimed.id, null);
    expect(await jobs.renewLease(claimed.id, 300)).toBe(false);
    expect((await jobs.getById(claimed.id)).leased_until).toBeNull();
  });

  it('renewLease does not give a lease back to a deferred job (it waits for its steps without one)', async () => {
    const claimed = await running();
    await jobs.markDeferred(claimed.id, 10);
    expect(await jobs.renewLease(claimed.id, 300)).toBe(false);
    expect((await jobs.getById(claimed.id)).leased_until).toBeNull();
  });

  it('requeueForShutdown puts a RUNNING job back to QUEUED with a dispatch deadline', async () => {
    const claimed = await running();
    const requeued = await jobs.requeueForShutdown(claimed.id, 45);
    expect(requeued).toMatchObject({ id: claimed.id, status: 'QUEUED', started_at: null, requeue_count: 0 });
    expect(secondsUntil(requeued!.leased_until)).toBeGreaterThan(30);
    expect(secondsUntil(requeued!.leased_until)).toBeLessThanOrEqual(45);

    expect(await jobs.requeueForShutdown(claimed.id, 45)).toBeNull();
    expect(await jobs.claim(claimed.id, 60)).toMatchObject({ status: 'RUNNING' });
  });
});

describe('JobRepository.markSucceeded and markFailed', () => {
  it('markSucceeded closes a RUNNING job once, with its result and job.succeeded event', async () => {
    const claimed = await running();
    expect(await jobs.markSucceeded(claimed.id, { rows: 3 })).toBe(true);
    const done = await jobs.getById(claimed.id);
    expect(done).toMatchObject({
      status: 'SUCCEEDED',
      result: { rows: 3 },
      leased_until: null,
      finished_at: expect.stringMatching(ISO_MICROS),
    });
    expect(await eventNames(claimed.id)).toEqual(['job.created', 'job.succeeded']);

    expect(await jobs.markSucceeded(claimed.id, { rows: 4 })).toBe(false);
    expect((await jobs.getById(claimed.id)).result).toEqual({ rows: 3 });
    expect(await eventNames(claimed.id)).toEqual(['job.created', 'job.succeeded']);
  });

  it('markSucceeded refuses a job that is not RUNNING', async () => {
    const queued = await jobs.createQueued(newJob());
    expect(await jobs.markSucceeded(queued.id, null)).toBe(false);
    expect(await jobs.getStatus(queued.id)).toBe('QUEUED');
  });

  it("markSucceeded runs onClose in the closing transaction: onClose's writes commit with it", async () => {
    const claimed = await running();
    const seen: string[] = [];
    await jobs.markSucceeded(claimed.id, null, async (tx: Db) => {
      // Inside the transaction the job already reads as SUCCEEDED.
      seen.push((await jobs.findById(claimed.id, tx))!.status);
      await new JobCommentRepository(tx).create(claimed.id, 'follow-up queued', null);
    });
    expect(seen).toEqual(['SUCCEEDED']);
    expect((await new JobCommentRepository(db).list(claimed.id, 10)).map((c) => c.body)).toEqual([
      'follow-up queued',
    ]);
  });

  it('markSucceeded writes nothing when onClose fails: the job stays RUNNING without the event', async () => {
    const claimed = await running();
    await expect(
      jobs.markSucceeded(claimed.id, { rows: 1 }, async (tx: Db) => {
        await new JobCommentRepository(tx).create(claimed.id, 'half written', null);
        throw new Error('follow-up failed');
      }),
    ).rejects.toThrow('follow-up failed');

    expect(await jobs.getById(claimed.id)).toMatchObject({
      status: 'RUNNING',
      result: null,
      finished_at: null,
    });
    expect(await eventNames(claimed.id)).toEqual(['job.created']);
    expect(await new JobCommentRepository(db).list(claimed.id, 10)).toEqual([]);
  });

  it('markFailed fails a QUEUED or RUNNING job once, with its code, message and job.failed event', async () => {
    const queued = await jobs.createQueued(newJob());
    const claimed = await running();
    expect(await jobs.markFailed(queued.id, 'invalid_payload', 'bad payload')).toBe(true);
    expect(await jobs.markFailed(claimed.id, 'internal_error', 'crashed')).toBe(true);

    expect(await jobs.getById(claimed.id)).toMatchObject({
      status: 'FAILED',
      error_code: 'internal_error',
      error_message: 'crashed',
      leased_until: null,
      finished_at: expect.stringMatching(ISO_MICROS),
    });
    expect(await jobs.getById(queued.id)).toMatchObject({ status: 'FAILED', error_code: 'invalid_payload' });
    const [failed] = await events.list(claimed.id, 1);
    expect(failed).toMatchObject({
      event: 'job.failed',
      level: 'error',
      message: 'crashed',
      fields: { error_code: 'internal_error' },
    });

    expect(await jobs.markFailed(claimed.id, 'internal_error', 'again')).toBe(false);
    expect((await jobs.getById(claimed.id)).error_message).toBe('crashed');
    const succeeded = await running();
    await jobs.markSucceeded(succeeded.id, null);
    expect(await jobs.markFailed(succeeded.id, 'internal_error', 'late')).toBe(false);
    expect(await jobs.getStatus(succeeded.id)).toBe('SUCCEEDED');
  });
});

describe('JobRepository progress', () => {
  it('setProgress sets the given numbers and keeps the others', async () => {
    const claimed = await running();
    await jobs.setProgress(claimed.id, 2, 10);
    expect(await jobs.getById(claimed.id)).toMatchObject({ progress_current: 2, progress_total: 10 });
    await jobs.setProgress(claimed.id, 5, null);
    expect(await jobs.getById(claimed.id)).toMatchObject({ progress_current: 5, progress_total: 10 });
    await jobs.setProgress(claimed.id, null, 12);
    expect(await jobs.getById(claimed.id)).toMatchObject({ progress_current: 5, progress_total: 12 });
  });

  it('setProgress leaves a job that is no longer running as it ended', async () => {
    const claimed = await running();
    await jobs.setProgress(claimed.id, 3, 4);
    await jobs.markFailed(claimed.id, 'internal_error', 'stopped');
    await jobs.setProgress(claimed.id, 4, 4); // a late emit() after the job ended
    expect(await jobs.getById(claimed.id)).toMatchObject({ progress_current: 3, progress_total: 4 });
  });

  it('markDeferred drops the lease and waits; the tick that reaches the total closes the job once', async () => {
    const claimed = await running();
    const closed: string[] = [];
    const onClose = async (): Promise<void> => {
      closed.push(claimed.id);
    };

    expect(await jobs.markDeferred(claimed.id, 3, onClose)).toEqual({
      progress_current: 0,
      progress_total: 3,
      status: 'RUNNING',
      closed: false,
    });
    expect(await jobs.getById(claimed.id)).toMatchObject({ status: 'RUNNING', leased_until: null });
    const [deferred] = await events.list(claimed.id, 1);
    expect(deferred).toMatchObject({ event: 'job.deferred', fields: { progress_total: 3 } });

    expect(await jobs.tickProgress(claimed.id, 1, onClose)).toEqual({
      progress_current: 1,
      progress_total: 3,
      status: 'RUNNING',
      closed: false,
    });
    expect(closed).toEqual([]);
    expect(await jobs.tickProgress(claimed.id, 2, onClose)).toEqual({
      progress_current: 3,
      progress_total: 3,
      status: 'SUCCEEDED',
      closed: true,
    });
    expect(closed).toEqual([claimed.id]);
    expect(await jobs.getById(claimed.id)).toMatchObject({
      status: 'SUCCEEDED',
      finished_at: expect.stringMatching(ISO_MICROS),
    });
    const [succeeded] = await events.list(claimed.id, 1);
    expect(succeeded).toMatchObject({ event: 'job.succeeded', fields: { progress_current: 3 } });

    expect(await jobs.tickProgress(claimed.id, 1, onClose)).toBeNull();
    expect(closed).toEqual([claimed.id]);
    expect((await jobs.getById(claimed.id)).progress_current).toBe(3);
  });

  it('markDeferred closes the job at once when its steps already reached the total', async () => {
    const claimed = await running();
    await jobs.setProgress(claimed.id, 0, 2);
    await jobs.tickProgress(claimed.id, 2); // the steps outran their coordinator
    expect(await jobs.getStatus(claimed.id)).toBe('SUCCEEDED');

    const other = await running();
    await jobs.tickProgress(other.id, 4); // no total yet: nothing closes
    expect(await jobs.getStatus(other.id)).toBe('RUNNING');
    let closedWith: string | null = null;
    expect(
      await jobs.markDeferred(other.id, 4, async (tx) => {
        closedWith = (await jobs.findById(other.id, tx))!.status;
      }),
    ).toEqual({ progress_current: 4, progress_total: 4, status: 'SUCCEEDED', closed: true });
    expect(closedWith).toBe('SUCCEEDED');
    expect(await eventNames(other.id)).toEqual(['job.created', 'job.deferred', 'job.succeeded']);
  });

  it('markDeferred with no total keeps the stored one, and is null for a job that is not RUNNING', async () => {
    const claimed = await running();
    await jobs.setProgress(claimed.id, 1, 5);
    expect(await jobs.markDeferred(claimed.id, null)).toEqual({
      progress_current: 1,
      progress_total: 5,
      status: 'RUNNING',
      closed: false,
    });

    const queued = await jobs.createQueued(newJob());
    expect(await jobs.markDeferred(queued.id, 3)).toBeNull();
    expect(await eventNames(queued.id)).toEqual(['job.created']);
  });

  it('tickProgress is null for a job that is not RUNNING and changes nothing', async () => {
    const queued = await jobs.createQueued(newJob());
    expect(await jobs.tickProgress(queued.id, 1)).toBeNull();
    expect((await jobs.getById(queued.id)).progress_current).toBeNull();
  });

  it('mergeResult merges fields and adds counts to the stored numbers', async () => {
    const claimed = await running();
    await jobs.mergeResult(claimed.id, { fields: { prediction_set_id: 'ps-1' }, counts: { rows: 3 } });
    await jobs.mergeResult(claimed.id, { counts: { rows: 4, skipped: 1 } });
    await db.transaction((tx) =>
      jobs.mergeResult(claimed.id, { fields: { note: 'x' }, counts: { rows: 1 } }, tx),
    );
    expect((await jobs.getById(claimed.id)).result).toEqual({
      prediction_set_id: 'ps-1',
      rows: 8,
      skipped: 1,
      note: 'x',
    });
    // The coordinator's closing result replaces what the steps merged.
    await jobs.markSucceeded(claimed.id, { final: true });
    expect((await jobs.getById(claimed.id)).result).toEqual({ final: true });
  });
});

describe('JobRepository.planOnce', () => {
  it('stores the first plan and gives it back to every later run without calling make', async () => {
    const claimed = await running();
    expect(await jobs.planOnce(claimed.id, async () => ({ batches: [1, 2] }))).toEqual({
      plan: { batches: [1, 2] },
      resumed: false,
    });
    let made = 0;
    const make = async () => {
      made += 1;
      return { batches: [9] };
    };
    expect(await jobs.planOnce(claimed.id, make)).toEqual({ plan: { batches: [1, 2] }, resumed: true });
    expect(made).toBe(0);
    const [stored] = await db.query<{ plan: unknown }[]>(`SELECT plan FROM job_plan WHERE job_id = $1`, [
      claimed.id,
    ]);
    expect(stored!.plan).toEqual({ batches: [1, 2] });
  });

  it('gives concurrent runs one and the same plan', async () => {
    const claimed = await running();
    const results = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        jobs.planOnce(claimed.id, async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { name };
        }),
      ),
    );
    const plans = results.map((r) => JSON.stringify(r.plan));
    expect(new Set(plans).size).toBe(1);
    expect(results.filter((r) => !r.resumed)).toHaveLength(1);
  });
});

describe('JobRepository.tickProgressOnce', () => {
  it('writes and ticks a step once per key; a redelivered step neither writes nor ticks', async () => {
    const claimed = await running();
    await jobs.setProgress(claimed.id, 0, 3);
    const comments = new JobCommentRepository(db);
    const write = (body: string) => async (tx: Db) => {
      await new JobCommentRepository(tx).create(claimed.id, body, null);
    };

    expect(await jobs.tickProgressOnce(claimed.id, 'batch-0', 1, write('batch-0'))).toEqual({
      duplicate: false,
      tick: { progress_current: 1, progress_total: 3, status: 'RUNNING', closed: false },
    });
    expect(await jobs.tickProgressOnce(claimed.id, 'batch-0', 1, write('batch-0 again'))).toEqual({
      duplicate: true,
      tick: null,
    });
    expect((await comments.list(claimed.id, 10)).map((c) => c.body)).toEqual(['batch-0']);
    expect((await jobs.getById(claimed.id)).progress_current).toBe(1);

    const closed: string[] = [];
    expect(
      await jobs.tickProgressOnce(claimed.id, 'batch-1', 2, write('batch-1'), async () => {
        closed.push('closed');
      }),
    ).toEqual({
      duplicate: false,
      tick: { progress_current: 3, progress_total: 3, status: 'SUCCEEDED', closed: true },
    });
    expect(closed).toEqual(['closed']);
    expect(await jobs.getStatus(claimed.id)).toBe('SUCCEEDED');
  });

  it('commits nothing of a step whose job is no longer RUNNING, so its re-run can commit the step', async () => {
    const claimed = await running();
    await jobs.setProgress(claimed.id, 0, 2);
    const comments = new JobCommentRepository(db);
    const write = async (tx: Db): Promise<void> => {
      await new JobCommentRepository(tx).create(claimed.id, 'rows', null);
    };
    await jobs.requeueForShutdown(claimed.id, 30); // handed back: waiting for its re-run

    expect(await jobs.tickProgressOnce(claimed.id, 'batch-0', 1, write)).toEqual({
      duplicate: false,
      tick: null,
    });
    expect(await comments.list(claimed.id, 10)).toEqual([]);
    expect((await jobs.getById(claimed.id)).progress_current).toBe(0);

    await jobs.claim(claimed.id, 60);
    expect(await jobs.tickProgressOnce(claimed.id, 'batch-0', 1, write)).toEqual({
      duplicate: false,
      tick: { progress_current: 1, progress_total: 2, status: 'RUNNING', closed: false },
    });
    expect(await comments.list(claimed.id, 10)).toHaveLength(1);
  });

  it('commits nothing when the write fails, and the key stays free', async () => {
    const claimed = await running();
    await expect(
      jobs.tickProgressOnce(claimed.id, 'batch-0', 1, async (tx) => {
        await new JobCommentRepository(tx).create(claimed.id, 'partial', null);
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    expect(await new JobCommentRepository(db).list(claimed.id, 10)).toEqual([]);
    expect((await jobs.getById(claimed.id)).progress_current).toBeNull();

    expect(await jobs.tickProgressOnce(claimed.id, 'batch-0', 1, async () => undefined)).toMatchObject({
      duplicate: false,
      tick: { progress_current: 1 },
    });
  });
});

describe('JobRepository.cancel', () => {
  it('cancels the job and every QUEUED or RUNNING descendant, each with its event; finished ones stay', async () => {
    const root = await running();
    const child = await jobs.createQueued(newJob({ parentJobId: root.id }));
    const grandchild = await running({ parentJobId: child.id });
    const finished = await running({ parentJobId: root.id });
    await jobs.markSucceeded(finished.id, null);
    const unrelated = await running();

    const cancelled = await jobs.cancel(root.id);
    expect(cancelled).toMatchObject({
      id: root.id,
      status: 'CANCELLED',
      leased_until: null,
      finished_at: expect.stringMatching(ISO_MICROS),
    });
    expect(await jobs.getStatus(child.id)).toBe('CANCELLED');
    expect(await jobs.getStatus(grandchild.id)).toBe('CANCELLED');
    expect(await jobs.getStatus(finished.id)).toBe('SUCCEEDED');
    expect(await jobs.getStatus(unrelated.id)).toBe('RUNNING');

    const [rootEvent] = await events.list(root.id, 1);
    expect(rootEvent).toMatchObject({
      event: 'job.cancelled',
      fields: { requested_on: root.id, previous_status: 'RUNNING' },
    });
    const [childEvent] = await events.list(grandchild.id, 1);
    expect(childEvent).toMatchObject({ event: 'job.cancelled', fields: { requested_on: root.id } });
    expect(await eventNames(finished.id)).toEqual(['job.created', 'job.succeeded']);
  });

  it('returns a finished job as it is, without an event', async () => {
    const job = await running();
    await jobs.markFailed(job.id, 'internal_error', 'no');
    const before = await jobs.getById(job.id);
    expect(await jobs.cancel(job.id)).toEqual(before);
    expect(await eventNames(job.id)).toEqual(['job.created', 'job.failed']);
  });

  it('cancels a QUEUED job, and fails not_found for an unknown one', async () => {
    const queued = await jobs.createQueued(newJob());
    expect(await jobs.cancel(queued.id)).toMatchObject({ status: 'CANCELLED' });
    const [event] = await events.list(queued.id, 1);
    expect(event?.fields).toEqual({ requested_on: queued.id, previous_status: 'QUEUED' });

    const error = await domainError(jobs.cancel(randomUUID()));
    expect(error.code).toBe('not_found');
  });
});

describe('JobRepository.delete', () => {
  it('removes a finished job with its events, comments and child jobs, and counts them', async () => {
    const root = await jobs.createQueued(newJob());
    const child = await jobs.createQueued(newJob({ parentJobId: root.id }));
    const grandchild = await jobs.createQueued(newJob({ parentJobId: child.id }));
    const comments = new JobCommentRepository(db);
    await comments.create(root.id, 'one', randomUUID());
    await comments.create(grandchild.id, 'two', null);
    await events.append(child.id, 'custom', null);
    await jobs.cancel(root.id); // one job.cancelled event per job

    // 3 job.created + 3 job.cancelled + 1 custom.
    expect(await jobs.delete(root.id)).toEqual({
      id: root.id,
      deleted: true,
      events_deleted: 7,
      comments_deleted: 2,
      children_deleted: 2,
    });
    for (const id of [root.id, child.id, grandchild.id]) expect(await jobs.findById(id)).toBeNull();
    const [left] = await db.query<{ events: number; comments: number }[]>(
      `SELECT (SELECT count(*)::int FROM job_event WHERE job_id = ANY($1::uuid[])) AS events,
              (SELECT count(*)::int FROM job_comment WHERE job_id = ANY($1::uuid[])) AS comments`,
      [[root.id, child.id, grandchild.id]],
    );
    expect(left).toEqual({ events: 0, comments: 0 });
  });

  it('deletes a QUEUED job, and leaves its parent', async () => {
    const parent = await jobs.createQueued(newJob());
    const child = await jobs.createQueued(newJob({ parentJobId: parent.id }));
    expect(await jobs.delete(child.id)).toEqual({
      id: child.id,
      deleted: true,
      events_deleted: 1,
      comments_deleted: 0,
      children_deleted: 0,
    });
    expect(await jobs.getStatus(parent.id)).toBe('QUEUED');
  });

  it('refuses a RUNNING job (conflict) and an unknown one (not_found)', async () => {
    const claimed = await running();
    const conflict = await domainError(jobs.delete(claimed.id));
    expect(conflict.code).toBe('conflict');
    expect(conflict.message).toBe('a RUNNING job cannot be deleted; cancel it first');
    expect(await jobs.getStatus(claimed.id)).toBe('RUNNING');

    const missing = await domainError(jobs.delete(randomUUID()));
    expect(missing.code).toBe('not_found');
  });
});

describe('JobRepository.reapExpired', () => {
  /** Puts a job's lease (or dispatch deadline) far in the past, so a reaper pass takes it first. */
  async function expire(id: string, requeueCount?: number): Promise<void> {
    await db.query(
      `UPDATE job SET leased_until = '2000-01-01T00:00:00Z', requeue_count = COALESCE($2, requeue_count)
        WHERE id = $1`,
      [id, requeueCount ?? null],
    );
  }

  it('requeues expired RUNNING jobs until maxRequeues, then fails them; publishes unconfirmed QUEUED ones again', async () => {
    const stalled = await running({ queueName: 'svc.a' });
    const exhausted = await running({ queueName: 'svc.b' });
    const unconfirmed = await jobs.createQueued(newJob({ queueName: 'svc.c' }));
    const healthy = await running();
    const deferred = await running();
    await jobs.markDeferred(deferred.id, 5);
    await expire(stalled.id);
    await expire(exhausted.id, 2);
    await expire(unconfirmed.id);
    const mine = new Set([stalled.id, exhausted.id, unconfirmed.id, healthy.id, deferred.id]);

    const reaped = await jobs.reapExpired({ maxRequeues: 2, leaseSeconds: 30 });
    expect(
      reaped.filter((r) => mine.has(r.id)).sort((a, b) => a.queue_name.localeCompare(b.queue_name)),
    ).toEqual([
      { id: stalled.id, queue_name: 'svc.a', outcome: 'requeued' },
      { id: exhausted.id, queue_name: 'svc.b', outcome: 'failed' },
      { id: unconfirmed.id, queue_name: 'svc.c', outcome: 'redispatched' },
    ]);

    const requeued = await jobs.getById(stalled.id);
    expect(requeued).toMatchObject({ status: 'QUEUED', started_at: null, requeue_count: 1 });
    expect(secondsUntil(requeued.leased_until)).toBeGreaterThan(20);
    const [requeuedEvent] = await events.list(stalled.id, 1);
    expect(requeuedEvent).toMatchObject({
      event: 'job.requeued',
      level: 'warning',
      fields: { requeue_count: 1 },
    });

    expect(await jobs.getById(exhausted.id)).toMatchObject({
      status: 'FAILED',
      error_code: 'lease_expired',
      error_message: 'lease expired after 2 requeues; the worker running it stopped responding',
      leased_until: null,
    });
    const [failedEvent] = await events.list(exhausted.id, 1);
    expect(failedEvent).toMatchObject({
      event: 'job.lease_expired',
      level: 'error',
      fields: { requeue_count: 2 },
    });

    const redispatched = await jobs.getById(unconfirmed.id);
    expect(redispatched.status).toBe('QUEUED');
    expect(secondsUntil(redispatched.leased_until)).toBeGreaterThan(20);
    const [redispatchEvent] = await events.list(unconfirmed.id, 1);
    expect(redispatchEvent).toMatchObject({ event: 'job.redispatched', level: 'warning' });

    expect(await jobs.getById(healthy.id)).toEqual(healthy);
    expect(await jobs.getById(deferred.id)).toMatchObject({ status: 'RUNNING', leased_until: null });

    // The next pass finds the reaped jobs' new deadlines in the future.
    const again = await jobs.reapExpired({ maxRequeues: 2, leaseSeconds: 30 });
    expect(again.filter((r) => mine.has(r.id))).toEqual([]);
  });

  it('does nothing while another pass holds the reaper lock', async () => {
    const stalled = await running();
    await expire(stalled.id);
    const holder = db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT pg_advisory_xact_lock(hashtext('svc.job-reaper'))`);
      expect(await jobs.reapExpired({ maxRequeues: 2, leaseSeconds: 30 })).toEqual([]);
      expect(await jobs.getStatus(stalled.id)).toBe('RUNNING');
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    const reaped = await jobs.reapExpired({ maxRequeues: 2, leaseSeconds: 30 });
    expect(reaped.filter((r) => r.id === stalled.id)).toEqual([
      { id: stalled.id, queue_name: 'svc.test', outcome: 'requeued' },
    ]);
  });
});
