import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

interface Pulls {
  fetched_at: number;
  cached: boolean;
  repos_queried: number;
  pulls: { repo: string; number: number; author: string | null; labels: string[] }[];
  rate_limit_remaining: number | null;
  errors: Record<string, string>;
}

describe('/stack and /stack/pulls against a local code-host server', () => {
  let gateway: Gateway;
  let api: HttpClient;
  let codeHost: Server;
  let dir: string;
  const requests: { url: string; authorization: string | undefined }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-stack-'));
    codeHost = createServer((req, res) => {
      requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
      if (req.url?.startsWith('/repos/lab/service/pulls')) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '4999' });
        res.end(
          JSON.stringify([
            {
              number: 12,
              title: 'GEMM search',
              html_url: 'http://h/12',
              state: 'open',
              draft: false,
              user: { login: 'ada' },
              labels: [{ name: 'perf' }],
              created_at: 'a',
              updated_at: 'b',
            },
          ]),
        );
      } else {
        res.writeHead(404, { 'content-type': 'application/json', 'x-ratelimit-remaining': '4998' });
        res.end('{"message":"Not Found"}');
      }
    });
    await new Promise<void>((ready) => codeHost.listen(0, '127.0.0.1', ready));
    const stackFile = join(dir, 'stack.yaml');
    writeFileSync(
      stackFile,
      'repos:\n  - {name: service, slug: lab/service, role: core, summary: The API}\n  - {name: gone, slug: lab/gone, role: plugin}\n',
    );
    gateway = await createGateway(
      testConfig({
        SVC_STACK_FILE: stackFile,
        SVC_THESIS_PDF: join(dir, 'thesis.pdf'),
        SVC_CODEHOST_API_URL: `http://127.0.0.1:${(codeHost.address() as AddressInfo).port}`,
        SVC_CODEHOST_TOKEN: 'token-123',
      }),
    );
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await new Promise((done) => codeHost.close(done));
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the stack; the thesis link appears once the file exists', async () => {
    const before = await api.get<{
      repos: { name: string; role_label: string }[];
      thesis_pdf_url: string | null;
    }>('/v1/stack');
    expect(before.body.repos.map((r) => [r.name, r.role_label])).toEqual([
      ['service', 'Core service'],
      ['gone', 'Plugin'],
    ]);
    expect(before.body.thesis_pdf_url).toBeNull();
    expect((await api.get('/v1/stack/thesis.pdf')).status).toBe(404);
    writeFileSync(join(dir, 'thesis.pdf'), '%PDF-1.4\n');
    const after = await api.get<{ thesis_pdf_url: string | null }>('/v1/stack');
    expect(after.body.thesis_pdf_url).toBe('/v1/stack/thesis.pdf');
    const pdf = await api.get('/v1/stack/thesis.pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
  });

  it('collects open pulls per repo with per-repo errors and the rate limit; cached for 5 minutes', async () => {
    const first = await api.get<Pulls>('/v1/stack/pulls');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ cached: false, repos_queried: 2, rate_limit_remaining: 4998 });
    expect(first.body.pulls).toEqual([
      expect.objectContaining({ repo: 'lab/service', number: 12, author: 'ada', labels: ['perf'] }),
    ]);
    expect(Object.keys(first.body.errors)).toEqual(['lab/gone']);
    expect(requests.every((r) => r.authorization === 'Bearer token-123')).toBe(true);
    const calls = requests.length;
    const second = await api.get<Pulls>('/v1/stack/pulls');
    expect(second.body.cached).toBe(true);
    expect(second.body.fetched_at).toBe(first.body.fetched_at);
    expect(requests.length).toBe(calls);
  });
});
