import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '../config/load-config';
import {
  ArtifactNotFoundError,
  InvalidArtifactKeyError,
  validateArtifactKey,
  validateArtifactPrefix,
} from './artifact-store';
import { createArtifactStore } from './create-artifact-store';
import { describeArtifactStoreContract } from './artifact-store.contract';
import { LocalArtifactStore } from './local-artifact-store';
import { S3ArtifactStore } from './s3-artifact-store';

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
  dirs.push(dir);
  return dir;
}

/** Every file under `dir`, relative, with forward slashes. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

describe('validateArtifactKey', () => {
  it.each([
    'a',
    'runs/1/result.json',
    'a b/c d.txt',
    '.hidden',
    'a/..b',
    'x/.../y',
    'ünï/ключ',
    'runs/1/.env',
  ])('accepts %j', (key) => expect(() => validateArtifactKey(key)).not.toThrow());

  const invalid: [string, string][] = [
    ['', 'must not be empty'],
    ['/runs/1', 'must not start with a slash'],
    ['runs\\1', 'must use forward slashes'],
    ['runs/1\0.json', 'must not contain NUL'],
    ['runs//1', 'must not contain empty segments'],
    ['runs/1/', 'must not contain empty segments'],
    ['.', "must not contain a '.' segment"],
    ['./runs', "must not contain a '.' segment"],
    ['runs/./1', "must not contain a '.' segment"],
    ['..', "must not contain a '..' segment"],
    ['../escape', "must not contain a '..' segment"],
    ['runs/../../escape', "must not contain a '..' segment"],
  ];
  it.each(invalid)('rejects %j: %s', (key, reason) => {
    expect(() => validateArtifactKey(key)).toThrow(InvalidArtifactKeyError);
    expect(() => validateArtifactKey(key)).toThrow(reason);
  });

  it('carries the offending key', () => {
    expect(() => validateArtifactKey('../x')).toThrow(
      expect.objectContaining({ key: '../x', name: 'InvalidArtifactKeyError' }),
    );
  });
});

describe('validateArtifactPrefix', () => {
  it.each(['', 'runs', 'runs/', 'runs/1', 'runs/.', '.', 'runs/..x'])('accepts %j', (prefix) =>
    expect(() => validateArtifactPrefix(prefix)).not.toThrow(),
  );

  it.each(['/', '/runs', '../', 'runs/../x', 'runs//', './', 'runs\\1', 'runs/\\', 'runs/\0'])(
    'rejects %j',
    (prefix) => expect(() => validateArtifactPrefix(prefix)).toThrow(InvalidArtifactKeyError),
  );
});

describeArtifactStoreContract('local', async () => new LocalArtifactStore(tempDir()));

describe('LocalArtifactStore', () => {
  let root: string;
  let store: LocalArtifactStore;

  beforeEach(() => {
    root = tempDir();
    store = new LocalArtifactStore(root);
  });

  it('a delete removes the folders it leaves empty, and no others', async () => {
    await store.put('eval_artifacts/r1/nk/metrics.tsv', 'x');
    await store.put('eval_artifacts/r1/lk/metrics.tsv', 'y');
    await store.put('eval_artifacts/r2/nk/metrics.tsv', 'z');
    expect(await store.delete('eval_artifacts/r1/nk/metrics.tsv')).toBe(true);
    expect(existsSync(join(root, 'eval_artifacts', 'r1', 'nk'))).toBe(false);
    expect(existsSync(join(root, 'eval_artifacts', 'r1', 'lk'))).toBe(true);
    expect(await store.delete('eval_artifacts/r1/lk/metrics.tsv')).toBe(true);
    expect(existsSync(join(root, 'eval_artifacts', 'r1'))).toBe(false);
    expect(existsSync(join(root, 'eval_artifacts', 'r2', 'nk'))).toBe(true);
    expect(existsSync(root)).toBe(true);
  });

  it('refuses a relative root', () => {
    expect(() => new LocalArtifactStore('var/artifacts')).toThrow('absolute root');
  });

  const bodies: { name: string; body: () => Buffer | string | { path: string }; expected: Buffer }[] = [
    { name: 'a buffer', body: () => Buffer.from([0, 1, 2, 255]), expected: Buffer.from([0, 1, 2, 255]) },
    { name: 'a string as UTF-8', body: () => 'héllo ✓', expected: Buffer.from('héllo ✓', 'utf8') },
    { name: 'an empty string', body: () => '', expected: Buffer.alloc(0) },
    {
      name: 'a copy of a file',
      body: () => {
        const source = join(tempDir(), 'source.bin');
        writeFileSync(source, 'copied bytes');
        return { path: source };
      },
      expected: Buffer.from('copied bytes'),
    },
  ];
  it.each(bodies)('puts and gets $name', async ({ body, expected }) => {
    const uri = await store.put('runs/42/output.bin', body());

    expect(uri.startsWith('file:///')).toBe(true);
    expect(fileURLToPath(uri)).toBe(join(root, 'runs', '42', 'output.bin'));
    expect(readFileSync(fileURLToPath(uri))).toEqual(expected);
    expect(await store.get('runs/42/output.bin')).toEqual(expected);
    expect(await store.exists('runs/42/output.bin')).toBe(true);
  });

  it('leaves the source of a copied file in place', async () => {
    const source = join(tempDir(), 'input.txt');
    writeFileSync(source, 'keep me');
    await store.put('inputs/input.txt', { path: source });
    expect(readFileSync(source, 'utf8')).toBe('keep me');
  });

  it('encodes unusual characters in the URI and still points at the file', async () => {
    const uri = await store.put('runs/a b/#1 ü.txt', 'x');
    expect(uri).not.toContain(' ');
    expect(fileURLToPath(uri)).toBe(join(root, 'runs', 'a b', '#1 ü.txt'));
  });

  it('maps file:// URIs under its root to keys, and nothing outside it', () => {
    expect(store.keyOf(pathToFileURL(join(root, 'runs', '1', 'a.txt')).href)).toBe('runs/1/a.txt');
    expect(store.keyOf(pathToFileURL(join(root, '..', 'a.txt')).href)).toBeNull();
    expect(store.keyOf(pathToFileURL(root).href)).toBeNull();
    expect(store.keyOf(join(root, 'a.txt'))).toBeNull();
  });

  it('computes url() without touching the disk', () => {
    const nowhere = new LocalArtifactStore(join(root, 'not-created-yet'));
    const uri = nowhere.url('runs/1/result.json');
    expect(uri.startsWith('file:///')).toBe(true);
    expect(fileURLToPath(uri)).toBe(join(root, 'not-created-yet', 'runs', '1', 'result.json'));
    expect(existsSync(join(root, 'not-created-yet'))).toBe(false);
  });

  it('treats a key that names a directory as absent', async () => {
    await store.put('runs/1/result.json', 'x');
    await expect(store.get('runs/1')).rejects.toThrow(ArtifactNotFoundError);
    await expect(store.get('runs/1/result.json/deeper')).rejects.toThrow(ArtifactNotFoundError);
    expect(await store.exists('runs/1')).toBe(false);
    expect(await store.delete('runs/1')).toBe(false);
    expect(existsSync(join(root, 'runs', '1', 'result.json'))).toBe(true);
  });

  describe('list', () => {
    it('lists nothing when the root does not exist yet', async () => {
      expect(await new LocalArtifactStore(join(root, 'absent')).list('')).toEqual([]);
    });

    it('hides in-flight writes', async () => {
      for (const key of ['runs/1/b.json', 'runs/1/a.json']) await store.put(key, key);
      writeFileSync(join(root, 'runs', '1', '.c.json.0f8fad5b-d9cb-469f-a165-70867728950e.partial'), 'half');
      expect(await store.list('runs/1/')).toEqual(['runs/1/a.json', 'runs/1/b.json']);
    });
  });

  describe('atomic put', () => {
    it('leaves no temporary files behind', async () => {
      await store.put('runs/1/a.bin', Buffer.alloc(1024 * 1024, 7));
      await store.put('runs/1/b.txt', 'text');
      await store.put('runs/1/a.bin', 'replaced');
      expect(filesUnder(root)).toEqual(['runs/1/a.bin', 'runs/1/b.txt']);
    });

    it('ends with one whole body when writers race', async () => {
      const contents = Array.from({ length: 12 }, (_, i) => String(i).repeat(64 * 1024));
      await Promise.all(contents.map((body) => store.put('shared/result.txt', body)));
      expect(contents).toContain((await store.get('shared/result.txt')).toString());
      expect(filesUnder(root)).toEqual(['shared/result.txt']);
    });

    it('cleans up and keeps the old artifact when the copy source is missing', async () => {
      await store.put('runs/1/a.txt', 'old');
      await expect(store.put('runs/1/a.txt', { path: join(root, 'no-such-file') })).rejects.toMatchObject({
        code: 'ENOENT',
      });
      expect(filesUnder(root)).toEqual(['runs/1/a.txt']);
      expect((await store.get('runs/1/a.txt')).toString()).toBe('old');
    });
  });

  it('writes nothing outside its root for a key that would leave it', async () => {
    await expect(store.put('../escape.txt', 'x')).rejects.toThrow(InvalidArtifactKeyError);
    expect(existsSync(join(root, '..', 'escape.txt'))).toBe(false);
  });
});

describe('createArtifactStore', () => {
  const base = {
    SVC_DB_URL: 'postgresql://db/svc',
    SVC_AMQP_URL: 'amqp://mq',
    SVC_ARTIFACTS_DIR: 'var/artifacts',
  };
  const complete = {
    SVC_OBJECT_STORE_ENDPOINT: 'http://minio:9000',
    SVC_OBJECT_STORE_ACCESS_KEY: 'access',
    SVC_OBJECT_STORE_SECRET_KEY: 'secret',
  };

  function setup(env: Record<string, string>): {
    store: ReturnType<typeof createArtifactStore>;
    warnings: string[];
    root: string;
  } {
    const root = tempDir();
    const config = loadConfig({ env: { ...base, ...env }, rootDir: root, onWarning: () => undefined });
    const warnings: string[] = [];
    const store = createArtifactStore(config, (message) => warnings.push(message));
    return { store, warnings, root };
  }

  const local: { name: string; env: Record<string, string>; rootUnder: string }[] = [
    { name: 'the artifacts dir by default', env: {}, rootUnder: 'var/artifacts' },
    { name: 'the storage root when set', env: { SVC_STORAGE_ROOT: 'var/store' }, rootUnder: 'var/store' },
    {
      name: 'the local backend even with object store settings',
      env: { ...complete, SVC_STORAGE_BACKEND: 'local' },
      rootUnder: 'var/artifacts',
    },
  ];
  it.each(local)('uses $name', ({ env, rootUnder }) => {
    const { store, warnings, root } = setup(env);
    expect(store).toBeInstanceOf(LocalArtifactStore);
    expect((store as LocalArtifactStore).rootDir).toBe(join(root, rootUnder));
    expect(warnings).toEqual([]);
  });

  const incomplete: { name: string; env: Record<string, string>; missing: string }[] = [
    {
      name: 'minio with nothing set',
      env: { SVC_STORAGE_BACKEND: 'minio' },
      missing: 'SVC_OBJECT_STORE_ENDPOINT, SVC_OBJECT_STORE_ACCESS_KEY, SVC_OBJECT_STORE_SECRET_KEY',
    },
    {
      name: 's3 without a secret key',
      env: { ...complete, SVC_STORAGE_BACKEND: 's3', SVC_OBJECT_STORE_SECRET_KEY: '' },
      missing: 'SVC_OBJECT_STORE_SECRET_KEY',
    },
    {
      name: 'minio without an endpoint, with a storage root',
      env: {
        ...complete,
        SVC_STORAGE_BACKEND: 'minio',
        SVC_OBJECT_STORE_ENDPOINT: '',
        SVC_STORAGE_ROOT: 'var/store',
      },
      missing: 'SVC_OBJECT_STORE_ENDPOINT',
    },
  ];
  it.each(incomplete)('falls back to the local store for $name, with a warning', ({ env, missing }) => {
    const { store, warnings } = setup(env);
    expect(store).toBeInstanceOf(LocalArtifactStore);
    const localRoot = (store as LocalArtifactStore).rootDir;
    expect(warnings).toEqual([
      `object store settings incomplete (missing ${missing}); using the local artifact store at ${localRoot}`,
    ]);
  });

  it.each(['minio', 's3'])('builds the S3 store for a complete %s configuration, without I/O', (backend) => {
    const { store, warnings } = setup({
      ...complete,
      SVC_STORAGE_BACKEND: backend,
      SVC_OBJECT_STORE_BUCKET: 'artifacts',
    });
    expect(store).toBeInstanceOf(S3ArtifactStore);
    expect((store as S3ArtifactStore).endpoint).toBe('http://minio:9000');
    expect(store.url('rerankers/r1/model.txt')).toBe('s3://artifacts/rerankers/r1/model.txt');
    expect(warnings).toEqual([]);
  });

  it.each([
    { endpoint: 'minio:9000', secure: 'false', expected: 'http://minio:9000' },
    { endpoint: 'minio:9000', secure: 'true', expected: 'https://minio:9000' },
    { endpoint: 'http://minio:9000', secure: 'true', expected: 'http://minio:9000' },
    { endpoint: 'https://s3.example.org', secure: 'false', expected: 'https://s3.example.org' },
  ])('takes the scheme of $endpoint (secure=$secure) as $expected', ({ endpoint, secure, expected }) => {
    const { store } = setup({
      ...complete,
      SVC_STORAGE_BACKEND: 's3',
      SVC_OBJECT_STORE_ENDPOINT: endpoint,
      SVC_OBJECT_STORE_SECURE: secure,
    });
    expect((store as S3ArtifactStore).endpoint).toBe(expected);
  });
});
