import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReferencePool } from '@svc/persistence';
import { PoolDiskCache } from './pool-disk-cache';

describe('PoolDiskCache', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pool-cache-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pool: ReferencePool = {
    proteins: [
      { accession: 'P1', canonicalAccession: 'P1', sequenceId: 1 },
      { accession: 'P2-2', canonicalAccession: 'P2', sequenceId: 2 },
    ],
    dimensions: 3,
    vectors: Float32Array.from([0.5, -1, 2, 3.25, 0, -0.125]),
    annotations: [
      [{ goTermId: 7, goId: 'GO:0000007', aspect: 'F', qualifier: null, evidenceCode: 'IDA' }],
      [],
    ],
  };

  it('reads back exactly what it wrote, by key', async () => {
    const cache = new PoolDiskCache(dir);
    expect(await cache.read('k1')).toBeNull();
    await cache.write('k1', pool);
    const back = await cache.read('k1');
    expect(back).toEqual(pool);
    expect(await cache.read('k2')).toBeNull();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('treats a damaged file as a miss', async () => {
    const cache = new PoolDiskCache(dir);
    await cache.write('k1', pool);
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), Buffer.from([1, 2, 3]));
    expect(await cache.read('k1')).toBeNull();
  });
});
