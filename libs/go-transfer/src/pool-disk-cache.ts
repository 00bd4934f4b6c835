import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReferencePool } from '@svc/persistence';

/**
 * Reference pools on disk, one file per content key (config, annotation set, aspect, donor rule and
 * the data version), so a restarted worker or a second worker on the host skips the database load.
 * Layout: 4-byte little-endian header length, the JSON header (proteins, annotations, dimensions),
 * then the float32 matrix. A file is written under a temporary name and renamed, so readers never
 * see half a file; an unreadable file is treated as a miss.
 */
export class PoolDiskCache {
  constructor(private readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex')}.pool`);
  }

  async read(key: string): Promise<ReferencePool | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path(key));
    } catch {
      return null;
    }
    try {
      const headerLength = bytes.readUInt32LE(0);
      const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString('utf8')) as Omit<
        ReferencePool,
        'vectors'
      >;
      const start = 4 + headerLength;
      const copy = new Uint8Array(bytes.length - start);
      copy.set(bytes.subarray(start));
      const vectors = new Float32Array(copy.buffer);
      if (vectors.length !== header.proteins.length * header.dimensions) return null;
      return { ...header, vectors };
    } catch {
      return null;
    }
  }

  async write(key: string, pool: ReferencePool): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const header = Buffer.from(
      JSON.stringify({ proteins: pool.proteins, annotations: pool.annotations, dimensions: pool.dimensions }),
    );
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    const target = this.path(key);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(
      temporary,
      Buffer.concat([
        length,
        header,
        Buffer.from(pool.vectors.buffer, pool.vectors.byteOffset, pool.vectors.byteLength),
      ]),
    );
    await rename(temporary, target);
  }
}
