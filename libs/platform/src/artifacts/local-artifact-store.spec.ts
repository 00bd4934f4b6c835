import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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
import { describeArtifactStoreContract } from '../../testing/artifact-store.contract';
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

  // Finding 14: a link planted in the store (by whoever can write to its folder) must not let a
  // read, a listing, a delete or a write reach a file outside it.
  describe('symbolic links', () => {
    let outside: string;

    beforeEach(async () => {
      outside = tempDir();
      writeFileSync(join(outside, 'passwd'), 'root:x:0:0\n');
      await store.put('runs/1/real.txt', 'stored');
      // A link to a file outside, a folder link to a folder outside, and a link to a stored file.
      symlinkSync(join(outside, 'passwd'), join(root, 'runs', '1', 'file-link.txt'));
      symlinkSync(outside, join(root, 'runs', 'folder-link'));
      symlinkSync(join(root, 'runs', '1', 'real.txt'), join(root, 'runs', '1', 'inner-link.txt'));
      symlinkSync(join(root, 'runs', '1'), join(root, 'runs', 'inner-folder-link'));
    });

    const links = [
      'runs/1/file-link.txt',
      'runs/folder-link/passwd',
      'runs/1/inner-link.txt',
      'runs/inner-folder-link/real.txt',
    ];

    it.each(links)('reads %s like a missing artifact, without saying where it points', async (key) => {
      for (const read of [() => store.get(key), () => store.open(key)]) {
        const error = await read().then(
          () => null,
          (e: unknown) => e as Error,
        );
        expect(error).toBeInstanceOf(ArtifactNotFoundError);
        expect(error!.message).toBe(`artifact ${JSON.stringify(key)} not found`);
        expect(error!.message).not.toContain(outside);
      }
      expect(await store.exists(key)).toBe(false);
    });

    it.each(links)('deletes nothing through %s', async (key) => {
      expect(await store.delete(key)).toBe(false);
      expect(readFileSync(join(outside, 'passwd'), 'utf8')).toBe('root:x:0:0\n');
      expect((await store.get('runs/1/real.txt')).toString()).toBe('stored');
    });

    it('still reads the stored file itself', async () => {
      expect((await store.get('runs/1/real.txt')).toString()).toBe('stored');
      expect(await store.exists('runs/1/real.txt')).toBe(true);
    });

    it('lists neither links nor what a linked folder holds', async () => {
      expect(await store.list('runs/')).toEqual(['runs/1/real.txt']);
      expect(await store.list('runs/folder-link/')).toEqual([]);
      expect(await store.list('runs/inner-folder-link/')).toEqual([]);
    });

    it('refuses to write into a linked folder, and replaces a file link by a stored file', async () => {
      await expect(store.put('runs/folder-link/new.txt', 'x')).rejects.toThrow('a folder of it is a link');
      expect(readdirSync(outside)).toEqual(['passwd']);
      await store.put('runs/1/file-link.txt', 'own');
      expect((await store.get('runs/1/file-link.txt')).toString()).toBe('own');
      expect(readFileSync(join(outside, 'passwd'), 'utf8')).toBe('root:x:0:0\n');
    });

    it('reads through a root that is itself a link (the root is configuration, not a stored key)', async () => {
      const linkedRoot = join(tempDir(), 'artifacts');
      symlinkSync(root, linkedRoot);
      const viaLink = new LocalArtifactStore(linkedRoot);
      expect((await viaLink.get('runs/1/real.txt')).toString()).toBe('stored');
      await expect(viaLink.get('runs/1/file-link.txt')).rejects.toThrow(ArtifactNotFoundError);
      expect(realpathSync(linkedRoot)).toBe(realpathSync(root));
    });

    it('treats a named pipe as no artifact instead of waiting for a writer', async () => {
      mkdirSync(join(root, 'pipes'));
      execFileSync('mkfifo', [join(root, 'pipes', 'fifo')]);
      await expect(store.get('pipes/fifo')).rejects.toThrow(ArtifactNotFoundError);
      await expect(store.open('pipes/fifo')).rejects.toThrow(ArtifactNotFoundError);
      expect(await store.exists('pipes/fifo')).toBe(false);
    });
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
