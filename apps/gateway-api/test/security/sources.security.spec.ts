import { createHash, randomUUID } from 'node:crypto';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import { AppProcess, HttpClient, spawnApp, testConfig, waitForJobEnd } from '@svc/testing';
import { createGateway, Gateway } from '../../src/app.factory';
import { Problem, SecurityStack, startSecurityStack } from './security-stack';

interface Job {
  id: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
  result: Record<string, unknown> | null;
}
interface UploadedSource {
  uri: string;
  key: string;
  size_bytes: number;
  sha256: string;
}

const MiB = 1024 * 1024;
/** The workers of this suite read at most this much of a decompressed source. */
const WORKER_MAX_BYTES = 32 * MiB;

function obo(version: string, terms: string[] = ['GO:0000001']): string {
  const stanzas = terms.map((id) => `[Term]\nid: ${id}\nname: term ${id}\nnamespace: biological_process\n`);
  return `format-version: 1.2\ndata-version: ${version}\n\n${stanzas.join('\n')}`;
}

/** Writes `bytes` of `fill` (in 1 MiB chunks, no line end unless `fill` has one) gzip-compressed. */
async function writeGzip(path: string, bytes: number, fill: string): Promise<void> {
  const chunk = Buffer.alloc(MiB, fill);
  await pipeline(
    Readable.from(
      (function* () {
        for (let written = 0; written < bytes; written += MiB) yield chunk;
      })(),
    ),
    createGzip({ level: 9 }),
    createWriteStream(path),
  );
}

describe('sources: what the server reads (findings 4, 5 and 10, rules 4 and 5)', () => {
  let stack: SecurityStack;
  /** A gateway whose settings let through what the workers refuse, to reach them. */
  let lenient: Gateway;
  let lenientApi: HttpClient;
  let worker: AppProcess;
  let workerExited: number | null | undefined;
  let work: string;
  let allowedDir: string;
  let secretDir: string;
  let trap: Server;
  let trapUrl: string;
  const trapHits: string[] = [];

  const admin = () => stack.admin.headers;
  const api = () => stack.api;
  /** Queues a load through `client` (201 expected) and waits for the job to end. */
  const load = async (path: string, body: Record<string, unknown>, client = api()): Promise<Job> => {
    const queued = await client.post<{ id: string }>(path, body, admin());
    expect({ path, body, status: queued.status }).toEqual({ path, body, status: 201 });
    return job(queued.body.id);
  };
  const job = async (id: string): Promise<Job> =>
    waitForJobEnd<Job>({ get: <R>(path: string) => stack.api.get<R>(path, admin()) }, id, 90_000);

  beforeAll(async () => {
    work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-sources-security-')));
    allowedDir = join(work, 'allowed');
    secretDir = join(work, 'secret');
    mkdirSync(allowedDir);
    mkdirSync(secretDir);
    writeFileSync(join(secretDir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    trap = createServer((request, response) => {
      trapHits.push(request.url ?? '');
      const port = (trap.address() as AddressInfo).port;
      if (request.url?.startsWith('/redirect'))
        response.writeHead(302, { location: `http://localhost:${port}/internal.obo` }).end();
      else response.end(obo(`trap-${randomUUID()}`));
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;

    stack = await startSecurityStack('sources_security', {
      env: {
        SVC_SOURCE_ALLOWED_ROOTS: allowedDir,
        SVC_SOURCE_ALLOWED_HOSTS: '',
        SVC_SOURCE_UPLOAD_LIMIT_BYTES: String(MiB),
        SVC_RATELIMIT_POST_JOBS: '1000/minute',
      },
    });
    // The worker may reach the trap's address (to prove redirects are checked hop by hop), and
    // reads at most 32 MiB of a decompressed source; its line limit is the default 1 MiB.
    worker = await spawnApp('ingestion-worker', {
      ...stack.env,
      SVC_SOURCE_ALLOWED_HOSTS: '127.0.0.1',
      SVC_SOURCE_MAX_BYTES: String(WORKER_MAX_BYTES),
    });
    void worker.exited.then((code) => (workerExited = code));
    await worker.waitForLog('worker started', 60_000);
    lenient = await createGateway(
      testConfig({
        ...stack.env,
        SVC_SOURCE_ALLOWED_ROOTS: `${allowedDir},${secretDir}`,
        SVC_SOURCE_ALLOWED_HOSTS: '127.0.0.1,localhost',
      }),
    );
    lenientApi = new HttpClient(lenient.url);
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await lenient?.close();
    await stack?.close();
    await new Promise((resolve) => trap?.close(resolve));
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  beforeEach(() => trapHits.splice(0));

  it('finding 4: file paths, file:// URLs, loopback, link-local and private addresses are refused with 422 before any I/O', async () => {
    const port = new URL(trapUrl).port;
    const refused = [
      '/etc/passwd',
      'file:///etc/passwd',
      join(secretDir, 'passwd'),
      join(secretDir, 'no-such-file'),
      `${allowedDir}/../secret/passwd`,
      '../../../../etc/passwd',
      `${trapUrl}/x.obo`,
      `http://2130706433:${port}/x.obo`,
      `http://0x7f000001:${port}/x.obo`,
      `http://017700000001:${port}/x.obo`,
      `http://127.1:${port}/x.obo`,
      `http://localhost:${port}/x.obo`,
      `http://[::1]:${port}/x.obo`,
      `http://[::ffff:127.0.0.1]:${port}/x.obo`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/x.obo',
      'http://192.168.1.1/x.obo',
      'http://100.64.0.1/x.obo',
    ];
    const details = new Map<string, string>();
    for (const source of refused) {
      const res = await api().post<Problem>('/v1/annotations/snapshots/load', { obo_url: source }, admin());
      expect({ source, status: res.status }).toEqual({ source, status: 422 });
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.code).toBe('source_not_allowed');
      expect(res.body.errors).toEqual([{ path: 'obo_url', message: expect.any(String) }]);
      expect(res.body.detail).toMatch(
        source.startsWith('http') ? /SVC_SOURCE_ALLOWED_HOSTS/ : /SVC_SOURCE_ALLOWED_ROOTS/,
      );
      expect(res.body.detail).not.toMatch(/root:x|no such|not found|exist/i);
      details.set(source, res.body.detail ?? '');
    }
    // An existing and a missing file outside the roots are answered alike.
    expect(details.get(join(secretDir, 'passwd'))!.replace('passwd', 'X')).toBe(
      details.get(join(secretDir, 'no-such-file'))!.replace('no-such-file', 'X'),
    );
    // The other loads and references that name a source are checked the same way.
    const elsewhere: { path: string; body: Record<string, unknown>; field: string }[] = [
      {
        path: '/v1/annotations/sets/load-goa',
        body: { ontology_snapshot_id: randomUUID(), gaf_url: '/etc/passwd', source_version: 'x' },
        field: 'gaf_url',
      },
      { path: '/v1/proteins/insert', body: { source_url: `${trapUrl}/p.fasta` }, field: 'source_url' },
      {
        path: '/v1/jobs',
        body: {
          operation: 'load_ncbi_taxonomy',
          queue_name: 'svc.jobs',
          payload: { nodes_url: 'file:///etc/passwd' },
        },
        field: 'nodes_url',
      },
      {
        path: '/v1/jobs',
        body: {
          operation: 'load_interpro_go_mapping',
          queue_name: 'svc.jobs',
          payload: { url: `http://2130706433:${port}/ipr` },
        },
        field: 'url',
      },
    ];
    for (const { path, body, field } of elsewhere) {
      const res = await api().post<Problem>(path, body, admin());
      expect({ path, field, status: res.status, code: res.body.code }).toEqual({
        path,
        field,
        status: 422,
        code: 'source_not_allowed',
      });
    }
    expect(trapHits).toEqual([]);
  });

  it('finding 4: a refused source that reaches a worker fails the job with source_not_allowed; redirects are re-checked', async () => {
    const port = new URL(trapUrl).port;
    const cases = [
      { source: join(secretDir, 'passwd'), setting: 'SVC_SOURCE_ALLOWED_ROOTS' },
      { source: `http://localhost:${port}/direct.obo`, setting: 'SVC_SOURCE_ALLOWED_HOSTS' },
      { source: `${trapUrl}/redirect.obo`, setting: 'SVC_SOURCE_ALLOWED_HOSTS' },
    ];
    for (const { source, setting } of cases) {
      const done = await load('/v1/annotations/snapshots/load', { obo_url: source }, lenientApi);
      expect({ source, status: done.status, code: done.error_code }).toEqual({
        source,
        status: 'FAILED',
        code: 'source_not_allowed',
      });
      expect(done.error_message).toContain(setting);
      expect(done.error_message).not.toMatch(/root:x/);
    }
    // Only the allowed first hop was fetched; the redirect to localhost was refused before connecting.
    expect(trapHits).toEqual(['/redirect.obo']);
  });

  it('finding 4: the gateway does not fetch a re-ranker artifact_uri, manifest_uri or ia_url', async () => {
    const sha = `sha-${randomUUID()}`;
    const reference = (artifactUri: string) => ({
      artifact_uri: artifactUri,
      spec_yaml: 'model: stump\n',
      run: { run_id: `run-${randomUUID().slice(0, 8)}`, feature_schema_sha: sha },
    });
    for (const uri of [
      `${trapUrl}/model.txt`,
      'file:///etc/passwd',
      `http://[::1]:${new URL(trapUrl).port}/m`,
    ]) {
      const res = await api().post<Problem>(
        '/v1/reranker-models/import-by-reference',
        reference(uri),
        admin(),
      );
      expect({ uri, status: res.status, code: res.body.code }).toEqual({
        uri,
        status: 422,
        code: 'source_not_allowed',
      });
    }
    const config = await api().post<{ id: string }>(
      '/v1/embeddings/configs',
      { model_name: 'kmer-v1', model_backend: 'kmer' },
      admin(),
    );
    expect([200, 201]).toContain(config.status);
    const manifest = await api().post<Problem>(
      '/v1/datasets/import-by-reference',
      {
        name: `ds_${randomUUID().slice(0, 8)}`,
        train_uri: 'train.parquet',
        manifest_uri: `${trapUrl}/manifest.json`,
        embedding_config_id: config.body.id,
        annotation_source: 'goa',
        k: 5,
        schema_sha: 'a'.repeat(64),
        n_train_rows: 1,
        n_eval_rows: 0,
      },
      admin(),
    );
    expect({ status: manifest.status, code: manifest.body.code }).toEqual({
      status: 422,
      code: 'source_not_allowed',
    });

    // A re-ranker stored before the policy (here: through a gateway that allowed its host) is not
    // fetched by the gateway when someone reads through it.
    const stored = await lenientApi.post<{ id: string }>(
      '/v1/reranker-models/import-by-reference',
      reference(`${trapUrl}/stored-model.txt`),
      admin(),
    );
    expect(stored.status).toBe(201);
    const db = stack.gateway.infra.db;
    const [snapshot] = await db.query<{ id: string }[]>(
      `INSERT INTO ontology_snapshot (obo_version, obo_url, ia_url) VALUES ($1, 'x', $2) RETURNING id`,
      [`rerank-${randomUUID()}`, `${trapUrl}/ia.tsv`],
    );
    const [annotations] = await db.query<{ id: string }[]>(
      `INSERT INTO annotation_set (source, source_version, ontology_snapshot_id) VALUES ('goa', $1, $2) RETURNING id`,
      [`rerank-${randomUUID()}`, snapshot!.id],
    );
    const [set] = await db.query<{ id: string }[]>(
      `INSERT INTO prediction_set (embedding_config_id, annotation_set_id, ontology_snapshot_id, limit_per_entry,
         search_backend, aspect_separated_knn, feature_schema_sha)
       VALUES ($1, $2, $3, 5, 'exact', false, $4) RETURNING id`,
      [config.body.id, annotations!.id, snapshot!.id, sha],
    );
    const rerank = await api().get<Problem>(
      `/v1/scoring/prediction-sets/${set!.id}/rerank.tsv?reranker_id=${stored.body.id}`,
      admin(),
    );
    expect(rerank.status).toBeGreaterThanOrEqual(400);
    expect(rerank.status).toBeLessThan(500);
    const ia = await api().patch<Problem>(
      `/v1/annotations/snapshots/${snapshot!.id}/ia-url`,
      { ia_url: `${trapUrl}/ia.tsv` },
      admin(),
    );
    expect({ status: ia.status, code: ia.body.code }).toEqual({ status: 422, code: 'source_not_allowed' });
    expect(trapHits).toEqual([]);
  });

  it('finding 5: a gzip holding one 700 MB line fails the job with line_too_long; the worker survives', async () => {
    const bomb = join(allowedDir, 'one-line.obo.gz');
    await writeGzip(bomb, 700 * MiB, 'A');
    const done = await load('/v1/annotations/snapshots/load', { obo_url: bomb });
    expect({ status: done.status, code: done.error_code }).toEqual({
      status: 'FAILED',
      code: 'line_too_long',
    });
    expect(done.error_message).toBe('line 1 is longer than 1048576 bytes (SVC_SOURCE_MAX_LINE_BYTES)');
    // The same worker process goes on to load a real file.
    const next = join(allowedDir, 'after-the-bomb.obo');
    writeFileSync(next, obo(`after-bomb-${randomUUID()}`));
    expect((await load('/v1/annotations/snapshots/load', { obo_url: next })).status).toBe('SUCCEEDED');
    expect(workerExited).toBeUndefined();
  });

  it('rule 5: a decompression bomb of short lines fails the job with source_too_large, for streamed and whole-file loaders', async () => {
    const bomb = join(allowedDir, 'many-lines.gz');
    await writeGzip(bomb, 2 * WORKER_MAX_BYTES, `${'>P12345 x\n'.repeat(10)}`);
    const loads = [
      { path: '/v1/annotations/snapshots/load', body: { obo_url: bomb } },
      { path: '/v1/proteins/insert', body: { source_url: bomb } },
    ];
    for (const { path, body } of loads) {
      const done = await load(path, body);
      expect({ path, status: done.status, code: done.error_code }).toEqual({
        path,
        status: 'FAILED',
        code: 'source_too_large',
      });
      expect(done.error_message).toContain('SVC_SOURCE_MAX_BYTES');
    }
    expect(workerExited).toBeUndefined();
  });

  it('finding 10: an OBO that defines a term twice ends FAILED with invalid_obo and a message free of SQL', async () => {
    const file = join(allowedDir, 'duplicate-term.obo');
    writeFileSync(file, obo(`duplicate-${randomUUID()}`, ['GO:0000001', 'GO:0000002', 'GO:0000001']));
    const done = await load('/v1/annotations/snapshots/load', { obo_url: file });
    expect({ status: done.status, code: done.error_code }).toEqual({ status: 'FAILED', code: 'invalid_obo' });
    expect(done.error_message).toBe('the OBO file defines term GO:0000001 more than once');
    expect(done.error_message).not.toMatch(/duplicate key|constraint|INSERT|SELECT|go_term/i);
  });

  it('rule 4: an OBO uploaded through POST /v1/sources loads by the uri it answers', async () => {
    const text = obo(`uploaded-${randomUUID()}`, ['GO:0000001', 'GO:0000002']);
    const form = (content: string | Buffer, name: string) => {
      const body = new FormData();
      body.set('file', new Blob([content]), name);
      return body;
    };
    const upload = (body: FormData, headers: Record<string, string>) =>
      fetch(`${stack.gateway.url}/v1/sources`, { method: 'POST', body, headers });

    expect((await upload(form(text, 'go.obo'), {})).status).toBe(401);
    const res = await upload(form(text, '../../go basic.obo'), admin());
    expect(res.status).toBe(201);
    const uploaded = (await res.json()) as UploadedSource;
    expect(uploaded).toEqual({
      uri: expect.any(String),
      key: expect.stringMatching(/^sources\/[0-9a-f-]{36}\/go_basic\.obo$/),
      size_bytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
    });
    const done = await load('/v1/annotations/snapshots/load', { obo_url: uploaded.uri });
    expect(done.error_message).toBeNull();
    expect(done.status).toBe('SUCCEEDED');
    expect(done.result).toMatchObject({ term_count: 2 });

    // Beyond SVC_SOURCE_UPLOAD_LIMIT_BYTES: 413, and nothing is kept.
    const tooBig = await upload(form(Buffer.alloc(MiB + 1, 'x'), 'big.obo'), admin());
    expect(tooBig.status).toBe(413);
    const sourcesDir = join(stack.env['SVC_ARTIFACTS_DIR']!, 'sources');
    const files = readdirSync(sourcesDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.map((e) => e.name)).not.toContain('big.obo');
    expect(pathToFileURL(join(sourcesDir, uploaded.key.slice('sources/'.length))).href).toBe(uploaded.uri);
  });
});
