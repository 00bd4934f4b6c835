import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fetchWithRetry } from './http-json';
import { SourcePolicy } from './source-policy';
import { readBytes, readLines, readText } from './text-source';

let dir: string;
let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'text-source-')));
  writeFileSync(join(dir, 'plain.txt'), 'a\r\nb\nc');
  writeFileSync(join(dir, 'lines.txt.gz'), gzipSync('one\ntwo\r\nthree\n'));
  writeFileSync(join(dir, 'named-plain.gz'), 'not gzip after all\n');
  // 4 MiB of short lines, compressed to a few KiB.
  writeFileSync(join(dir, 'bomb.gz'), gzipSync(Buffer.alloc(4 * 1024 * 1024, `${'x'.repeat(63)}\n`)));
  writeFileSync(join(dir, 'broken.gz'), Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7]));
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const port = (server.address() as AddressInfo).port;
    if (request.url === '/lines') response.end('x\ny\n');
    else if (request.url === '/hop') response.writeHead(302, { location: '/lines' }).end();
    else if (request.url === '/to-localhost')
      response.writeHead(301, { location: `http://localhost:${port}/lines` }).end();
    else if (request.url === '/to-metadata')
      response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => hits.splice(0));

function policy(overrides: Partial<SourcePolicy> = {}): SourcePolicy {
  return {
    allowedRoots: [dir],
    allowedHosts: new Set(['127.0.0.1']),
    baseDir: dir,
    maxLineBytes: 1024,
    maxBytes: 1024 * 1024,
    store: null,
    ...overrides,
  };
}

async function lines(source: string, p: SourcePolicy = policy()): Promise<string[]> {
  const out: string[] = [];
  for await (const line of readLines(source, p)) out.push(line);
  return out;
}

describe('readLines', () => {
  it('reads LF and CR LF lines of a plain file', async () => {
    expect(await lines('plain.txt')).toEqual(['a', 'b', 'c']);
  });

  it('decompresses gzip by its magic bytes, not its name', async () => {
    expect(await lines('lines.txt.gz')).toEqual(['one', 'two', 'three']);
    expect(await lines('named-plain.gz')).toEqual(['not gzip after all']);
  });

  it('stops a decompression bomb at the decompressed size limit', async () => {
    await expect(lines('bomb.gz')).rejects.toMatchObject({
      code: 'source_too_large',
      message: 'the source holds more than 1048576 bytes (limit: SVC_SOURCE_MAX_BYTES)',
    });
  });

  it('reports a broken gzip as corrupt_source', async () => {
    await expect(lines('broken.gz')).rejects.toMatchObject({ code: 'corrupt_source' });
  });

  it('reads an allowed host and follows its redirects', async () => {
    expect(await lines(`${base}/hop`)).toEqual(['x', 'y']);
    expect(hits).toEqual(['/hop', '/lines']);
  });

  it('checks every redirect hop: a redirect to a host that resolves to loopback is refused', async () => {
    await expect(lines(`${base}/to-localhost`)).rejects.toMatchObject({ code: 'source_not_allowed' });
    await expect(lines(`${base}/to-metadata`)).rejects.toMatchObject({ code: 'source_not_allowed' });
    expect(hits).toEqual(['/to-localhost', '/to-metadata']);
  });

  it('never connects to a refused source', async () => {
    const closed = policy({ allowedHosts: new Set() });
    await expect(lines(`${base}/lines`, closed)).rejects.toMatchObject({ code: 'source_not_allowed' });
    const port = new URL(base).port;
    await expect(lines(`http://localhost:${port}/lines`, closed)).rejects.toMatchObject({
      code: 'source_not_allowed',
    });
    await expect(lines(`http://2130706433:${port}/lines`, closed)).rejects.toMatchObject({
      code: 'source_not_allowed',
    });
    expect(hits).toEqual([]);
  });

  it('answers 404 as source_not_found', async () => {
    await expect(lines(`${base}/missing`)).rejects.toMatchObject({ code: 'source_not_found' });
  });
});

describe('readText and readBytes', () => {
  it('read whole files under the same limits', async () => {
    expect(await readText('lines.txt.gz', policy())).toBe('one\ntwo\r\nthree\n');
    await expect(readText('bomb.gz', policy())).rejects.toMatchObject({ code: 'source_too_large' });
    await expect(readBytes('plain.txt', policy({ maxBytes: 4 }))).rejects.toMatchObject({
      code: 'source_too_large',
    });
  });

  it('readBytes keeps gzip as stored', async () => {
    const bytes = await readBytes('lines.txt.gz', policy());
    expect(bytes[0]).toBe(0x1f);
    expect(bytes[1]).toBe(0x8b);
  });
});

describe('fetchWithRetry', () => {
  it('answers a fetch Response with the final URL after redirects', async () => {
    const response = await fetchWithRetry(`${base}/hop`, policy());
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${base}/lines`);
    expect(await response.text()).toBe('x\ny\n');
  });

  it('fails a refused source at once, without retries', async () => {
    const started = Date.now();
    await expect(
      fetchWithRetry(`${base}/lines`, policy({ allowedHosts: new Set() }), { baseDelayMs: 2000 }),
    ).rejects.toMatchObject({ code: 'source_not_allowed' });
    // The first retry would come after 2 s: anything under that proves there was none.
    expect(Date.now() - started).toBeLessThan(1900);
    expect(hits).toEqual([]);
  });
});
