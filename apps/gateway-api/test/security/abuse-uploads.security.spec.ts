import { randomUUID } from 'node:crypto';
import { ClientRequest, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import {
  HttpClient,
  HttpResult,
  runJobToSuccess,
  SHARED_DATA_DIR,
  TestJob,
  WORKSPACE_ROOT,
} from '@svc/testing';
import {
  createUser,
  fastaForm,
  fastaOf,
  Problem,
  SecurityStack,
  SignedInUser,
  startSecurityStack,
} from './security-stack';

const MB = 1024 * 1024;
const BOUNDARY = 'svcabuseboundary';

/** A multipart body written by hand, so that it can be broken in ways FormData never is. */
function multipartText(parts: { name: string; filename?: string; content: string }[], close = true): string {
  const lines = parts.map((part) => {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n${part.content}\r\n`;
  });
  return lines.join('') + (close ? `--${BOUNDARY}--\r\n` : '');
}

interface RawAnswer {
  status: number;
  /** Milliseconds from the headers being sent to the answer. */
  ms: number;
  body: string;
}

/**
 * A raw POST: the headers go first; `body` (if any) follows after `delayMs`; the promise resolves with
 * the answer, whenever it comes (before the body is sent, when the server judges the headers alone).
 * `hold` keeps the request open without ending it; the returned request can then be destroyed.
 */
function rawPost(
  baseUrl: string,
  path: string,
  input: { headers: Record<string, string>; body?: string | Buffer; delayMs?: number; hold?: boolean },
): { answer: Promise<RawAnswer>; request: ClientRequest } {
  const target = new URL(path, baseUrl);
  const started = Date.now();
  let request!: ClientRequest;
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    request = httpRequest(
      {
        method: 'POST',
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: input.headers,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started, body }));
        res.on('error', reject);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({ status: -1, ms: 0, body: '' });
      else reject(error);
    });
    request.flushHeaders();
    setTimeout(() => {
      if (request.destroyed) return;
      if (input.body !== undefined) request.write(input.body);
      if (input.hold !== true) request.end();
    }, input.delayMs ?? 0);
  });
  return { answer, request };
}

describe('uploads and quotas: no caller takes memory or workers beyond its own limits (issue findings 1-3)', () => {
  let stack: SecurityStack;
  let api: HttpClient;
  let researcher: SignedInUser;
  let references: { annotation_set_id: string; ontology_snapshot_id: string; embedding_config_id: string };

  const upload = async (
    path: string,
    form: FormData,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<Problem & Record<string, unknown>>> => {
    const response = await fetch(`${api.baseUrl}${path}`, { method: 'POST', body: form, headers });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      body: (type.includes('json') ? JSON.parse(text) : text) as Problem & Record<string, unknown>,
      text,
    };
  };

  /** A fresh guest address for each test: the gateway believes X-Forwarded-For from loopback here. */
  let guests = 0;
  const guest = (): Record<string, string> => {
    guests += 1;
    return { 'x-forwarded-for': `203.0.113.${guests}` };
  };

  beforeAll(async () => {
    stack = await startSecurityStack('abuse_uploads', {
      workers: ['ingestion-worker'],
      env: {
        SVC_SOURCE_ALLOWED_ROOTS: [join(WORKSPACE_ROOT, 'fixtures'), SHARED_DATA_DIR].join(','),
        SVC_TRUSTED_PROXIES: '127.0.0.1',
      },
    });
    api = stack.api;
    researcher = await createUser(stack, 'researcher');
    const admin = api.withHeaders(stack.admin.headers);
    const snapshot = await runJobToSuccess<TestJob>(admin, '/v1/annotations/snapshots/load', {
      obo_url: join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    const set = await runJobToSuccess<TestJob>(admin, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshot.result!['ontology_snapshot_id'],
      gaf_url: join(WORKSPACE_ROOT, 'fixtures/tiny-t0.2022-09-12.gaf'),
      source_version: 'tiny-t0',
    });
    // The reference proteins with their sequences: one-click annotation refuses an empty pool.
    await runJobToSuccess<TestJob>(admin, '/v1/proteins/insert', {
      source_url: join(SHARED_DATA_DIR, 'tiny/sequences.fasta'),
    });
    const config = await admin.post<{ id: string }>('/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
    });
    references = {
      annotation_set_id: set.result!['annotation_set_id'] as string,
      ontology_snapshot_id: snapshot.result!['ontology_snapshot_id'] as string,
      embedding_config_id: config.body.id,
    };
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('finding 1: an anonymous upload declaring 190 MB is refused with 413 before a byte of it is read', async () => {
    const { answer } = rawPost(api.baseUrl, '/v1/annotate', {
      headers: {
        ...guest(),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(190 * MB),
      },
      // Never sent: the answer must come from the headers alone.
      delayMs: 60_000,
    });
    const refused = await answer;
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ type: '/problems/payload-too-large' });
    expect(refused.ms).toBeLessThan(5_000);
  });

  it('finding 1: an anonymous 5 MB "sequence" sent chunked is cut off at the guest limit (413) and nothing is stored', async () => {
    const marker = `BIG${randomUUID().slice(0, 6)}`;
    const body = multipartText([
      { name: 'file', filename: 'big.fasta', content: `>${marker}\n${'A'.repeat(5 * MB)}\n` },
    ]);
    const { answer } = rawPost(api.baseUrl, '/v1/annotate', {
      headers: {
        ...guest(),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'transfer-encoding': 'chunked',
      },
      body,
    });
    // Cut off as soon as it passes a limit: the guest's bytes (413) or the longest line (422).
    expect([413, 422, -1]).toContain((await answer).status);
    const sets = await api.get<{ name: string }[]>('/v1/query-sets', stack.admin.headers);
    expect(JSON.stringify(sets.body)).not.toContain(marker);
    // A researcher's upload of one 45,000-residue sequence fits the byte limit but not the longest sequence.
    const long = await upload(
      '/v1/query-sets',
      fastaForm(`>LONG1\n${'M'.repeat(45_000)}\n`),
      researcher.headers,
    );
    expect(long.status).toBe(422);
    expect(long.body.errors?.[0]?.message).toMatch(/longer than 40000 residues/);
  });

  it('finding 1: parts the route does not document are refused (422), and so is a second file', async () => {
    const extra = fastaForm(fastaOf(1, 'EXTRA'));
    extra.set('other', new Blob(['x'.repeat(1000)]), 'other.bin');
    const refused = await upload('/v1/annotate', extra, guest());
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.[0]?.path).toBe('other');
    const field = await upload(
      '/v1/annotate',
      fastaForm(fastaOf(1, 'FIELD'), { description: 'not here' }),
      guest(),
    );
    expect(field.status).toBe(422);
  });

  it('finding 1: a guest is refused as soon as the file passes the quota left, and an address with none left is refused before its body', async () => {
    const address = guest();
    const tooMany = await upload('/v1/annotate', fastaForm(fastaOf(20, 'MANY')), address);
    expect(tooMany.status).toBe(429);
    // Told what was asked, what a day allows and what is left, not only that a quota was reached.
    expect(tooMany.body.detail).toMatch(/20 sequences asked, 10 allowed a day, 10 left today/);
    expect(tooMany.body).toMatchObject({ limit: 10, used: 0, remaining: 10, requested: 20 });
    const full = await upload('/v1/annotate', fastaForm(fastaOf(10, 'FULL')), address);
    expect(full.status).toBe(201);
    const { answer } = rawPost(api.baseUrl, '/v1/annotate', {
      headers: {
        ...address,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(900 * 1024),
      },
      delayMs: 60_000,
    });
    const over = await answer;
    expect(over.status).toBe(429);
    expect(over.ms).toBeLessThan(5_000);
    expect(JSON.parse(over.body)).toMatchObject({
      detail: expect.stringMatching(/used up: 10 sequences allowed a day, 0 left today/),
    });
  });

  it('nucleotide records are refused at upload on every upload route (422 naming them), before any quota is charged', async () => {
    const cds = 'ATGGAGGAGCCGCAGTCAGATCCTAGCGTCGAGCCCCCTCTGAGTCAGGAAACATTTTCAGACCTATGGAAACTACTTCCTGAAAACAAC';
    const dnaIds = Array.from({ length: 7 }, (_, i) => `NM_00054${i}.6`);
    const fasta = [
      fastaOf(1, 'PROT'),
      ...dnaIds.map(
        (id, i) => `>${id} TP53 mRNA
${i % 2 === 0 ? cds : cds.toLowerCase().replace(/t/g, 'u')}
`,
      ),
    ].join('');
    const address = guest();
    const routes: [string, Record<string, string>][] = [
      ['/v1/annotate', address],
      ['/annotate', address],
      ['/v1/query-sets', researcher.headers],
    ];
    for (const [path, headers] of routes) {
      const refused = await upload(path, fastaForm(fasta, { name: `dna-${path}` }), headers);
      expect({ path, status: refused.status, type: refused.headers.get('content-type') }).toEqual({
        path,
        status: 422,
        type: expect.stringContaining('application/problem+json'),
      });
      expect(refused.body).toMatchObject({
        type: '/problems/validation-error',
        detail: expect.stringMatching(
          /^7 records look like nucleotide sequences \(DNA or RNA\), not proteins: NM_000540\.6, NM_000541\.6, NM_000542\.6, NM_000543\.6, NM_000544\.6 and 2 more\./,
        ),
        nucleotide_records: 7,
      });
      expect(refused.body.errors).toHaveLength(7);
      expect(refused.body.errors?.[0]).toEqual({
        path: 'file:3',
        message: 'line 3: NM_000540.6 looks like a nucleotide sequence (100 % A/C/G/T/U/N), not a protein',
      });
    }
    const sets = await api.get<{ name: string }[]>('/v1/query-sets', stack.admin.headers);
    expect(JSON.stringify(sets.body)).not.toContain('dna-');
    // Nothing was charged: the guest still has the whole day's quota.
    expect((await upload('/v1/annotate', fastaForm(fastaOf(10, 'AFTERDNA')), address)).status).toBe(201);
  });

  it('a donor_evidence other than experimental or all is a 422 naming the field, before anything is stored or charged', async () => {
    const address = guest();
    const name = `donors-${randomUUID().slice(0, 6)}`;
    const refused = await upload(
      '/v1/annotate',
      fastaForm(fastaOf(10, 'DONORS'), { name, donor_evidence: 'IEA' }),
      address,
    );
    expect({ status: refused.status, type: refused.headers.get('content-type') }).toEqual({
      status: 422,
      type: expect.stringContaining('application/problem+json'),
    });
    expect(refused.body).toMatchObject({
      type: '/problems/validation-error',
      errors: [{ path: 'donor_evidence', message: 'donor_evidence must be experimental or all' }],
    });
    const sets = await api.get<{ name: string }[]>('/v1/query-sets', stack.admin.headers);
    expect(JSON.stringify(sets.body)).not.toContain(name);
    // Nothing was charged: the guest still has the whole day's quota, and a valid policy is accepted.
    const accepted = await upload(
      '/v1/annotate',
      fastaForm(fastaOf(10, 'DONORSOK'), { donor_evidence: 'all' }),
      address,
    );
    expect(accepted.status).toBe(201);
    expect(accepted.body['reference']).toMatchObject({ donor_evidence: 'all' });
  });

  it('finding 1: a caller may send two uploads at a time; a third waits for one of them (429)', async () => {
    const address = guest();
    const headers = {
      ...address,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'transfer-encoding': 'chunked',
    };
    const start = multipartText([{ name: 'file', filename: 'slow.fasta', content: '>SLOW1\nMKT' }], false);
    const held = [0, 1].map(() => rawPost(api.baseUrl, '/v1/annotate', { headers, body: start, hold: true }));
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const third = await upload('/v1/annotate', fastaForm(fastaOf(1, 'THIRD')), address);
      expect(third.status).toBe(429);
      expect(third.body.detail).toMatch(/at most 2 uploads at a time/);
    } finally {
      for (const { request } of held) request.destroy();
    }
    // Slots are given back when an upload ends, however it ends.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await upload('/v1/annotate', fastaForm(fastaOf(1, 'AFTER')), address)).status).toBe(201);
  });

  it('finding 2: a researcher is charged by query count on every route that predicts, and whole-pool prediction is for operators', async () => {
    const first = await upload('/v1/query-sets', fastaForm(fastaOf(600, 'R1')), researcher.headers);
    const second = await upload('/v1/query-sets', fastaForm(fastaOf(600, 'R2')), researcher.headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    const predict = (querySetId?: string) => ({
      ...references,
      ...(querySetId === undefined ? {} : { query_set_id: querySetId }),
    });
    const researcherApi = api.withHeaders(researcher.headers);
    const accepted = await researcherApi.post('/v1/embeddings/predict', predict(first.body['id'] as string));
    expect(accepted.status).toBe(201);
    // 600 + 600 passes the researcher's 1,000 a day, through either route.
    const viaPredict = await researcherApi.post<Problem>(
      '/v1/embeddings/predict',
      predict(second.body['id'] as string),
    );
    expect(viaPredict.status).toBe(429);
    expect(viaPredict.body.detail).toMatch(
      /annotate_sequences exceeded: 600 sequences asked, 1000 allowed a day, 400 left today/,
    );
    const viaJobs = await researcherApi.post<Problem>('/v1/jobs', {
      operation: 'predict_go_terms',
      queue_name: 'svc.predictions',
      payload: predict(second.body['id'] as string),
    });
    expect(viaJobs.status).toBe(429);
    // A set larger than the daily quota is refused at upload.
    const huge = await upload('/v1/query-sets', fastaForm(fastaOf(1001, 'R3')), researcher.headers);
    expect(huge.status).toBe(413);
    expect(huge.body.detail).toMatch(
      /the file holds 1001 sequences; a query set of a researcher holds at most 1000/,
    );
    // Without a query set the work is every embedded protein: operators only, on either route.
    for (const path of ['/v1/embeddings/predict', '/v1/jobs']) {
      const body =
        path === '/v1/jobs'
          ? { operation: 'predict_go_terms', queue_name: 'svc.predictions', payload: predict() }
          : predict();
      const pool = await researcherApi.post<Problem>(path, body);
      expect({ path, status: pool.status }).toEqual({ path, status: 403 });
    }
    const anonymousPool = await api.post<Problem>('/v1/embeddings/predict', predict());
    expect(anonymousPool.status).toBe(403);
  });

  it('finding 3: malformed multipart is a 4xx problem, never a 500, anonymous or signed in', async () => {
    const routes: [string, Record<string, string>][] = [
      ['/v1/annotate', {}],
      ['/annotate', {}],
      ['/v1/query-sets', researcher.headers],
    ];
    const manyFields = multipartText([
      ...Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, content: 'x' })),
      { name: 'file', filename: 'a.fasta', content: '>P1\nMKT\n' },
    ]);
    const variants: [string, string, string][] = [
      [
        'no boundary',
        'multipart/form-data',
        multipartText([{ name: 'file', filename: 'a.fasta', content: '>P1\nMKT\n' }]),
      ],
      [
        'truncated body',
        `multipart/form-data; boundary=${BOUNDARY}`,
        multipartText([{ name: 'file', filename: 'a.fasta', content: '>P1\nMKT\n' }]).slice(0, 60),
      ],
      ['more than 20 fields', `multipart/form-data; boundary=${BOUNDARY}`, manyFields],
      [
        'broken part header',
        `multipart/form-data; boundary=${BOUNDARY}`,
        `--${BOUNDARY}\r\nbroken\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
      ],
    ];
    for (const [path, headers] of routes) {
      for (const [name, type, body] of variants) {
        const response = await fetch(`${api.baseUrl}${path}`, {
          method: 'POST',
          headers: { ...guest(), ...headers, 'content-type': type },
          body,
        });
        const status = [400, 413, 422].includes(response.status) ? 'a 4xx' : response.status;
        expect({ path, name, status }).toEqual({ path, name, status: 'a 4xx' });
        expect(response.headers.get('content-type')).toContain('application/problem+json');
      }
    }
  });
});
