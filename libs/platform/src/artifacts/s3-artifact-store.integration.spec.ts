import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import S3rver from 's3rver';
import { AppConfig } from '../config/app-config';
import { loadConfig } from '../config/load-config';
import { ArtifactStoreUnavailable } from './artifact-store';
import { describeArtifactStoreContract } from '../../testing/artifact-store.contract';
import { openArtifactStore } from './create-artifact-store';
import { readText } from '../sources/text-source';
import { SourcePolicy, sourcePolicyOf } from '../sources/source-policy';
import { S3ArtifactStore } from './s3-artifact-store';

// The platform library cannot use the shared testing library (which depends on it), so the server
// and the configuration are set up here directly.
let s3rver: S3rver;
let s3Dir: string;
const server = { endpoint: '' };
const stores: S3ArtifactStore[] = [];

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  server.endpoint = `http://127.0.0.1:${(await s3rver.run()).port}`;
});

afterAll(async () => {
  for (const store of stores.splice(0)) await store.close();
  await s3rver.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

function s3Config(bucket: string, overrides: Record<string, string> = {}): AppConfig {
  const env = {
    SVC_DB_URL: 'postgresql://db/svc',
    SVC_AMQP_URL: 'amqp://mq',
    SVC_ARTIFACTS_DIR: join(s3Dir, 'local'),
    SVC_STORAGE_BACKEND: 's3',
    SVC_OBJECT_STORE_ENDPOINT: server.endpoint,
    SVC_OBJECT_STORE_ACCESS_KEY: 'S3RVER',
    SVC_OBJECT_STORE_SECRET_KEY: 'S3RVER',
    SVC_OBJECT_STORE_BUCKET: bucket,
    ...overrides,
  };
  return loadConfig({ env, rootDir: s3Dir, onWarning: () => undefined });
}

/** A loopback port nothing listens on (it was free a moment ago). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

const freshBucket = (): string => `svc-test-${randomBytes(4).toString('hex')}`;

function s3Store(bucket = freshBucket(), endpoint = server.endpoint): S3ArtifactStore {
  const store = new S3ArtifactStore({
    endpoint,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket,
    secure: false,
    region: 'us-east-1',
  });
  stores.push(store);
  return store;
}

describeArtifactStoreContract('s3', async () => {
  const store = s3Store();
  await store.ensureReady();
  return store;
});

describe('S3ArtifactStore', () => {
  it('issues s3://<bucket>/<key> URIs', async () => {
    const store = s3Store('svc-uris');
    await store.ensureReady();
    expect(await store.put('rerankers/r1/model.txt', 'tree')).toBe('s3://svc-uris/rerankers/r1/model.txt');
  });

  it('creates a missing bucket once, then finds it', async () => {
    const store = s3Store();
    expect(await store.ensureReady()).toEqual({ created: true });
    expect(await store.ensureReady()).toEqual({ created: false });
    expect(await s3Store(store.bucket).list('')).toEqual([]);
  });

  it('keeps artifacts apart per bucket', async () => {
    const a = s3Store();
    const b = s3Store();
    await a.ensureReady();
    await b.ensureReady();
    await a.put('same/key.txt', 'in a');
    expect(await b.exists('same/key.txt')).toBe(false);
    expect(b.keyOf(a.url('same/key.txt'))).toBeNull();
  });
});

describe('openArtifactStore', () => {
  const quiet = { warn: () => undefined, info: () => undefined };

  it('checks the object store and creates its bucket', async () => {
    const bucket = freshBucket();
    const infos: Record<string, unknown>[] = [];
    const store = await openArtifactStore(s3Config(bucket), {
      warn: () => undefined,
      info: (_message, fields) => infos.push(fields ?? {}),
    });
    stores.push(store as S3ArtifactStore);
    expect(store).toBeInstanceOf(S3ArtifactStore);
    expect(infos).toEqual([{ backend: 's3', endpoint: server.endpoint, bucket, bucket_created: true }]);
    expect(await store.put('a.txt', 'x')).toBe(`s3://${bucket}/a.txt`);
  });

  it('raises ArtifactStoreUnavailable when nothing listens at the endpoint', async () => {
    const port = await closedPort();
    const config = s3Config(freshBucket(), { SVC_OBJECT_STORE_ENDPOINT: `127.0.0.1:${port}` });
    const opened = openArtifactStore(config, quiet);
    await expect(opened).rejects.toThrow(ArtifactStoreUnavailable);
    await expect(opened).rejects.toThrow(`object store s3://`);
    await expect(opened).rejects.toThrow(`at http://127.0.0.1:${port} is not reachable`);
  });

  it('falls back to the local store with a warning when credentials are missing', async () => {
    const warnings: string[] = [];
    const store = await openArtifactStore(s3Config(freshBucket(), { SVC_OBJECT_STORE_SECRET_KEY: '' }), {
      warn: (m) => warnings.push(m),
      info: () => undefined,
    });
    expect(store.backend).toBe('local');
    expect(warnings).toEqual([
      expect.stringMatching(/^object store settings incomplete \(missing SVC_OBJECT_STORE_SECRET_KEY\)/),
    ]);
  });
});

describe('artifacts read as sources', () => {
  let dir: string;
  const policy = (store: S3ArtifactStore): SourcePolicy =>
    sourcePolicyOf(s3Config(store.bucket, { SVC_SOURCE_ALLOWED_ROOTS: dir }), store);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-artifact-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads s3:// URIs of the configured store through the store', async () => {
    const store = s3Store();
    await store.ensureReady();
    const uri = await store.put('rerankers/r2/model.txt', 'booster text');
    expect(await readText(uri, policy(store))).toBe('booster text');
  });

  it('still reads plain files by file:// URI and path next to an object store', async () => {
    const store = s3Store();
    writeFileSync(join(dir, 'model.txt'), 'from disk');
    expect(await readText(pathToFileURL(join(dir, 'model.txt')).href, policy(store))).toBe('from disk');
    expect(await readText(join(dir, 'model.txt'), policy(store))).toBe('from disk');
  });

  it('refuses an s3:// URI of another bucket', async () => {
    const store = s3Store('svc-mine');
    await expect(readText('s3://svc-theirs/model.txt', policy(store))).rejects.toMatchObject({
      code: 'unsupported_source',
      message: 's3://svc-theirs/model.txt is not in the configured artifact store',
    });
  });
});
