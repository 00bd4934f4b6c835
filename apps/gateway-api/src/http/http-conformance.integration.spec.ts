import { randomUUID } from 'node:crypto';
import { HttpClient, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

describe('HTTP conformance: wrong methods and the documents under /v1', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it.each([
    ['DELETE', '/v1/jobs', 'GET, HEAD, POST'],
    ['PUT', `/v1/jobs/${randomUUID()}`, 'GET, HEAD, DELETE'],
    ['PATCH', '/jobs', 'GET, HEAD, POST'],
    ['POST', '/health', 'GET, HEAD'],
  ])('%s %s answers 405 problem+json with Allow: %s', async (method, path, allow) => {
    const res = await api.request<{ status: number; type: string }>(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.status).toBe(405);
  });

  it('an unknown path is still 404', async () => {
    expect((await api.request('DELETE', '/v1/no-such-thing')).status).toBe(404);
  });

  it('/v1/openapi.json and /v1/docs serve the same documents as the root', async () => {
    const root = await api.get<{ paths: Record<string, unknown> }>('/openapi.json');
    const v1 = await api.get<{ paths: Record<string, unknown> }>('/v1/openapi.json');
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual(root.body);
    const docs = await api.get('/v1/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger/i);
  });
});
