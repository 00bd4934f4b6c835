import { randomUUID } from 'node:crypto';
import { HttpClient, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

interface Run {
  id: string;
  name: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  findings: string | null;
  tags: string[];
  config: Record<string, unknown>;
}

describe('experiment runs over HTTP', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('creates planned runs; validates bodies; names are unique', async () => {
    const name = `  run-${randomUUID()}  `;
    const created = await api.post<Run>('/v1/experiment-runs', {
      name,
      hypothesis: 'k=10 beats k=5',
      tags: ['knn'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: name.trim(),
      status: 'planned',
      started_at: null,
      finished_at: null,
      tags: ['knn'],
      config: {},
    });
    expect((await api.post('/v1/experiment-runs', { name: name.trim() })).status).toBe(409);
    expect((await api.post('/v1/experiment-runs', { name: '   ' })).status).toBe(422);
    expect((await api.post('/v1/experiment-runs', { name: 'x', colour: 'red' })).status).toBe(422);
    expect((await api.get(`/experiment-runs/${created.body.id}`)).status).toBe(200);
  });

  it('stamps started_at and finished_at once; refuses moves back; omitted fields stay', async () => {
    const run = (
      await api.post<Run>('/v1/experiment-runs', { name: `stamps-${randomUUID()}`, config: { k: 5 } })
    ).body;
    const running = await api.patch<Run>(`/v1/experiment-runs/${run.id}`, { status: 'running' });
    expect(running.status).toBe(200);
    expect(running.body.started_at).not.toBeNull();
    const again = await api.patch<Run>(`/v1/experiment-runs/${run.id}`, {
      status: 'running',
      findings: 'so far so good',
    });
    expect(again.body.started_at).toBe(running.body.started_at);
    expect(again.body.config).toEqual({ k: 5 });
    expect((await api.patch(`/v1/experiment-runs/${run.id}`, { status: 'planned' })).status).toBe(409);
    const done = await api.patch<Run>(`/v1/experiment-runs/${run.id}`, { status: 'done' });
    expect(done.body.finished_at).not.toBeNull();
    expect(done.body.findings).toBe('so far so good');
    const corrected = await api.patch<Run>(`/v1/experiment-runs/${run.id}`, { status: 'abandoned' });
    expect(corrected.body.finished_at).toBe(done.body.finished_at);
    expect((await api.patch(`/v1/experiment-runs/${run.id}`, { status: 'running' })).status).toBe(409);
    expect((await api.patch(`/v1/experiment-runs/${run.id}`, { status: 'paused' })).status).toBe(422);
    const direct = (await api.post<Run>('/v1/experiment-runs', { name: `direct-${randomUUID()}` })).body;
    const finished = await api.patch<Run>(`/v1/experiment-runs/${direct.id}`, { status: 'done' });
    expect(finished.body).toMatchObject({ status: 'done', started_at: null });
    expect(finished.body.finished_at).not.toBeNull();
  });

  it('lists newest first with status, limit and after; deletes with 204; unknown ids 404', async () => {
    const names = [0, 1, 2].map((i) => `list-${i}-${randomUUID()}`);
    for (const name of names) await api.post('/v1/experiment-runs', { name });
    const page = await api.get<Run[]>('/v1/experiment-runs?limit=2&status=planned');
    expect(page.body).toHaveLength(2);
    expect(page.body.map((r) => r.name)).toEqual([names[2], names[1]]);
    const next = await api.get<Run[]>(
      `/v1/experiment-runs?limit=1&status=planned&after=${encodeURIComponent(page.body[1]!.created_at)}`,
    );
    expect(next.body.map((r) => r.name)).toEqual([names[0]]);
    expect((await api.get('/v1/experiment-runs?limit=0')).status).toBe(422);
    const id = page.body[0]!.id;
    expect((await api.delete(`/v1/experiment-runs/${id}`)).status).toBe(204);
    expect((await api.get(`/v1/experiment-runs/${id}`)).status).toBe(404);
    expect((await api.delete(`/v1/experiment-runs/${id}`)).status).toBe(404);
    expect((await api.patch(`/v1/experiment-runs/not-a-uuid`, { status: 'done' })).status).toBe(404);
  });
});
