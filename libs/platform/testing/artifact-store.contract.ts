import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  ArtifactNotFoundError,
  ArtifactStore,
  InvalidArtifactKeyError,
} from '../src/artifacts/artifact-store';

/**
 * The behaviour every artifact backend shares (specification, "Artifact storage"), run by each
 * backend's own spec against a fresh, empty store.
 */
export function describeArtifactStoreContract(
  backend: ArtifactStore['backend'],
  freshStore: () => Promise<ArtifactStore>,
): void {
  describe(`ArtifactStore contract (${backend})`, () => {
    let store: ArtifactStore;
    const sources: string[] = [];

    beforeEach(async () => {
      store = await freshStore();
    });

    afterAll(() => {
      for (const dir of sources.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    it('reports its backend', () => expect(store.backend).toBe(backend));

    const bodies: { name: string; body: () => Buffer | string | { path: string }; expected: Buffer }[] = [
      { name: 'a buffer', body: () => Buffer.from([0, 1, 2, 255]), expected: Buffer.from([0, 1, 2, 255]) },
      { name: 'a string as UTF-8', body: () => 'héllo ✓', expected: Buffer.from('héllo ✓', 'utf8') },
      { name: 'an empty string', body: () => '', expected: Buffer.alloc(0) },
      {
        name: 'a copy of a file',
        body: () => {
          const dir = mkdtempSync(join(tmpdir(), 'artifact-source-'));
          sources.push(dir);
          writeFileSync(join(dir, 'source.bin'), 'copied bytes');
          return { path: join(dir, 'source.bin') };
        },
        expected: Buffer.from('copied bytes'),
      },
    ];
    it.each(bodies)('puts and gets $name', async ({ body, expected }) => {
      const uri = await store.put('runs/42/output.bin', body());
      expect(uri).toBe(store.url('runs/42/output.bin'));
      expect(await store.get('runs/42/output.bin')).toEqual(expected);
      expect(await store.exists('runs/42/output.bin')).toBe(true);
    });

    it('round-trips a large binary body intact', async () => {
      const body = Buffer.alloc(5 * 1024 * 1024);
      for (let i = 0; i < body.length; i += 1) body[i] = (i * 31 + 7) & 0xff;
      await store.put('big/blob.bin', body);
      expect((await store.get('big/blob.bin')).equals(body)).toBe(true);
    });

    it('streams a body larger than one upload part in (putStream) and out (open)', async () => {
      const body = Buffer.alloc(9 * 1024 * 1024);
      for (let i = 0; i < body.length; i += 1) body[i] = (i * 17 + 3) & 0xff;
      const chunks = Array.from({ length: 9 }, (_, i) =>
        body.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024),
      );
      const uri = await store.putStream('streams/big.bin', Readable.from(chunks));
      expect(uri).toBe(store.url('streams/big.bin'));
      const read: Buffer[] = [];
      for await (const chunk of await store.open('streams/big.bin')) read.push(chunk as Buffer);
      expect(Buffer.concat(read).equals(body)).toBe(true);
      await store.putStream('streams/small.txt', Readable.from([Buffer.from('small')]));
      expect((await store.get('streams/small.txt')).toString()).toBe('small');
    });

    it('leaves nothing behind when the stream of putStream fails', async () => {
      const failing = Readable.from(
        (async function* () {
          yield Buffer.alloc(6 * 1024 * 1024, 1);
          yield Buffer.alloc(6 * 1024 * 1024, 2);
          throw new Error('the client went away');
        })(),
      );
      await expect(store.putStream('streams/broken.bin', failing)).rejects.toThrow('the client went away');
      expect(await store.exists('streams/broken.bin')).toBe(false);
      expect(await store.list('streams/')).toEqual([]);
    });

    it('open throws ArtifactNotFoundError for a missing key', async () => {
      await expect(store.open('runs/404/result.json')).rejects.toThrow(ArtifactNotFoundError);
    });

    it('replaces an existing artifact', async () => {
      await store.put('runs/1/result.json', '{"v":1}');
      await store.put('runs/1/result.json', '{"v":2}');
      expect((await store.get('runs/1/result.json')).toString()).toBe('{"v":2}');
    });

    it('maps its own URIs back to keys and refuses others', async () => {
      const key = 'runs/a b/#1 ü.txt';
      const uri = await store.put(key, 'x');
      expect(store.keyOf(uri)).toBe(key);
      expect(store.keyOf('https://example.org/runs/1.txt')).toBeNull();
      expect(store.keyOf('s3://another-bucket/runs/1.txt')).toBeNull();
      expect(store.keyOf('file:///elsewhere/runs/1.txt')).toBeNull();
    });

    it('throws ArtifactNotFoundError for a missing key', async () => {
      await expect(store.get('runs/404/result.json')).rejects.toThrow(ArtifactNotFoundError);
      await expect(store.get('runs/404/result.json')).rejects.toMatchObject({ key: 'runs/404/result.json' });
    });

    it('reports existence', async () => {
      expect(await store.exists('a/b.txt')).toBe(false);
      await store.put('a/b.txt', 'x');
      expect(await store.exists('a/b.txt')).toBe(true);
      expect(await store.exists('a')).toBe(false);
    });

    it('deletes idempotently: true, then false', async () => {
      await store.put('a/b.txt', 'x');
      expect(await store.delete('a/b.txt')).toBe(true);
      expect(await store.delete('a/b.txt')).toBe(false);
      expect(await store.exists('a/b.txt')).toBe(false);
      await expect(store.get('a/b.txt')).rejects.toThrow(ArtifactNotFoundError);
      expect(await store.delete('never/there.txt')).toBe(false);
    });

    describe('list', () => {
      const keys = [
        'runs/1/a.json',
        'runs/1/b.json',
        'runs/10/c.json',
        'runs/2/d.json',
        'other/x.txt',
        'top.txt',
      ];

      beforeEach(async () => {
        // Written out of order so the sort is the store's doing.
        for (const key of [...keys].reverse()) await store.put(key, key);
      });

      const cases: { prefix: string; expected: string[] }[] = [
        { prefix: '', expected: [...keys].sort() },
        { prefix: 'runs/', expected: ['runs/1/a.json', 'runs/1/b.json', 'runs/10/c.json', 'runs/2/d.json'] },
        { prefix: 'runs/1/', expected: ['runs/1/a.json', 'runs/1/b.json'] },
        { prefix: 'runs/1', expected: ['runs/1/a.json', 'runs/1/b.json', 'runs/10/c.json'] },
        { prefix: 'runs/1/a', expected: ['runs/1/a.json'] },
        { prefix: 'runs/1/a.json', expected: ['runs/1/a.json'] },
        { prefix: 't', expected: ['top.txt'] },
        { prefix: 'missing/', expected: [] },
        { prefix: 'top.txt/', expected: [] },
      ];
      it.each(cases)('lists keys under $prefix', async ({ prefix, expected }) => {
        expect(await store.list(prefix)).toEqual(expected);
      });

      it('rejects a malformed prefix', async () => {
        await expect(store.list('../')).rejects.toThrow(InvalidArtifactKeyError);
      });
    });

    describe('key validation', () => {
      const operations: { name: string; run: (s: ArtifactStore) => Promise<unknown> }[] = [
        { name: 'put', run: (s) => s.put('../escape.txt', 'x') },
        { name: 'get', run: (s) => s.get('../escape.txt') },
        { name: 'open', run: (s) => s.open('../escape.txt') },
        { name: 'putStream', run: (s) => s.putStream('../escape.txt', Readable.from([])) },
        { name: 'exists', run: (s) => s.exists('../escape.txt') },
        { name: 'delete', run: (s) => s.delete('../escape.txt') },
      ];
      it.each(operations)('$name rejects a key that leaves the root', async ({ run }) => {
        await expect(run(store)).rejects.toThrow(InvalidArtifactKeyError);
      });

      it('url rejects a bad key synchronously', () => {
        expect(() => store.url('/etc/passwd')).toThrow(InvalidArtifactKeyError);
      });
    });
  });
}
