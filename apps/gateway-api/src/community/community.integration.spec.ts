import { HttpClient, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

describe('support and showcase over HTTP', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('counts thumbs-up and lists recent comments, newest first; validates the body', async () => {
    const before = (await api.get<{ total: number }>('/v1/support')).body.total;
    expect((await api.post('/v1/support', {})).status).toBe(201);
    expect((await api.post('/v1/support', { comment: '  ' })).status).toBe(201);
    const commented = await api.post<{ comment: string }>('/v1/support', {
      comment: ' useful holdout tables ',
    });
    expect(commented.body.comment).toBe('useful holdout tables');
    expect((await api.post('/v1/support', { comment: 'x'.repeat(2001) })).status).toBe(422);
    expect((await api.post('/v1/support', { rating: 5 })).status).toBe(422);
    const after = await api.get<{ total: number; recent_comments: { comment: string }[] }>('/support');
    expect(after.body.total).toBe(before + 3);
    expect(after.body.recent_comments[0]!.comment).toBe('useful holdout tables');
    expect(after.body.recent_comments.every((c) => c.comment !== null)).toBe(true);
  });

  it('showcase gives the platform counts and best results per task', async () => {
    const showcase = await api.get<{ counts: Record<string, number>; best_results: unknown[] }>(
      '/v1/showcase',
    );
    expect(showcase.status).toBe(200);
    for (const key of ['proteins', 'annotation_sets', 'prediction_sets', 'evaluation_results', 'rerankers'])
      expect(typeof showcase.body.counts[key]).toBe('number');
    expect(Array.isArray(showcase.body.best_results)).toBe(true);
  });
});
