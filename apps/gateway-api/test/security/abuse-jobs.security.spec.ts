import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JobRepository, NewJob } from '@svc/persistence';
import { HttpResult, LocalHttpServer, startLocalHttpServer, waitFor } from '@svc/testing';
import { createUser, Problem, SecurityStack, SignedInUser, startSecurityStack } from './security-stack';

interface Job {
  id: string;
  status: string;
  operation: string;
  owner_user_id: string | null;
  error_code: string | null;
  error_message: string | null;
  result: Record<string, unknown> | null;
}
interface Comment {
  author: string | null;
  body: string;
}

/** What the UniProt stand-in holds: more entries than any researcher may read. */
const UNIPROT_ROWS = 3000;

/**
 * A local server speaking the UniProt REST search protocol (`format=tsv`, `size`, cursor paging by
 * `Link: rel="next"`, `x-total-results`) over UNIPROT_ROWS entries that match any query; it records
 * every request, so a test sees how much of UniProt a job read.
 */
class FakeUniProt {
  readonly requests: URL[] = [];
  private server: LocalHttpServer | null = null;
  private baseUrl = '';

  async start(): Promise<string> {
    this.server = await startLocalHttpServer((req, res) => this.handle(req, res));
    this.baseUrl = this.server.url;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = null;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.baseUrl);
    this.requests.push(url);
    if (url.pathname !== '/uniprotkb/search') {
      res.writeHead(404).end();
      return;
    }
    const size = Number(url.searchParams.get('size') ?? '25');
    const cursor = url.searchParams.get('cursor');
    const offset = cursor === null ? 0 : Number(cursor);
    const count = Math.max(0, Math.min(size, UNIPROT_ROWS - offset));
    const rows = Array.from(
      { length: count },
      (_, i) => `X${String(offset + i).padStart(5, '0')}\tFUNCTION: test.`,
    );
    const headers: Record<string, string> = {
      'content-type': 'text/plain;format=tsv',
      'x-total-results': String(UNIPROT_ROWS),
    };
    if (offset + size < UNIPROT_ROWS) {
      const next = new URL(url.href);
      next.searchParams.set('cursor', String(offset + size));
      headers['link'] = `<${next.href}>; rel="next"`;
    }
    res.writeHead(200, headers).end(['Entry\tFunction [CC]', ...rows, ''].join('\n'));
  }
}

const ping = (payload: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  operation: 'ping',
  queue_name: 'svc.ping',
  payload: { message: randomUUID(), ...payload },
  ...extra,
});

const fetchMetadata = (payload: Record<string, unknown>) => ({
  operation: 'fetch_uniprot_metadata',
  queue_name: 'svc.jobs',
  payload,
});

function expectProblem(res: HttpResult<Problem>, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(res.body.status).toBe(status);
}

describe('abuse of jobs: the test queue, UniProt crawls, existence oracles, comment authors (findings 4, 6, 10, 11)', () => {
  const uniprot = new FakeUniProt();
  let stack: SecurityStack;
  let alice: SignedInUser;
  let bob: SignedInUser;
  let operator: SignedInUser;

  beforeAll(async () => {
    const base = await uniprot.start();
    stack = await startSecurityStack('abuse_jobs', {
      workers: ['ingestion-worker'],
      env: { SVC_RATELIMIT_POST_JOBS: '1000/minute', SVC_UNIPROT_BASE_URL: base },
    });
    [alice, bob, operator] = await Promise.all([
      createUser(stack, 'researcher'),
      createUser(stack, 'researcher'),
      createUser(stack, 'operator'),
    ]);
  });

  afterAll(async () => {
    await stack?.close();
    await uniprot.stop();
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

  const eventsOf = async (id: string): Promise<string[]> =>
    (await stack.api.get<{ event: string }[]>(`/v1/jobs/${id}/events`, operator.headers)).body.map(
      (e) => e.event,
    );

  /** A job row written straight to the database for `who`, as if an older gateway had accepted it. */
  const storedJob = async (who: SignedInUser, job: Pick<NewJob, 'operation' | 'queueName' | 'payload'>) => {
    const row = await new JobRepository(stack.gateway.infra.db).createQueued({
      ...job,
      meta: {},
      description: null,
      tags: [],
      dedupKey: null,
      dispatchDeadlineSeconds: 60,
      submitter: {
        ownerUserId: who.id,
        role: who.role,
        via: 'api',
        quotaKey: who.id,
        visibility: 'owner',
        expiresInDays: null,
      },
    });
    await stack.gateway.infra.broker.publishJob(job.queueName, { job_id: row.id });
    return row.id;
  };

  /** An operator's long ping, running: the svc.ping queue holds every later ping QUEUED until it ends. */
  const holdPingQueue = async (): Promise<string> => {
    const res = await stack.api.post<{ id: string }>(
      '/v1/jobs',
      ping({ sleep_seconds: 600 }),
      operator.headers,
    );
    expect(res.status).toBe(201);
    await waitForJob(res.body.id, ['RUNNING']);
    return res.body.id;
  };

  const cancel = async (id: string, who: SignedInUser = operator): Promise<void> => {
    expect((await stack.api.post(`/v1/jobs/${id}/cancel`, undefined, who.headers)).status).toBe(200);
  };

  it("finding 4: a researcher's ping sleeps at most 5 s and never fails on purpose, directly or as a follow-up; the worker checks again", async () => {
    // The worker checks with the role recorded on the job: a stored researcher ping over the cap, or
    // asked to fail, fails with forbidden_payload before it sleeps.
    for (const payload of [{ sleep_seconds: 3600 }, { fail: true }]) {
      const id = await storedJob(alice, { operation: 'ping', queueName: 'svc.ping', payload });
      const done = await waitForJob(id, ['SUCCEEDED', 'FAILED']);
      expect(done).toMatchObject({ status: 'FAILED', error_code: 'forbidden_payload' });
      expect(await eventsOf(id)).not.toContain('ping.received');
    }

    const before = await jobsOf(operator, 'operation=ping&include_children=true&limit=500');
    const slow = await stack.api.post<Problem>('/v1/jobs', ping({ sleep_seconds: 3600 }), alice.headers);
    expectProblem(slow, 422);
    expect(slow.body.errors).toEqual([
      { path: 'payload.sleep_seconds', message: expect.stringMatching(/at most 5 below role operator/) },
    ]);
    expectProblem(
      await stack.api.post<Problem>('/v1/jobs', ping({ sleep_seconds: 5.5 }), alice.headers),
      422,
    );
    const failing = await stack.api.post<Problem>('/v1/jobs', ping({ fail: true }), alice.headers);
    expectProblem(failing, 403);
    expect(failing.body.detail).toMatch(/needs role operator/);
    // A follow-up is checked as if queued directly.
    const then = (payload: Record<string, unknown>) =>
      ping({}, { meta: { then: { operation: 'ping', queue_name: 'svc.ping', payload } } });
    expectProblem(
      await stack.api.post<Problem>('/v1/jobs', then({ sleep_seconds: 3600 }), alice.headers),
      422,
    );
    expectProblem(await stack.api.post<Problem>('/v1/jobs', then({ fail: true }), alice.headers), 403);
    // Nothing was queued.
    const after = await jobsOf(operator, 'operation=ping&include_children=true&limit=500');
    expect(after.length).toBe(before.length);

    // Within the cap a researcher's ping runs; operators keep the whole probe.
    const short = await stack.api.post<{ id: string }>('/v1/jobs', ping({ sleep_seconds: 1 }), alice.headers);
    expect(short.status).toBe(201);
    expect((await waitForJob(short.body.id, ['SUCCEEDED', 'FAILED'])).status).toBe('SUCCEEDED');
    const failed = await stack.api.post<{ id: string }>('/v1/jobs', ping({ fail: true }), operator.headers);
    expect(failed.status).toBe(201);
    expect(await waitForJob(failed.body.id, ['SUCCEEDED', 'FAILED'])).toMatchObject({
      error_code: 'ping_failed',
    });
    const long = await holdPingQueue();
    await cancel(long);
  });

  it('finding 6: a researcher cannot queue an unbounded UniProt crawl or rewrite reference proteins; the worker stops at the cap and says so', async () => {
    const fetchJobs = 'operation=fetch_uniprot_metadata&include_children=true&limit=500';
    const before = await jobsOf(operator, fetchJobs);
    const requestsBefore = uniprot.requests.length;
    const refused: [string, unknown, number, string][] = [
      [
        '/v1/proteins/fetch-metadata',
        { search_criteria: '*', page_size: 500, max_pages: 100 },
        422,
        'max_pages',
      ],
      // 3 pages of 500 rows: within the page cap (5), over the row cap (1000).
      [
        '/v1/proteins/fetch-metadata',
        { search_criteria: '*', page_size: 500, max_pages: 3 },
        422,
        'max_pages',
      ],
      [
        '/v1/proteins/fetch-metadata',
        { search_criteria: '*', update_protein_core: true },
        403,
        'update_protein_core',
      ],
      ['/v1/jobs', fetchMetadata({ search_criteria: '*', max_pages: 100 }), 422, 'max_pages'],
      [
        '/v1/jobs',
        fetchMetadata({ search_criteria: '*', update_protein_core: true }),
        403,
        'update_protein_core',
      ],
      [
        '/v1/jobs',
        ping({}, { meta: { then: fetchMetadata({ search_criteria: '*', update_protein_core: true }) } }),
        403,
        'update_protein_core',
      ],
    ];
    for (const [path, body, status, field] of refused) {
      const res = await stack.api.post<Problem>(path, body, alice.headers);
      expectProblem(res, status);
      expect(res.body.errors?.map((e) => e.path)).toEqual([`payload.${field}`]);
    }
    expect(await jobsOf(operator, fetchJobs)).toHaveLength(before.length);
    expect(uniprot.requests.length).toBe(requestsBefore);

    // The worker checks with the role on the job: a stored researcher job that rewrites proteins
    // fails before it asks UniProt anything.
    const stored = await storedJob(alice, {
      operation: 'fetch_uniprot_metadata',
      queueName: 'svc.jobs',
      payload: { search_criteria: '*', update_protein_core: true },
    });
    expect(await waitForJob(stored, ['SUCCEEDED', 'FAILED'])).toMatchObject({
      error_code: 'forbidden_payload',
    });
    expect(uniprot.requests.length).toBe(requestsBefore);

    // What a researcher may still ask for, all of UniProt, stops at the researcher's cap and says so.
    const crawl = await stack.api.post<{ id: string }>(
      '/v1/proteins/fetch-metadata',
      { search_criteria: '*', page_size: 500 },
      alice.headers,
    );
    expect(crawl.status).toBe(201);
    const capped = await waitForJob(crawl.body.id, ['SUCCEEDED', 'FAILED']);
    expect(capped.error_message).toBeNull();
    expect(capped.result).toEqual({
      pages: 2,
      entries: 1000,
      proteins_updated: 0,
      problems: 0,
      max_rows: 1000,
      max_pages: 5,
      stopped_at_cap: true,
    });
    expect(uniprot.requests.length - requestsBefore).toBe(2);
    expect(await eventsOf(crawl.body.id)).toContain('fetch_uniprot_metadata.capped');

    // Operators have a far higher cap, and may refresh protein rows.
    const fromOperator = await stack.api.post<{ id: string }>(
      '/v1/proteins/fetch-metadata',
      { search_criteria: '*', page_size: 500, max_pages: 3, update_protein_core: true },
      operator.headers,
    );
    expect(fromOperator.status).toBe(201);
    expect((await waitForJob(fromOperator.body.id, ['SUCCEEDED', 'FAILED'])).result).toMatchObject({
      pages: 3,
      entries: 1500,
      max_rows: 1500,
      max_pages: 3,
      stopped_at_cap: true,
    });
    const overOperatorCap = await stack.api.post<Problem>(
      '/v1/proteins/fetch-metadata',
      { search_criteria: '*', max_pages: 20_000 },
      operator.headers,
    );
    expectProblem(overOperatorCap, 422);
  });

  it("finding 10: a duplicate is the submitter's own job only, and experiment-run names are unique per owner", async () => {
    const hold = await holdPingQueue();
    try {
      const body = ping({ message: `the same for everyone ${randomUUID()}` });
      const mine = await stack.api.post<{ id: string }>('/v1/jobs', body, alice.headers);
      expect(mine.status).toBe(201);
      // Bob's identical request says nothing of Alice's private job: it is queued as his own.
      const theirs = await stack.api.post<{ id: string }>('/v1/jobs', body, bob.headers);
      expect(theirs.status).toBe(201);
      expect(theirs.body.id).not.toBe(mine.body.id);
      // Each one's own duplicate is still refused, naming their own job.
      const again = await stack.api.post<Problem>('/v1/jobs', body, alice.headers);
      expectProblem(again, 409);
      expect(again.body.existing_job_id).toBe(mine.body.id);
      const bobAgain = await stack.api.post<Problem>('/v1/jobs', body, bob.headers);
      expectProblem(bobAgain, 409);
      expect(bobAgain.body.existing_job_id).toBe(theirs.body.id);
      await cancel(mine.body.id, alice);
      await cancel(theirs.body.id, bob);
    } finally {
      await cancel(hold);
    }

    const name = `shared-${randomUUID()}`;
    const run = (who: SignedInUser) => stack.api.post<Problem>('/v1/experiment-runs', { name }, who.headers);
    expect((await run(alice)).status).toBe(201);
    // A name another account uses is no 409 (it used to tell that the name exists).
    expect((await run(bob)).status).toBe(201);
    expectProblem(await run(alice), 409);
  });

  it("finding 11: a comment's author is the signed-in account's username; an author in the body is refused", async () => {
    const job = await stack.api.post<{ id: string }>('/v1/jobs', ping(), alice.headers);
    expect(job.status).toBe(201);
    const path = `/v1/jobs/${job.body.id}/comments`;
    const forged = await stack.api.post<Problem>(
      path,
      { body: 'signed, the admin', author: 'admin' },
      alice.headers,
    );
    expectProblem(forged, 422);
    expect(forged.body.errors?.map((e) => e.path)).toEqual(['author']);

    const usernameOf = async (who: SignedInUser) =>
      (await stack.api.get<{ username: string }>('/v1/auth/me', who.headers)).body.username;
    const own = await stack.api.post<Comment>(path, { body: 'looks right' }, alice.headers);
    expect(own.status).toBe(201);
    expect(own.body.author).toBe(await usernameOf(alice));
    const staff = await stack.api.post<Comment>(path, { body: 'checked' }, operator.headers);
    expect(staff.status).toBe(201);
    expect(staff.body.author).toBe(await usernameOf(operator));
    const listed = await stack.api.get<Comment[]>(path, alice.headers);
    expect(listed.body.map((c) => [c.author, c.body])).toEqual([
      [own.body.author, 'looks right'],
      [staff.body.author, 'checked'],
    ]);
  });
});
