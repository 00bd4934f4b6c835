import { randomUUID } from 'node:crypto';
import { freePort, HttpClient, testEnv } from '@svc/testing';
import { CLOSED_WHILE_SENDING, measureLargeBodies, sendLargeBody, startMeasuredApp } from './hostile-load';
import { createUser, Problem, SecurityStack, startSecurityStack } from './security-stack';

const MB = 1024 * 1024;

function nested(depth: number, leaf = '1'): string {
  return `{"email":${'['.repeat(depth)}${leaf}${']'.repeat(depth)},"password":"x"}`;
}

describe('request bodies are bounded before parsing and before the credential gate (authentication on)', () => {
  let stack: SecurityStack;
  let api: HttpClient;
  let researcher: HttpClient;
  let researcherCookie = '';

  beforeAll(async () => {
    stack = await startSecurityStack('bodies', { env: { SVC_FASTA_UPLOAD_LIMIT_BYTES: String(64 * 1024) } });
    api = stack.api;
    const user = await createUser(stack, 'researcher');
    researcherCookie = user.headers['cookie'] ?? '';
    researcher = api.withHeaders(user.headers);
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('finding 7: eight concurrent anonymous 49 MB JSON bodies answer 413 and the gateway grows by less than 50 MB', async () => {
    const port = await freePort();
    const gatewayProcess = await startMeasuredApp(
      'gateway-api',
      testEnv({ ...stack.env, SVC_PORT: String(port), SVC_LOG_LEVEL: 'info' }),
      'gateway listening',
    );
    try {
      const url = `http://127.0.0.1:${port}`;
      const { statuses, beforeBytes, peakBytes } = await measureLargeBodies(url, gatewayProcess.pid, 49 * MB);
      // Every body is refused: a 413, or (on a loaded machine) the connection closed while sending.
      expect(statuses.slice(0, 4)).toContain(413);
      for (const status of statuses) expect([413, CLOSED_WHILE_SENDING]).toContain(status);
      expect(peakBytes - beforeBytes).toBeLessThan(50 * MB);
      expect((await fetch(`${url}/health`)).status).toBe(200);
    } finally {
      gatewayProcess.stop();
    }
  });

  it('finding 7: a 10 MB job payload and a 20 MB experiment config are refused with 413 and never stored', async () => {
    const marker = randomUUID();
    const job = await researcher.post<Problem>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload: { message: marker, padding: 'x'.repeat(10 * MB) },
    });
    expect(job.status).toBe(413);
    expect(job.headers.get('content-type')).toContain('application/problem+json');
    expect(job.body.type).toBe('/problems/payload-too-large');
    const run = await researcher.post<Problem>('/v1/experiment-runs', {
      name: `run-${marker}`,
      config: { padding: 'x'.repeat(20 * MB) },
    });
    expect(run.status).toBe(413);
    const runs = await researcher.get<unknown[]>('/v1/experiment-runs?limit=500');
    expect(JSON.stringify(runs.body)).not.toContain(marker);
  });

  it('rule 7: an experiment config over job_payload_limit_bytes (inside the body limit) is refused with 413, on create and update', async () => {
    const name = `run-${randomUUID()}`;
    const big = { padding: 'x'.repeat(300 * 1024) };
    const created = await researcher.post<Problem>('/v1/experiment-runs', { name, config: big });
    expect(created.status).toBe(413);
    expect(created.body.detail).toContain('config');
    const small = await researcher.post<{ id: string }>('/v1/experiment-runs', { name, config: { a: 1 } });
    expect(small.status).toBe(201);
    const updated = await researcher.patch<Problem>(`/v1/experiment-runs/${small.body.id}`, { config: big });
    expect(updated.status).toBe(413);
    const stored = await researcher.get<{ config: Record<string, unknown> }>(
      `/v1/experiment-runs/${small.body.id}`,
    );
    expect(stored.body.config).toEqual({ a: 1 });
  });

  it('rule 7: a body over json_body_limit_bytes is refused with 413 before any credential check', async () => {
    const forged = { authorization: `ApiKey ${randomUUID().replace(/-/g, '')}` };
    const status = await sendLargeBody(stack.gateway.url, '/v1/jobs', {
      size: 2 * MB,
      chunked: false,
      headers: forged,
    });
    expect(status).toBe(413);
    const chunked = await sendLargeBody(stack.gateway.url, '/v1/jobs', {
      size: 2 * MB,
      chunked: true,
      headers: forged,
    });
    expect([413, CLOSED_WHILE_SENDING]).toContain(chunked);
  });

  it('rule 7: JSON nested 3000 levels on anonymous login and signup answers 422, not 500; brackets inside strings do not count', async () => {
    for (const path of ['/v1/auth/login', '/v1/auth/signup']) {
      const deep = await api.post<Problem>(path, nested(3000));
      expect(deep.status).toBe(422);
      expect(deep.headers.get('content-type')).toContain('application/problem+json');
      expect(deep.body.detail).toContain('64');
      expect((await api.post(path, nested(65))).status).toBe(422);
    }
    const quoted = await api.post('/v1/auth/login', {
      email: 'nobody@svc.test',
      password: `${'['.repeat(400)}"\\"${'{'.repeat(400)}`,
    });
    expect(quoted.status).toBe(401);
    const shallow = await api.post<Problem>('/v1/auth/login', nested(60, '"nobody@svc.test"'));
    expect(shallow.status).toBe(422);
    expect(shallow.body.detail).not.toContain('nest');
  });

  it('rule 7: FASTA uploads are limited by fasta_upload_limit_bytes (413 beyond)', async () => {
    const fasta = `>P1 protein\n${'ACDEFGHIKLMNPQRSTVWY'.repeat(5000)}\n`;
    const form = new FormData();
    form.append('name', 'too big');
    form.append('file', new Blob([fasta]), 'big.fasta');
    const res = await fetch(`${stack.gateway.url}/v1/query-sets`, {
      method: 'POST',
      body: form,
      headers: { cookie: researcherCookie },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
