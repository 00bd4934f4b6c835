import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_ROUTES, SvcApiError, SvcClient, SvcUnreachableError } from './svc-client';

interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
  components: { schemas: Record<string, { properties: Record<string, unknown> }> };
}

const contract = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8')) as OpenApi;

describe('SvcClient against docs/openapi.json', () => {
  it.each(CLIENT_ROUTES)('%s %s is in the contract', (method, path) => {
    expect(contract.paths[path]?.[method]).toBeDefined();
  });

  it('annotate sends the multipart body the contract declares', () => {
    expect(Object.keys(contract.paths['/v1/annotate']!['post']!.requestBody!.content)).toEqual([
      'multipart/form-data',
    ]);
  });

  it('annotate sends only fields the contract declares, donor_evidence when asked', async () => {
    const declared = Object.keys(
      (
        contract.paths['/v1/annotate']!['post']!.requestBody!.content['multipart/form-data'] as {
          schema: { properties: Record<string, unknown> };
        }
      ).schema.properties,
    );
    const sent: string[][] = [];
    const fake: typeof fetch = async (_url, init) => {
      sent.push([...(init?.body as FormData).keys()].sort());
      return new Response(JSON.stringify({ query_set_id: 'q', prediction_job_id: 'p' }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      });
    };
    const client = new SvcClient({ baseUrl: 'http://svc.test', fetch: fake });
    await client.annotate({ fasta: '>P1\nMKT\n', name: 'n', taxon: 9606, donorEvidence: 'all' });
    await client.annotate({ fasta: '>P1\nMKT\n' });
    expect(sent).toEqual([['donor_evidence', 'file', 'name', 'taxon'], ['file']]);
    for (const field of sent[0]!) expect(declared).toContain(field);
  });
});

describe('SvcClient requests and errors', () => {
  it('sends the API key and turns a problem answer into SvcApiError', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const fake: typeof fetch = async (url, init) => {
      seen.push({
        url: url instanceof Request ? url.url : url.toString(),
        headers: init?.headers as Record<string, string>,
      });
      return new Response(JSON.stringify({ title: 'Not Found', status: 404, detail: 'Job not found' }), {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
      });
    };
    const client = new SvcClient({ baseUrl: 'http://svc.test/', apiKey: 'k-1', fetch: fake });
    const failure = await client.job('abc').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SvcApiError);
    expect(failure).toMatchObject({ status: 404, problem: { detail: 'Job not found' } });
    expect(seen[0]).toMatchObject({ url: 'http://svc.test/v1/jobs/abc', headers: { 'x-api-key': 'k-1' } });
  });

  it('waits for a job through its states and reports progress', async () => {
    const states = ['QUEUED', 'RUNNING', 'SUCCEEDED'];
    const fake: typeof fetch = async () =>
      new Response(
        JSON.stringify({
          id: 'j',
          operation: 'x',
          status: states.shift(),
          progress_current: 1,
          progress_total: 2,
        }),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    const client = new SvcClient({ baseUrl: 'http://svc.test', fetch: fake });
    const seen: string[] = [];
    const job = await client.waitForJob('j', { intervalMs: 1, onProgress: (j) => seen.push(j.status) });
    expect(job.status).toBe('SUCCEEDED');
    expect(seen).toEqual(['QUEUED', 'RUNNING', 'SUCCEEDED']);
  });

  it('rides out a 503 and a dropped connection while waiting, but not a 404', async () => {
    const answers: (() => Response)[] = [
      () => new Response(JSON.stringify({ title: 'Service Unavailable', status: 503 }), { status: 503 }),
      () => {
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      },
      () =>
        new Response(JSON.stringify({ id: 'j', operation: 'x', status: 'SUCCEEDED' }), {
          headers: { 'content-type': 'application/json' },
        }),
    ];
    const client = new SvcClient({ baseUrl: 'http://svc.test', fetch: async () => answers.shift()!() });
    expect((await client.waitForJob('j', { intervalMs: 1 })).status).toBe('SUCCEEDED');
    const missing = new SvcClient({
      baseUrl: 'http://svc.test',
      fetch: async () => new Response(JSON.stringify({ title: 'Not Found', status: 404 }), { status: 404 }),
    });
    await expect(missing.waitForJob('j', { intervalMs: 1 })).rejects.toBeInstanceOf(SvcApiError);
  });

  it('names the URL and the cause when the service does not answer', async () => {
    const client = new SvcClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      },
    });
    const failure = await client.job('j').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SvcUnreachableError);
    expect((failure as Error).message).toBe('could not reach http://127.0.0.1:1/v1/jobs/j: ECONNREFUSED');
  });
});
