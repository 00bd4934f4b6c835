import { randomUUID } from 'node:crypto';
import { waitFor } from '@svc/testing';
import { createUser, SecurityStack, startSecurityStack } from './security-stack';

interface Job {
  id: string;
  status: string;
  parent_job_id: string | null;
  error_code: string | null;
  result: Record<string, unknown> | null;
}

const ping = (meta: Record<string, unknown> = {}) => ({
  operation: 'ping',
  queue_name: 'svc.ping',
  payload: { message: randomUUID() },
  meta,
});
const then = () => ({
  then: { operation: 'ping', queue_name: 'svc.ping', payload: { message: randomUUID() } },
});

describe('jobs: quotas are charged only for queued work, follow-ups included (rules 1 and 9)', () => {
  let stack: SecurityStack;

  beforeAll(async () => {
    stack = await startSecurityStack('job_quota_security', {
      workers: ['ingestion-worker'],
      env: { SVC_USER_QUOTA_PER_DAY: 'researcher=3', SVC_RATELIMIT_POST_JOBS: '1000/minute' },
    });
  });

  afterAll(async () => {
    await stack?.close();
  });

  const finished = (id: string, headers: Record<string, string>): Promise<Job> =>
    waitFor(
      async () => {
        const res = await stack.api.get<Job>(`/v1/jobs/${id}`, headers);
        return ['SUCCEEDED', 'FAILED'].includes(res.body.status) ? res.body : undefined;
      },
      { timeoutMs: 30_000, what: `job ${id} to finish` },
    );

  it('refused submissions cost nothing; a follow-up costs one job of its submitter; then 429', async () => {
    const researcher = await createUser(stack, 'researcher');
    for (let i = 0; i < 5; i += 1) {
      const bad = await stack.api.post('/v1/jobs', { ...ping(), queue_name: 'svc.jobs' }, researcher.headers);
      expect(bad.status).toBe(422);
    }
    const chain = await stack.api.post<{ id: string }>('/v1/jobs', ping(then()), researcher.headers);
    expect(chain.status).toBe(201);
    const parent = await finished(chain.body.id, researcher.headers);
    expect(parent.status).toBe('SUCCEEDED');
    const child = await finished(String(parent.result?.['follow_up_job_id']), researcher.headers);
    expect(child).toMatchObject({ status: 'SUCCEEDED', parent_job_id: parent.id });
    // Two of three used: one more is accepted, the next one is over the quota.
    expect((await stack.api.post('/v1/jobs', ping(), researcher.headers)).status).toBe(201);
    const over = await stack.api.post<{ type: string }>('/v1/jobs', ping(), researcher.headers);
    expect(over.status).toBe(429);
    expect(over.body.type).toMatch(/quota/);
  });

  it('a follow-up over its submitter quota is recorded as a FAILED child with quota_exceeded', async () => {
    const researcher = await createUser(stack, 'researcher');
    expect((await stack.api.post('/v1/jobs', ping(), researcher.headers)).status).toBe(201);
    expect((await stack.api.post('/v1/jobs', ping(), researcher.headers)).status).toBe(201);
    const chain = await stack.api.post<{ id: string }>('/v1/jobs', ping(then()), researcher.headers);
    expect(chain.status).toBe(201);
    const parent = await finished(chain.body.id, researcher.headers);
    expect(parent.status).toBe('SUCCEEDED');
    const child = await finished(String(parent.result?.['follow_up_job_id']), researcher.headers);
    expect(child).toMatchObject({ status: 'FAILED', error_code: 'quota_exceeded', parent_job_id: parent.id });
  });
});
