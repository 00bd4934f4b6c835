import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import {
  embedProteinsWithKmer,
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

const PROBLEM_JSON = 'application/problem+json';

/** `{"a":{"a":...{}}}`, `levels` objects deep. */
function nestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`;
}

/** The status line of a raw request: fetch refuses to send a NUL in a header, an attacker does not. */
function rawStatusLine(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request, 'latin1'));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('hostile input never gets a 500 (finding 10, rule 9)', () => {
  let stack: SecurityStack;
  let api: HttpClient;
  let researcher: SignedInUser;

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

  /** Fails with the request, the status and the start of the answer when the status is not one of `statuses`. */
  const expectProblem = (res: HttpResult<unknown>, statuses: number[], where: string): void => {
    const seen = statuses.includes(res.status) ? 'as expected' : `${res.status} ${res.text.slice(0, 300)}`;
    expect({ where, seen }).toEqual({ where, seen: 'as expected' });
    expect(res.headers.get('content-type') ?? '').toContain(PROBLEM_JSON);
  };

  beforeAll(async () => {
    stack = await startSecurityStack('input_security', {
      workers: ['ingestion-worker', 'embedding-worker'],
      env: {
        SVC_SOURCE_ALLOWED_ROOTS: [join(WORKSPACE_ROOT, 'fixtures'), SHARED_DATA_DIR].join(','),
      },
    });
    api = stack.api;
    researcher = await createUser(stack, 'researcher');
    const admin = api.withHeaders(stack.admin.headers);
    const snapshot = await runJobToSuccess<TestJob>(admin, '/v1/annotations/snapshots/load', {
      obo_url: join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    await runJobToSuccess<TestJob>(admin, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshot.result!['ontology_snapshot_id'],
      gaf_url: join(WORKSPACE_ROOT, 'fixtures/tiny-t0.2022-09-12.gaf'),
      source_version: 'tiny-t0',
    });
    // One-click annotation needs an embedded reference pool (a 409 otherwise).
    await embedProteinsWithKmer(admin, join(SHARED_DATA_DIR, 'tiny/sequences.fasta'));
    // Only the pool needed it: later embedding jobs stay queued, so duplicates of them stay active.
    await stack.workers[1]!.stop(); // the embedding worker (workers start in the order named)
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('finding 10: JSON nested 5000 levels deep is a 4xx problem on anonymous login and signup and on POST /jobs', async () => {
    const deep = nestedJson(5000);
    const attempts: [string, string, Record<string, string>][] = [
      ['/v1/auth/login', `{"email":"a@b.test","password":${deep}}`, {}],
      [
        '/v1/auth/signup',
        `{"email":"deep@b.test","username":"deep_user","display_name":"d","password":"long-enough-pw","intended_use":${deep}}`,
        {},
      ],
      [
        '/v1/jobs',
        `{"operation":"ping","queue_name":"svc.ping","payload":{"message":"deep"},"meta":${deep}}`,
        researcher.headers,
      ],
    ];
    for (const [path, body, headers] of attempts) {
      const res = await api.request<Problem>('POST', path, body, headers);
      expectProblem(res, [400, 413, 422], `POST ${path}`);
    }
    expect((await api.get('/health/ready')).status).toBe(200);
  });

  it('finding 10: a NUL byte in a path, a query, a header, a JSON field, a multipart field or a part header is a 4xx problem (so is an unpaired surrogate)', async () => {
    const asResearcher = api.withHeaders(researcher.headers);
    for (const path of [
      '/v1/proteins/P12345%00',
      '/v1/datasets/name%00',
      '/v1/proteins?search=ab%00cd',
      '/v1/jobs?operation=ping%00',
      '/v1/jobs?after=2024-01-01T00:00:00Z%00',
    ]) {
      const res = await asResearcher.get<Problem>(path);
      expectProblem(res, [400], `GET ${path}`);
    }
    // A raw NUL in a header never reaches the application: Node's HTTP parser answers 400 itself.
    expect(
      await rawStatusLine(
        api.baseUrl,
        'GET /v1/proteins HTTP/1.1\r\nHost: x\r\nX-Api-Key: ab\u0000cd\r\nConnection: close\r\n\r\n',
      ),
    ).toBe('HTTP/1.1 400 Bad Request');
    const login = await api.post<Problem>('/v1/auth/login', { email: 'a\u0000@b.test', password: 'x' });
    expectProblem(login, [422], 'login with a NUL in the e-mail');
    expect(login.body.errors?.map((e) => e.path)).toContain('email');
    const job = await asResearcher.post<Problem>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload: { message: 'nul' },
      description: 'before\u0000after',
    });
    expectProblem(job, [422], 'POST /jobs with a NUL in the description');
    expect(job.body.errors?.map((e) => e.path)).toContain('description');
    // An unpaired surrogate: JSON.stringify escapes it as \ud800, which jsonb refuses.
    const surrogate = await asResearcher.post<Problem>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload: { message: 'surrogate' },
      meta: { note: 'a\ud800b' },
    });
    expectProblem(surrogate, [422], 'POST /jobs with an unpaired surrogate in meta');
    expect(surrogate.body.errors?.map((e) => e.path)).toContain('meta.note');
    const config = await api.post<Problem>(
      '/v1/embeddings/configs',
      { model_name: 'kmer-v1', model_backend: 'kmer', description: 'a\u0000b' },
      researcher.headers,
    );
    expectProblem(config, [422], 'embedding config with a NUL in the description');
    const field = await upload(
      '/v1/query-sets',
      fastaForm(fastaOf(1, 'NULFIELD'), { name: 'ok', description: 'a\u0000b' }),
      researcher.headers,
    );
    expectProblem(field, [422], 'query set with a NUL in the description');
    const filename = await upload(
      '/v1/query-sets',
      fastaForm(fastaOf(1, 'NULNAME'), {}, 'seqs\u0000.fasta'),
      researcher.headers,
    );
    expectProblem(filename, [422], 'query set named after a file name with a NUL');
    const header = await upload('/v1/query-sets', fastaForm('>P1\u0000X desc\nMKT\n'), researcher.headers);
    expectProblem(header, [422], 'FASTA header with a NUL');
  });

  it('finding 10: offset=99999999999999999999, negative, fractional and repeated integers, and dates the database cannot hold, are 422 naming the field', async () => {
    const cases: [string, string][] = [
      ['/v1/proteins?offset=99999999999999999999', 'offset'],
      ['/v1/proteins?offset=9007199254740993', 'offset'],
      ['/v1/proteins?limit=99999999999999999999', 'limit'],
      ['/v1/proteins?offset=-1', 'offset'],
      ['/v1/proteins?limit=1.5', 'limit'],
      ['/v1/proteins?limit=1&limit=2', 'limit'],
      ['/v1/proteins?search=a&search=b', 'search'],
      [`/v1/embeddings/prediction-sets/${randomUUID()}/proteins?offset=99999999999999999999`, 'offset'],
      ['/v1/jobs?limit=1e3', 'limit'],
      // Valid ISO 8601 that PostgreSQL's timestamptz refuses.
      ['/v1/jobs?after=2024-W01', 'after'],
      ['/v1/datasets?after=0000-01-01', 'after'],
      ['/v1/experiment-runs?after=2024-02-30', 'after'],
    ];
    for (const [path, field] of cases) {
      const res = await api.get<Problem>(path, researcher.headers);
      expectProblem(res, [422], `GET ${path}`);
      expect({ path, fields: res.body.errors?.map((e) => e.path) }).toEqual({
        path,
        fields: expect.arrayContaining([field]),
      });
    }
    expect((await api.get('/v1/proteins?offset=0&limit=1000')).status).toBe(200);
  });

  it('rule 9: a hostile GO= list of known terms is a 422 naming its line; nothing is stored, and a guest is not charged', async () => {
    const ids = (n: number): string =>
      Array.from({ length: n }, (_, i) => `GO:${String(i + 1).padStart(7, '0')}`).join(',');
    const fasta = [
      `>KNOWN_OK GO=GO:0005634`,
      'MKTAYIAKQRQISFVKSHFSRQ',
      `>KNOWN_TOO_MANY GO=${ids(301)}`,
      'MKTAYIAKQRQISFVKSHFSRQ',
      `>KNOWN_SQL GO=GO:0005634');DROP TABLE query_set_entry;--`,
      'MKTAYIAKQRQISFVKSHFSRQ',
      `>KNOWN_EMPTY GO=`,
      'MKTAYIAKQRQISFVKSHFSRQ',
      '',
    ].join('\n');
    const before = await api.get<unknown[]>('/v1/query-sets?mine=true', researcher.headers);
    const res = await upload('/v1/query-sets', fastaForm(fasta), researcher.headers);
    expectProblem(res, [422], 'query set with hostile GO= lists');
    expect(res.body.errors).toEqual([
      { path: 'file:3', message: expect.stringContaining('at most 300') },
      { path: 'file:5', message: expect.stringContaining('not GO ids') },
      { path: 'file:7', message: expect.stringContaining('no empty item') },
    ]);
    // What is echoed of a hostile item is bounded.
    expect(res.text.length).toBeLessThan(5_000);
    const after = await api.get<unknown[]>('/v1/query-sets?mine=true', researcher.headers);
    expect([before.status, after.status]).toEqual([200, 200]);
    expect(after.body).toEqual(before.body);
    // A guest's one-click annotation is refused the same way before any quota is charged (the next
    // test still finds the guest's whole daily quota).
    const guest = await upload(
      '/v1/annotate',
      fastaForm(`>GUEST_KNOWN GO=nucleus\nMKTAYIAKQRQISFVKSHFSRQ\n`),
    );
    expectProblem(guest, [422], 'one-click annotation with a malformed GO= list');
    expect(guest.body.errors).toEqual([{ path: 'file:1', message: expect.stringContaining('not GO ids') }]);
  });

  it('finding 10: a 512 KB FASTA header is a 422 listing the problem, and the guest quota is not charged for it', async () => {
    const huge = await upload('/v1/annotate', fastaForm(`>${'A'.repeat(512 * 1024)} big\nMKTAYIAKQR\n`));
    expectProblem(huge, [422], 'one-click annotation with a 1 MB header');
    expect(huge.body.errors?.[0]).toEqual({ path: 'file:1', message: expect.stringMatching(/4096/) });
    // The problem names the line; it does not echo a megabyte back.
    expect(huge.text.length).toBeLessThan(10_000);
    // The guest's whole daily quota (10 sequences) is still there.
    const full = await upload('/v1/annotate', fastaForm(fastaOf(10, `GUEST${randomUUID().slice(0, 6)}`)));
    expect({ status: full.status, body: full.body }).toEqual({ status: 201, body: expect.anything() });
    const over = await upload('/v1/annotate', fastaForm(fastaOf(1, `OVER${randomUUID().slice(0, 6)}`)));
    expect(over.status).toBe(429);
  });

  it('rule 9: FASTA identifiers, header lines and descriptions have length limits (422 lists each problem); names are cut to 200', async () => {
    const fasta = [`>${'B'.repeat(300)} long identifier`, 'MKT', `>OK1 ${'d'.repeat(5000)}`, 'MKT', ''].join(
      '\n',
    );
    const res = await upload('/v1/query-sets', fastaForm(fasta), researcher.headers);
    expectProblem(res, [422], 'FASTA with an over-long identifier and header line');
    expect(res.body.errors).toEqual([
      { path: 'file:1', message: expect.stringMatching(/identifier.*256/) },
      { path: 'file:3', message: expect.stringMatching(/header.*4096/) },
    ]);
    const described = await upload(
      '/v1/query-sets',
      fastaForm(fastaOf(1, 'DESC'), { name: 'fine', description: 'x'.repeat(5000) }),
      researcher.headers,
    );
    expectProblem(described, [422], 'query set with a 5000-character description');
    expect(described.body.errors?.map((e) => e.path)).toEqual(['description']);
    // A name (often the file's name) is cut to its 200 characters rather than refused.
    const named = await upload(
      '/v1/query-sets',
      fastaForm(fastaOf(1, 'NAMED'), { name: 'n'.repeat(5000) }),
      researcher.headers,
    );
    expect(named.status).toBe(201);
    expect(named.body['name']).toBe('n'.repeat(200));
  });

  it('finding 10: rerank.tsv over an invalid or missing model file is a 4xx problem, not a 500', async () => {
    const admin = api.withHeaders(stack.admin.headers);
    const config = await admin.post<{ id: string }>('/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
    });
    expect([200, 201]).toContain(config.status);
    const schema = `schema-${randomUUID()}`;
    const db = new Client({ connectionString: stack.env['SVC_DB_URL'] });
    await db.connect();
    let predictionSetId: string;
    try {
      // A prediction set row is all rerank.tsv reads before the model; a real one needs three workers.
      const row = await db.query<{ id: string }>(
        `INSERT INTO prediction_set (embedding_config_id, annotation_set_id, ontology_snapshot_id, limit_per_entry,
           search_backend, aspect_separated_knn, feature_schema_sha)
         SELECT $1, id, ontology_snapshot_id, 5, 'exact', false, $2 FROM annotation_set LIMIT 1 RETURNING id`,
        [config.body.id, schema],
      );
      predictionSetId = row.rows[0]!.id;
    } finally {
      await db.end();
    }
    const dir = join(stack.env['SVC_ARTIFACTS_DIR']!, 'rerankers', `broken-${randomUUID()}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'model.txt'), 'this is not a LightGBM model\nversion=v3\n');
    const models = [
      pathToFileURL(join(dir, 'model.txt')).href,
      pathToFileURL(join(dir, 'missing-model.txt')).href,
    ];
    for (const artifactUri of models) {
      const imported = await admin.post<{ id: string }>('/v1/reranker-models/import-by-reference', {
        artifact_uri: artifactUri,
        spec_yaml: 'model: broken\n',
        run: { feature_schema_sha: schema, run_id: `broken-${randomUUID()}` },
      });
      expect(imported.status).toBe(201);
      const path = `/v1/scoring/prediction-sets/${predictionSetId}/rerank.tsv?reranker_id=${imported.body.id}`;
      const res = await admin.get<Problem>(path);
      expectProblem(res, [409], `GET ${path} over ${artifactUri}`);
      expect(res.body.detail).toMatch(/^re-ranker \S+ cannot score: its model file/);
      expect(res.text).not.toContain('this is not a LightGBM model');
      expect(res.text).not.toContain(dir);
    }
  });

  it('rule 9: upper-case UUIDs are accepted in paths and bodies and stored in lower case; other ids stay 404', async () => {
    const asResearcher = api.withHeaders(researcher.headers);
    const queued = await asResearcher.post<{ id: string }>('/v1/jobs', {
      operation: 'ping',
      queue_name: 'svc.ping',
      payload: { message: randomUUID() },
    });
    expect(queued.status).toBe(201);
    const byUpper = await asResearcher.get<{ id: string }>(`/v1/jobs/${queued.body.id.toUpperCase()}`);
    expect(byUpper.status).toBe(200);
    expect(byUpper.body.id).toBe(queued.body.id);
    expect((await asResearcher.get(`/jobs/${queued.body.id.toUpperCase()}/events`)).status).toBe(200);
    expect((await asResearcher.get('/v1/jobs/not-a-uuid')).status).toBe(404);

    const admin = api.withHeaders(stack.admin.headers);
    const config = await admin.post<{ id: string }>('/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
      description: `upper-case ${randomUUID()}`,
    });
    const first = await admin.post<{ id: string }>('/v1/embeddings/compute', {
      embedding_config_id: config.body.id.toUpperCase(),
    });
    expect(first.status).toBe(201);
    const job = await admin.get<{ payload: Record<string, unknown> }>(`/v1/jobs/${first.body.id}`);
    expect(job.body.payload['embedding_config_id']).toBe(config.body.id);
    // The same request in lower case is the same job (dedup keys see one spelling).
    const again = await admin.post<Problem>('/v1/embeddings/compute', {
      embedding_config_id: config.body.id,
    });
    expect(again.status).toBe(409);
    expect(
      (await admin.get(`/v1/jobs?parent_job_id=${first.body.id.toUpperCase()}&include_children=true`)).status,
    ).toBe(200);
  });
});
