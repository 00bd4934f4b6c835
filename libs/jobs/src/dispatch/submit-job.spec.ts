import { DomainError, findOperationSpec } from '@svc/contracts';
import { computeDedupKey } from '@svc/domain';
import type { JobRecord, JobSubmitter, NewJob } from '@svc/persistence';
import { JobRequest, submitJob, SubmitJobSteps } from './submit-job';

// Job submission over plain objects: the submitter's deduplication key, what an identical active job
// does, the order of checks, charge and insert, and the charge given back when the insert fails.

const SPEC = findOperationSpec('ping')!;

const submitter = (over: Partial<JobSubmitter> = {}): JobSubmitter => ({
  ownerUserId: 'user-1',
  role: 'researcher',
  via: 'api',
  quotaKey: 'user-1',
  visibility: 'owner',
  expiresInDays: null,
  ...over,
});

const request = (over: Partial<JobRequest> = {}): JobRequest => ({
  spec: SPEC,
  payload: { message: 'hello' },
  meta: {},
  description: null,
  tags: [],
  submitter: submitter(),
  dispatchDeadlineSeconds: 30,
  ...over,
});

/** Steps that record what they were asked, in order. */
function steps(over: Partial<SubmitJobSteps> = {}) {
  const calls: string[] = [];
  const inserted: NewJob[] = [];
  const base: SubmitJobSteps = {
    findActive: async (key) => {
      calls.push(`find ${key.slice(0, 8)}`);
      return null;
    },
    onDuplicate: async () => {
      calls.push('duplicate');
      return 'unkeyed';
    },
    beforeCharge: async () => void calls.push('before'),
    charge: async () => {
      calls.push('charge');
      return { release: async () => void calls.push('release') };
    },
    insert: async (job) => {
      calls.push('insert');
      inserted.push(job);
      return { id: 'new-job', queue_name: job.queueName } as JobRecord;
    },
  };
  return { calls, inserted, steps: { ...base, ...over } };
}

const active = { id: 'active-job' } as JobRecord;

describe('submitJob', () => {
  it('keys the job by its submitter, checks, charges, then inserts', async () => {
    const { calls, inserted, steps: s } = steps();
    const submitted = await submitJob(request({ parentJobId: 'parent' }), s);
    const key = computeDedupKey({ operation: 'ping', payload: { message: 'hello' }, scope: 'user:user-1' });
    expect(calls).toEqual([`find ${key.slice(0, 8)}`, 'before', 'charge', 'insert']);
    expect(inserted).toEqual([
      {
        operation: 'ping',
        queueName: SPEC.queue,
        payload: { message: 'hello' },
        meta: {},
        description: null,
        tags: [],
        dedupKey: key,
        parentJobId: 'parent',
        dispatchDeadlineSeconds: 30,
        submitter: submitter(),
      },
    ]);
    expect(submitted).toMatchObject({ kind: 'inserted', job: { id: 'new-job' }, refused: null });
  });

  it("keys a guest's job by their address and an account's by the account", async () => {
    const keys: string[] = [];
    const record = steps({
      findActive: async (key) => {
        keys.push(key);
        return null;
      },
    }).steps;
    await submitJob(request(), record);
    await submitJob(request({ submitter: submitter({ quotaKey: 'another key' }) }), record);
    await submitJob(
      request({ submitter: submitter({ ownerUserId: null, role: 'guest', quotaKey: 'ip:a' }) }),
      record,
    );
    await submitJob(
      request({ submitter: submitter({ ownerUserId: null, role: 'guest', quotaKey: 'ip:b' }) }),
      record,
    );
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(3);
  });

  it('refuses before anything is charged when an identical job refuses it', async () => {
    const refusal = new DomainError('duplicate_job', 'an identical ping job is already queued');
    const { calls, steps: s } = steps({
      findActive: async () => active,
      onDuplicate: () => Promise.reject(refusal),
    });
    await expect(submitJob(request(), s)).rejects.toBe(refusal);
    expect(calls).toEqual([]);
  });

  it('joins an identical job without charging or inserting', async () => {
    const { calls, steps: s } = steps({ findActive: async () => active, onDuplicate: async () => 'join' });
    expect(await submitJob(request(), s)).toEqual({ kind: 'joined', existing: active });
    expect(calls).toEqual([]);
  });

  it('queues beside an identical job of someone else without a key', async () => {
    const { calls, inserted, steps: s } = steps({ findActive: async () => active });
    await submitJob(request(), s);
    expect(calls).toEqual(['duplicate', 'before', 'charge', 'insert']);
    expect(inserted[0]!.dedupKey).toBeNull();
  });

  it('inserts a job refused by its quota without a key, for the caller to fail', async () => {
    const refused = new DomainError('quota_exceeded', 'daily quota for jobs exceeded');
    const { inserted, steps: s } = steps({
      charge: async () => ({ release: async () => undefined, refused }),
    });
    const submitted = await submitJob(request(), s);
    expect(submitted).toMatchObject({ kind: 'inserted', refused });
    expect(inserted[0]!.dedupKey).toBeNull();
  });

  it('charges nothing when a check before the charge refuses', async () => {
    const { calls, steps: s } = steps({
      beforeCharge: () => Promise.reject(new DomainError('service_unavailable', 'no broker')),
    });
    await expect(submitJob(request(), s)).rejects.toThrow('no broker');
    expect(calls.slice(1)).toEqual([]);
  });

  it('gives the charge back when the insert fails', async () => {
    const { calls, steps: s } = steps({ insert: () => Promise.reject(new Error('lost the race')) });
    await expect(submitJob(request(), s)).rejects.toThrow('lost the race');
    expect(calls.slice(1)).toEqual(['before', 'charge', 'release']);
  });
});
