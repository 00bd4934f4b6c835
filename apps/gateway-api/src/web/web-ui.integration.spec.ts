import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

describe('the gateway serves the web dashboards beside the API', () => {
  let dir: string;
  let built: Gateway;
  let missing: Gateway;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-webdir-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>dashboards</title><script type="module" src="/assets/app-1a2b.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("dashboards");\n');
    built = await createGateway(testConfig(), { listen: true, webDir: dir });
    missing = await createGateway(testConfig(), { listen: true, webDir: join(dir, 'not-built') });
  });

  afterAll(async () => {
    await built?.close();
    await missing?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/ answers index.html with a same-origin content security policy; /assets/ the built files', async () => {
    const api = new HttpClient(built.url);
    const index = await api.get<string>('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(index.text).toContain('/assets/app-1a2b.js');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    const script = await api.get<string>('/assets/app-1a2b.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await api.get('/assets/unknown.js')).status).toBe(404);
  });

  it('the API keeps its /v1 routes and legacy root aliases', async () => {
    const api = new HttpClient(built.url);
    for (const path of ['/v1/jobs', '/jobs', '/v1/benchmark/matrix', '/benchmark/matrix']) {
      const res = await api.get(path);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: expect.stringContaining('application/json'),
      });
    }
    const unknown = await api.get('/no-such-page');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
  });

  it('without a build, / explains how to make one instead of failing', async () => {
    const api = new HttpClient(missing.url);
    const index = await api.get<string>('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(index.text).toContain('npm run build:web');
    expect((await api.get('/assets/app-1a2b.js')).status).toBe(404);
    expect((await api.get('/v1/jobs')).status).toBe(200);
  });
});
