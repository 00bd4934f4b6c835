import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fetchWithRetry } from './http-json';
import { SourcePolicy } from './source-policy';
import { openSource, readBytes, readLines, readText } from './text-source';

let dir: string;
let server: Server;
let base: string;
const hits: string[] = [];
/** Connections the slow routes keep open, ended after each test. */
const open = new Set<Socket>();

/** Writes `chunk` every `everyMs` until the client goes away. */
function drip(response: ServerResponse, chunk: string, everyMs: number): void {
  open.add(response.socket!);
  response.writeHead(200);
  const timer = setInterval(() => response.write(chunk), everyMs);
  response.once('close', () => clearInterval(timer));
}

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
    else if (request.url?.startsWith('/trickle')) drip(response, 'x', 100);
    else if (request.url === '/endless') drip(response, `${'y'.repeat(1023)}\n`, 50);
    else if (request.url === '/silent') open.add(request.socket);
    else if (request.url === '/to-trickle') response.writeHead(302, { location: '/trickle' }).end();
    else if (request.url === '/plenty') response.end(Buffer.alloc(1024 * 1024, 'z\n'));
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
afterEach(() => {
  for (const socket of open) socket.destroy();
  open.clear();
});

function policy(overrides: Partial<SourcePolicy> = {}): SourcePolicy {
  return {
    allowedRoots: [dir],
    allowedHosts: new Set(['127.0.0.1']),
    baseDir: dir,
    maxLineBytes: 1024,
    maxBytes: 1024 * 1024,
    deadlineMs: 60_000,
    minBytesPerSecond: 0,
    rateWindowMs: 60_000,
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

// Finding 13: a source that trickles held a worker for as long as it liked.
describe('slow http sources', () => {
  /** 1 KiB/s over half-second windows, and 1.5 s for the whole transfer. */
  const slow = (overrides: Partial<SourcePolicy> = {}): SourcePolicy =>
    policy({ deadlineMs: 1500, minBytesPerSecond: 1024, rateWindowMs: 500, ...overrides });

  it('fails a source that sends less than the minimum rate with source_too_slow', async () => {
    const started = Date.now();
    await expect(lines(`${base}/trickle?token=secret`, slow())).rejects.toMatchObject({
      code: 'source_too_slow',
      message: expect.stringMatching(
        new RegExp(
          `^${base}/trickle sent \\d+ bytes in the last 0.5 s, less than 1024 bytes per second \\(SVC_SOURCE_MIN_BYTES_PER_SECOND\\)$`,
        ),
      ),
    });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('fails a source that sends fast but never ends with source_timeout at the deadline', async () => {
    const started = Date.now();
    await expect(
      lines(`http://user:pass@127.0.0.1:${new URL(base).port}/endless`, slow()),
    ).rejects.toMatchObject({
      code: 'source_timeout',
      message: `${base}/endless did not finish within 1.5 s (SVC_SOURCE_DEADLINE_SECONDS)`,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('counts the deadline from the first request: a silent server, or one behind a redirect', async () => {
    await expect(readText(`${base}/silent`, slow())).rejects.toMatchObject({
      code: 'source_timeout',
      message: `${base}/silent did not finish within 1.5 s (SVC_SOURCE_DEADLINE_SECONDS)`,
    });
    await expect(readBytes(`${base}/to-trickle`, slow({ minBytesPerSecond: 0 }))).rejects.toMatchObject({
      code: 'source_timeout',
      message: `${base}/to-trickle did not finish within 1.5 s (SVC_SOURCE_DEADLINE_SECONDS)`,
    });
  });

  it('does not blame the source for a reader that takes its time', async () => {
    const stream = await openSource(
      `${base}/plenty`,
      slow({ deadlineMs: 10_000, minBytesPerSecond: 100 * 1024 * 1024 }),
    );
    let bytes = 0;
    for await (const chunk of stream) {
      bytes += (chunk as Buffer).length;
      // Far slower than the source: its rate, measured while it waits for us, would fail it.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(bytes).toBe(1024 * 1024);
  });

  it('holds fetchWithRetry to the same limits, without retrying a deadline', async () => {
    const started = Date.now();
    await expect(
      fetchWithRetry(`${base}/silent`, slow({ deadlineMs: 1000 }), { baseDelayMs: 2000 }),
    ).rejects.toMatchObject({ code: 'source_timeout' });
    expect(Date.now() - started).toBeLessThan(1900);
    const response = await fetchWithRetry(`${base}/trickle`, slow());
    await expect(response.text()).rejects.toMatchObject({ code: 'source_too_slow' });
  });
});
