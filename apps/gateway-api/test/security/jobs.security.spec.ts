import { randomUUID } from 'node:crypto';
import { JobRepository } from '@svc/persistence';
import { waitFor } from '@svc/testing';
import { createUser, Problem, SecurityStack, SignedInUser, startSecurityStack } from './security-stack';

interface Job {
  id: string;
  status: string;
  operation: string;
  queue_name: string;
  parent_job_id: string | null;
  owner_user_id: string | null;
  error_code: string | null;
  error_message: string | null;
  result: Record<string, unknown> | null;
}

const ping = (extra: Record<string, unknown> = {}) => ({
  operation: 'ping',
  queue_name: 'svc.ping',
  payload: { message: randomUUID() },
  ...extra,
});

describe('jobs: identity travels with the work, only our queues, owners (findings 1, 2, 8)', () => {
  let stack: SecurityStack;
  let alice: SignedInUser;
  let bob: SignedInUser;
  let operator: SignedInUser;

  beforeAll(async () => {
    stack = await startSecurityStack('jobs_security', {
      workers: ['ingestion-worker'],
      env: { SVC_RATELIMIT_POST_JOBS: '1000/minute' },
    });
    [alice, bob, operator] = await Promise.all([
      createUser(stack, 'researcher'),
      createUser(stack, 'researcher'),
      createUser(stack, 'operator'),
    ]);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const jobsOf = async (who: SignedInUser, query: string): Promise<Job[]> => {
    const res = await stack.api.get<Job[]>(`/v1/jobs?${query}`, who.headers);
    expect(res.status).toBe(200);
    return res.body;
  };

  const waitForJob = (id: string, statuses: string[]): Promise<Job> =>
    waitFor(
      async () => {
        const res = await stack.api.get<Job>(`/v1/jobs/${id}`, operator.headers);
        return statuses.includes(res.body.status) ? res.body : undefined;
      },
      { timeoutMs: 30_000, what: `job ${id} to reach ${statuses.join('/')}` },
    );

  it("finding 1: a researcher's meta.then cannot queue an operator-only load (403, nothing queued)", async () => {
    const before = await jobsOf(operator, 'operation=load_goa_annotations&include_children=true');
    const res = await stack.api.post<Problem>(
      '/v1/jobs',
      ping({
        meta: {
          then: {
            operation: 'load_goa_annotations',
            queue_name: 'svc.jobs',
            payload: {
              ontology_snapshot_id: randomUUID(),
              gaf_url: 'https://example.org/goa.gaf',
              source_version: 'x',
            },
          },
        },
      }),
      alice.headers,
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const after = await jobsOf(operator, 'operation=load_goa_annotations&include_children=true');
    expect(after.length).toBe(before.length);
  });

  it('finding 1: a stored job whose follow-up its submitter could not queue fails forbidden_follow_up before running', async () => {
    const jobs = new JobRepository(stack.gateway.infra.db);
    const row = await jobs.createQueued({
      operation: 'ping',
      queueName: 'svc.ping',
      payload: { message: randomUUID() },
      meta: {
        then: {
          operation: 'load_ontology_snapshot',
          queue_name: 'svc.jobs',
          payload: { obo_url: 'https://example.org/go.obo' },
        },
      },
      description: null,
      tags: [],
      dedupKey: null,
      dispatchDeadlineSeconds: 60,
      submitter: {
        ownerUserId: alice.id,
        role: 'researcher',
        via: 'api',
        quotaKey: alice.id,
        visibility: 'owner',
        expiresInDays: null,
      },
    });
    await stack.gateway.infra.broker.publishJob('svc.ping', { job_id: row.id });
    const done = await waitForJob(row.id, ['SUCCEEDED', 'FAILED']);
    expect(done).toMatchObject({ status: 'FAILED', error_code: 'forbidden_follow_up' });
    expect(done.error_message).toMatch(/load_ontology_snapshot needs role operator/);
    expect(await jobsOf(operator, `parent_job_id=${row.id}`)).toEqual([]);
  });

  it("finding 1: an allowed follow-up is queued as the submitter's own child job", async () => {
    const child = { message: randomUUID() };
    const res = await stack.api.post<{ id: string }>(
      '/v1/jobs',
      ping({ meta: { then: { operation: 'ping', queue_name: 'svc.ping', payload: child } } }),
      alice.headers,
    );
    expect(res.status).toBe(201);
    const parent = await waitForJob(res.body.id, ['SUCCEEDED', 'FAILED']);
    expect(parent.status).toBe('SUCCEEDED');
    const childId = parent.result?.['follow_up_job_id'];
    expect(typeof childId).toBe('string');
    const followUp = await waitForJob(String(childId), ['SUCCEEDED', 'FAILED']);
    expect(followUp).toMatchObject({
      status: 'SUCCEEDED',
      parent_job_id: parent.id,
      owner_user_id: alice.id,
    });
    // Alice reads her follow-up; Bob does not see it.
    expect((await stack.api.get(`/v1/jobs/${followUp.id}`, alice.headers)).status).toBe(200);
    expect((await stack.api.get(`/v1/jobs/${followUp.id}`, bob.headers)).status).toBe(404);
  });

  it.each(['svc.auth', 'svc.embeddings.batch', 'svc.dead-letter', 'attacker.queue'])(
    "finding 2: queue_name '%s' is refused with 422 naming the allowed queue, and the gateway keeps working",
    async (queue) => {
      const body = ping({ queue_name: queue });
      const res = await stack.api.post<Problem>('/v1/jobs', body, alice.headers);
      expect(res.status).toBe(422);
      expect(res.body.allowed_queue).toBe('svc.ping');
      expect(res.body.errors?.[0]?.path).toBe('queue_name');
      expect((await stack.api.get('/health/ready')).status).toBe(200);
      // The refused submission left no dedup key behind: the correct one is accepted.
      const fixed = await stack.api.post<{ id: string }>(
        '/v1/jobs',
        { ...body, queue_name: 'svc.ping' },
        alice.headers,
      );
      expect(fixed.status).toBe(201);
      expect((await waitForJob(fixed.body.id, ['SUCCEEDED', 'FAILED'])).status).toBe('SUCCEEDED');
    },
  );

  it('finding 2: a follow-up naming a foreign queue is refused at submission', async () => {
    const res = await stack.api.post<Problem>(
      '/v1/jobs',
      ping({ meta: { then: { operation: 'ping', queue_name: 'svc.auth', payload: { message: 'x' } } } }),
      alice.headers,
    );
    expect(res.status).toBe(422);
    expect(res.body.allowed_queue).toBe('svc.ping');
  });

  it('finding 2: a stored row naming a foreign queue fails invalid_queue when the reaper meets it; workers keep running', async () => {
    const jobs = new JobRepository(stack.gateway.infra.db);
    const row = await jobs.createQueued({
      operation: 'ping',
      queueName: 'svc.auth',
      payload: { message: randomUUID() },
      meta: {},
      description: null,
      tags: [],
      dedupKey: null,
      dispatchDeadlineSeconds: 0.5,
    });
    const failed = await waitForJob(row.id, ['FAILED', 'SUCCEEDED']);
    expect(failed.error_code).toBe('invalid_queue');
    const res = await stack.api.post<{ id: string }>('/v1/jobs', ping(), alice.headers);
    expect(res.status).toBe(201);
    expect((await waitForJob(res.body.id, ['SUCCEEDED', 'FAILED'])).status).toBe('SUCCEEDED');
  });

  it('rule 7: a job payload or meta over the job payload limit (256 KiB) is 413, under the 1 MiB body limit', async () => {
    const big = 'x'.repeat(300 * 1024);
    const payload = await stack.api.post<Problem>(
      '/v1/jobs',
      { ...ping(), payload: { message: big } },
      alice.headers,
    );
    expect(payload.status).toBe(413);
    const meta = await stack.api.post<Problem>('/v1/jobs', ping({ meta: { note: big } }), alice.headers);
    expect(meta.status).toBe(413);
  });

  it("finding 8: another researcher can neither read, cancel, comment on nor delete a researcher's job", async () => {
    // An operator's long ping holds the ping queue, so Alice's job stays active throughout (a
    // researcher's own ping sleeps at most a few seconds).
    const hold = await stack.api.post<{ id: string }>(
      '/v1/jobs',
      { ...ping(), payload: { message: randomUUID(), sleep_seconds: 600 } },
      operator.headers,
    );
    expect(hold.status).toBe(201);
    await waitForJob(hold.body.id, ['RUNNING']);
    const res = await stack.api.post<{ id: string }>('/v1/jobs', ping(), alice.headers);
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect((await stack.api.get(`/v1/jobs/${id}`, bob.headers)).status).toBe(404);
    expect((await stack.api.get(`/v1/jobs/${id}/events`, bob.headers)).status).toBe(404);
    expect((await stack.api.post(`/v1/jobs/${id}/cancel`, undefined, bob.headers)).status).toBe(404);
    expect((await stack.api.post(`/v1/jobs/${id}/comments`, { body: 'mine now' }, bob.headers)).status).toBe(
      404,
    );
    expect((await stack.api.delete(`/v1/jobs/${id}`, bob.headers)).status).toBe(404);
    expect((await stack.api.get(`/v1/jobs/${id}`)).status).toBe(404);
    // Its owner and operators can.
    expect((await stack.api.get(`/v1/jobs/${id}`, alice.headers)).status).toBe(200);
    const cancelled = await stack.api.post<Job>(`/v1/jobs/${id}/cancel`, undefined, operator.headers);
    expect(cancelled.status).toBe(200);
    expect((await stack.api.delete(`/v1/jobs/${id}`, alice.headers)).status).toBe(200);
    expect(
      (await stack.api.post(`/v1/jobs/${hold.body.id}/cancel`, undefined, operator.headers)).status,
    ).toBe(200);
  });

  it('finding 8: lists show each caller only what they may see; mine=true narrows to their own', async () => {
    const res = await stack.api.post<{ id: string }>('/v1/jobs', ping(), alice.headers);
    expect(res.status).toBe(201);
    const id = res.body.id;
    const anonymous = await stack.api.get<Job[]>('/v1/jobs?include_children=true&limit=500');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.map((job) => job.id)).not.toContain(id);
    expect((await jobsOf(bob, 'limit=500')).map((job) => job.id)).not.toContain(id);
    const own = await jobsOf(alice, 'mine=true&limit=500');
    expect(own.map((job) => job.id)).toContain(id);
    expect(own.every((job) => job.owner_user_id === alice.id)).toBe(true);
    expect((await jobsOf(operator, 'limit=500')).map((job) => job.id)).toContain(id);
    expect((await jobsOf(operator, 'mine=true&limit=500')).map((job) => job.id)).not.toContain(id);
  });
});
