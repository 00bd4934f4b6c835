import { randomUUID } from 'node:crypto';
import { JobRepository } from '@svc/persistence';
import { AppProcess, HttpClient, spawnApp, testConfig, waitFor } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

interface Job {
  id: string;
  status: string;
  operation: string;
  payload: Record<string, unknown>;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  parent_job_id: string | null;
  result: Record<string, unknown> | null;
  progress_current: number | null;
  progress_total: number | null;
  tags: string[];
  description: string | null;
  meta: Record<string, unknown>;
}
interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: { path: string; message: string }[];
  existing_job_id?: string;
}

const PREFIXES = ['/v1', ''] as const;

describe('Jobs API over HTTP (real PostgreSQL and RabbitMQ)', () => {
  let gateway: Gateway;
  let worker: AppProcess;
  let api: HttpClient;

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
    worker = await spawnApp('ingestion-worker');
    await worker.waitForLog('worker started');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
  });

  const ping = (payload: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    operation: 'ping',
    queue_name: 'svc.ping',
    payload: { message: randomUUID(), ...payload },
    ...extra,
  });

  /**
   * A QUEUED job that no worker will take: a prediction row inserted directly (no prediction worker
   * runs in this suite, and nothing publishes it before its hour-long dispatch deadline).
   */
  const parkedJob = async (): Promise<string> => {
    const row = await new JobRepository(gateway.infra.db).createQueued({
      operation: 'predict_go_terms',
      queueName: 'svc.predictions',
      payload: {
        embedding_config_id: randomUUID(),
        annotation_set_id: randomUUID(),
        ontology_snapshot_id: randomUUID(),
      },
      meta: {},
      description: null,
      tags: [],
      dedupKey: null,
      dispatchDeadlineSeconds: 3600,
    });
    return row.id;
  };

  const waitForStatus = (prefix: string, id: string, status: string, timeoutMs = 20_000): Promise<Job> =>
    waitFor(
      async () => {
        const res = await api.get<Job>(`${prefix}/jobs/${id}`);
        return res.body.status === status ? res.body : undefined;
      },
      { timeoutMs, what: `job ${id} to become ${status}` },
    );

  describe.each(PREFIXES)('under "%s"', (prefix) => {
    it('POST /jobs queues a ping that a worker runs to SUCCEEDED', async () => {
      const res = await api.post<{ id: string; status: string }>(
        `${prefix}/jobs`,
        ping({}, { tags: ['probe'], description: 'smoke', meta: { by: 'test' } }),
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'queued' });
      const job = await waitForStatus(prefix, res.body.id, 'SUCCEEDED');
      expect(job).toMatchObject({
        operation: 'ping',
        tags: ['probe'],
        description: 'smoke',
        meta: { by: 'test' },
      });
      expect(job.result).toMatchObject({ pong: true });

      const events = await api.get<{ event: string; ts: string }[]>(`${prefix}/jobs/${res.body.id}/events`);
      expect(events.status).toBe(200);
      const names = events.body.map((e) => e.event);
      expect(names).toEqual(['job.succeeded', 'ping.pong', 'ping.received', 'job.started', 'job.created']);
      const times = events.body.map((e) => e.ts);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('a duplicate of an active job gives 409 with the existing job id', async () => {
      const body = ping({ sleep_seconds: 30 });
      const first = await api.post<{ id: string }>(`${prefix}/jobs`, body);
      expect(first.status).toBe(201);
      const second = await api.post<Problem>(`${prefix}/jobs`, body);
      expect(second.status).toBe(409);
      expect(second.headers.get('content-type')).toContain('application/problem+json');
      expect(second.body).toMatchObject({
        type: '/problems/duplicate-job',
        status: 409,
        existing_job_id: first.body.id,
      });
      const cancelled = await api.post<Job>(`${prefix}/jobs/${first.body.id}/cancel`);
      expect(cancelled.body.status).toBe('CANCELLED');
      // Once the first is no longer active the same submission is accepted again.
      const third = await api.post<{ id: string }>(`${prefix}/jobs`, body);
      expect(third.status).toBe(201);
      await api.post(`${prefix}/jobs/${third.body.id}/cancel`);
    });

    it('rejects bad bodies with 422 problem+json listing field paths', async () => {
      const cases: [unknown, string[]][] = [
        [{ operation: 'no_such_operation', queue_name: 'svc.ping' }, ['operation']],
        [{ operation: 'ping', queue_name: 'svc.ping', surprise: 1 }, ['surprise']],
        [{ queue_name: 'svc.ping' }, ['operation']],
        [{ operation: '   ', queue_name: ' ' }, ['operation', 'queue_name']],
        [
          { operation: 'ping', queue_name: 'svc.ping', payload: [1], tags: 'x', description: 5 },
          ['payload', 'tags', 'description'],
        ],
        [[1, 2], ['']],
      ];
      for (const [body, paths] of cases) {
        const res = await api.post<Problem>(`${prefix}/jobs`, body);
        expect(res.status).toBe(422);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(res.body.type).toBe('/problems/validation-error');
        expect([...new Set(res.body.errors?.map((e) => e.path))].sort()).toEqual([...paths].sort());
      }
    });

    it('answers malformed JSON with 400, other media types with 415, unknown routes with 404', async () => {
      const malformed = await api.post<Problem>(`${prefix}/jobs`, '{"operation": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({
        type: '/problems/bad-request',
        status: 400,
        instance: `${prefix}/jobs`,
      });
      const text = await api.request<Problem>('POST', `${prefix}/jobs`, 'hello', {
        'content-type': 'text/plain',
      });
      expect(text.status).toBe(415);
      expect(text.body.type).toBe('/problems/unsupported-media-type');
      const unknown = await api.get<Problem>(`${prefix}/no-such-route`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toContain('application/problem+json');
      expect(unknown.body.type).toBe('/problems/not-found');
    });

    it('GET /jobs/{id} gives 404 problem for unknown and malformed ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await api.get<Problem>(`${prefix}/jobs/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({
          type: '/problems/not-found',
          title: 'Not Found',
          detail: 'Job not found',
        });
      }
      for (const path of ['events', 'comments']) {
        expect((await api.get(`${prefix}/jobs/${randomUUID()}/${path}`)).status).toBe(404);
      }
      expect((await api.post(`${prefix}/jobs/${randomUUID()}/cancel`)).status).toBe(404);
      expect((await api.delete(`${prefix}/jobs/${randomUUID()}`)).status).toBe(404);
      expect((await api.post(`${prefix}/jobs/${randomUUID()}/comments`, { body: 'x' })).status).toBe(404);
    });

    it('a ping asked to fail ends FAILED with ping_failed; a bad payload is refused with 422', async () => {
      const failing = await api.post<{ id: string }>(`${prefix}/jobs`, ping({ fail: true }));
      const failed = await waitForStatus(prefix, failing.body.id, 'FAILED');
      expect(failed.error_code).toBe('ping_failed');
      expect(failed.error_message).toBeTruthy();
      // A payload that can never run is refused at dispatch (422), nothing is queued.
      const invalid = await api.post<Problem>(
        `${prefix}/jobs`,
        ping({ sleep_seconds: 'soon', unknown_key: 1 }),
      );
      expect(invalid.status).toBe(422);
      expect(invalid.body.errors?.[0]?.path).toBe('payload');
      expect(invalid.body.detail).toMatch(/sleep_seconds/);
      expect(invalid.body.detail).toMatch(/unknown_key/);
    });
  });

  it('work naming rows that do not exist is refused at dispatch with 404, nothing queued', async () => {
    const before = await api.get<Job[]>('/v1/jobs?limit=500&include_children=true');
    const predict = await api.post<Problem>('/v1/jobs', {
      operation: 'predict_go_terms',
      queue_name: 'svc.predictions',
      payload: {
        embedding_config_id: randomUUID(),
        annotation_set_id: randomUUID(),
        ontology_snapshot_id: randomUUID(),
      },
    });
    expect(predict.status).toBe(404);
    expect(predict.body.detail).toMatch(/^(Embedding config|Annotation set|Ontology snapshot) not found$/);
    const load = await api.post<Problem>('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: randomUUID().toUpperCase(),
      gaf_url: 'https://example.org/goa.gaf',
      source_version: '1',
    });
    expect(load.status).toBe(404);
    expect(load.body.detail).toBe('Ontology snapshot not found');
    const after = await api.get<Job[]>('/v1/jobs?limit=500&include_children=true');
    expect(after.body.length).toBe(before.body.length);
  });

  it('cancel: QUEUED and RUNNING become CANCELLED (children too); SUCCEEDED is returned unchanged', async () => {
    const queued = { body: { id: await parkedJob() } };
    const repo = new JobRepository(gateway.infra.db);
    const child = await repo.createQueued({
      operation: 'ping',
      queueName: 'svc.training',
      payload: { message: randomUUID() },
      meta: {},
      description: null,
      tags: [],
      dedupKey: null,
      parentJobId: queued.body.id,
      dispatchDeadlineSeconds: 3600,
    });
    const cancelled = await api.post<Job>('/v1/jobs/' + queued.body.id + '/cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect((await api.get<Job>(`/v1/jobs/${child.id}`)).body.status).toBe('CANCELLED');

    const running = await api.post<{ id: string }>('/v1/jobs', ping({ sleep_seconds: 60 }));
    await waitForStatus('/v1', running.body.id, 'RUNNING');
    const stop = await api.post<Job>(`/v1/jobs/${running.body.id}/cancel`);
    expect(stop.body.status).toBe('CANCELLED');
    // The worker notices within one heartbeat (1 s here) and records that it stopped.
    await waitFor(
      async () => {
        const events = await api.get<{ event: string }[]>(`/v1/jobs/${running.body.id}/events`);
        return events.body.some((e) => e.event === 'job.cancel_observed') ? true : undefined;
      },
      { timeoutMs: 3_000, what: 'the worker to observe the cancel' },
    );
    expect((await api.get<Job>(`/v1/jobs/${running.body.id}`)).body.status).toBe('CANCELLED');

    const done = await api.post<{ id: string }>('/v1/jobs', ping({}));
    const succeeded = await waitForStatus('/v1', done.body.id, 'SUCCEEDED');
    const again = await api.post<Job>(`/v1/jobs/${done.body.id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(succeeded);
  });

  it('DELETE: 409 while RUNNING; otherwise removes the job, its events and comments', async () => {
    const running = await api.post<{ id: string }>('/jobs', ping({ sleep_seconds: 60 }));
    await waitForStatus('', running.body.id, 'RUNNING');
    const conflict = await api.delete<Problem>(`/jobs/${running.body.id}`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.type).toBe('/problems/conflict');
    await api.post(`/jobs/${running.body.id}/cancel`);
    await api.post(`/jobs/${running.body.id}/comments`, { body: 'stopped on purpose' });
    const deleted = await api.delete<Record<string, unknown>>(`/jobs/${running.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: running.body.id, deleted: true, comments_deleted: 1 });
    expect(deleted.body['events_deleted']).toBeGreaterThanOrEqual(3);
    expect((await api.get(`/jobs/${running.body.id}`)).status).toBe(404);
    const leftovers = await gateway.infra.db.query(
      'SELECT (SELECT count(*) FROM job_event WHERE job_id = $1)::int AS events, (SELECT count(*) FROM job_comment WHERE job_id = $1)::int AS comments',
      [running.body.id],
    );
    expect(leftovers[0]).toEqual({ events: 0, comments: 0 });
  });

  it('GET /jobs filters by status and operation, hides children, pages with after, bounds limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(await parkedJob());
    }
    const repo = new JobRepository(gateway.infra.db);
    const child = await repo.createQueued({
      operation: 'ping',
      queueName: 'svc.training',
      payload: { message: randomUUID() },
      meta: {},
      description: null,
      tags: [],
      dedupKey: null,
      parentJobId: ids[0],
      dispatchDeadlineSeconds: 3600,
    });
    const queued = await api.get<Job[]>('/v1/jobs?status=QUEUED&operation=predict_go_terms&limit=500');
    expect(queued.status).toBe(200);
    expect(queued.body.every((j) => j.status === 'QUEUED' && j.operation === 'predict_go_terms')).toBe(true);
    expect(queued.body.map((j) => j.id)).toEqual(expect.arrayContaining(ids));
    expect(queued.body.map((j) => j.id)).not.toContain(child.id);
    // The status is matched in any case: POST /jobs answers `status: "queued"`.
    const lower = await api.get<Job[]>('/v1/jobs?status=queued&operation=predict_go_terms&limit=500');
    expect(lower.status).toBe(200);
    expect(lower.body.map((j) => j.id)).toEqual(queued.body.map((j) => j.id));
    const created = queued.body.map((j) => j.created_at);
    expect([...created].sort().reverse()).toEqual(created);

    const withChildren = await api.get<Job[]>('/v1/jobs?include_children=true&limit=500');
    expect(withChildren.body.map((j) => j.id)).toContain(child.id);
    const byParent = await api.get<Job[]>(`/v1/jobs?parent_job_id=${ids[0]}`);
    expect(byParent.body.map((j) => j.id)).toEqual([child.id]);

    // Paging: one row at a time, feeding back the last created_at, walks the three jobs newest first.
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 3; i += 1) {
      const page = await api.get<Job[]>(
        `/v1/jobs?status=QUEUED&limit=1${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      );
      expect(page.body).toHaveLength(1);
      seen.push(page.body[0]!.id);
      after = page.body[0]!.created_at;
    }
    expect(seen).toEqual([...ids].reverse());

    const defaultList = await api.get<Job[]>('/v1/jobs');
    expect(defaultList.body.length).toBeLessThanOrEqual(50);
    for (const bad of [
      'limit=0',
      'limit=501',
      'limit=abc',
      'status=DONE',
      'include_children=maybe',
      'parent_job_id=x',
      'after=yesterday',
    ]) {
      const res = await api.get<Problem>(`/v1/jobs?${bad}`);
      expect(res.status).toBe(422);
      expect(res.body.errors?.[0]?.path).toBe(bad.split('=')[0]);
    }
    for (const id of [...ids, child.id]) await api.post(`/v1/jobs/${id}/cancel`);
  });

  it('events: newest first, default limit 200, at most 2000, after is strictly older', async () => {
    const job = await api.post<{ id: string }>('/v1/jobs', ping({}));
    await waitForStatus('/v1', job.body.id, 'SUCCEEDED');
    const all = await api.get<{ ts: string; event: string }[]>(`/v1/jobs/${job.body.id}/events`);
    const two = await api.get<{ ts: string }[]>(`/v1/jobs/${job.body.id}/events?limit=2`);
    expect(two.body).toEqual(all.body.slice(0, 2));
    const older = await api.get<{ ts: string }[]>(
      `/v1/jobs/${job.body.id}/events?after=${encodeURIComponent(all.body[1]!.ts)}`,
    );
    // Strictly older: events sharing the cursor's timestamp (the embedded database's clock ticks in
    // milliseconds) are not repeated.
    expect(older.body).toEqual(all.body.filter((e) => e.ts < all.body[1]!.ts));
    expect(older.body.length).toBeGreaterThan(0);
    expect((await api.get(`/v1/jobs/${job.body.id}/events?limit=2000`)).status).toBe(200);
    expect((await api.get(`/v1/jobs/${job.body.id}/events?limit=2001`)).status).toBe(422);
  });

  it('comments: body required after stripping, oldest first, cap 2000, cascade on delete', async () => {
    const job = await api.post<{ id: string }>('/v1/jobs', ping({}));
    await waitForStatus('/v1', job.body.id, 'SUCCEEDED');
    // The server records the author (the signed-in account; none with the credential gate off).
    const first = await api.post<{ id: number; body: string; author: string | null; created_at: string }>(
      `/v1/jobs/${job.body.id}/comments`,
      { body: '  **first** finding  ' },
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ body: '**first** finding', author: null, job_id: job.body.id });
    await api.post(`/jobs/${job.body.id}/comments`, { body: 'second' });
    for (const bad of [
      { body: '   ' },
      { body: '' },
      {},
      { body: 'x', extra: true },
      { body: 5 },
      { body: 'x', author: 'analyst' },
    ]) {
      const res = await api.post<Problem>(`/v1/jobs/${job.body.id}/comments`, bad);
      expect(res.status).toBe(422);
      expect(res.body.type).toBe('/problems/validation-error');
    }
    const list = await api.get<{ body: string; author: string | null }[]>(`/v1/jobs/${job.body.id}/comments`);
    expect(list.body.map((c) => c.body)).toEqual(['**first** finding', 'second']);
    expect(list.body[1]!.author).toBeNull();
    const after = await api.get<{ body: string }[]>(
      `/v1/jobs/${job.body.id}/comments?after=${encodeURIComponent(first.body.created_at)}`,
    );
    expect(after.body.map((c) => c.body)).toEqual(['second']);
    expect((await api.get(`/v1/jobs/${job.body.id}/comments?limit=2000`)).status).toBe(200);
    expect((await api.get(`/v1/jobs/${job.body.id}/comments?limit=2001`)).status).toBe(422);
    await api.delete(`/v1/jobs/${job.body.id}`);
    const [row] = await gateway.infra.db.query(
      'SELECT count(*)::int AS n FROM job_comment WHERE job_id = $1',
      [job.body.id],
    );
    expect(row).toEqual({ n: 0 });
  });

  it('100 concurrent identical submissions create exactly one job; 99 get 409 with its id', async () => {
    // The first one runs for a while: a RUNNING job blocks identical submissions as a QUEUED one does.
    const body = ping({ sleep_seconds: 30 });
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        api.post<{ id?: string; existing_job_id?: string }>('/v1/jobs', body),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    const conflicts = responses.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(conflicts).toHaveLength(99);
    const id = created[0]!.body.id;
    expect(new Set(conflicts.map((r) => r.body.existing_job_id))).toEqual(new Set([id]));
    const [row] = await gateway.infra.db.query(
      `SELECT count(*)::int AS n FROM job WHERE payload = $1::jsonb`,
      [JSON.stringify(body.payload)],
    );
    expect(row).toEqual({ n: 1 });
    await api.post(`/v1/jobs/${id}/cancel`);
  });
});
