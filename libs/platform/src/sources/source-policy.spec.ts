import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config/load-config';
import {
  admitSource,
  checkSource,
  SourcePolicy,
  sourcePolicyOf,
  SourceStore,
  withAllowedRoot,
} from './source-policy';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'source-policy-')));
  root = join(base, 'allowed');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'go.obo'), 'format-version: 1.2\n');
  writeFileSync(join(root, 'sub', 'inner.txt'), 'inner');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'escape.txt'));
  symlinkSync(outside, join(root, 'escape-dir'));
  symlinkSync(join(root, 'sub', 'inner.txt'), join(root, 'inside-link.txt'));
  symlinkSync(root, join(base, 'root-link'));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const store: SourceStore = {
  keyOf: (uri) => (uri.startsWith('s3://svc-artifacts/') ? uri.slice('s3://svc-artifacts/'.length) : null),
  open: () => Promise.resolve(Readable.from([])),
};

function policy(overrides: Partial<SourcePolicy> = {}): SourcePolicy {
  return {
    allowedRoots: [root],
    allowedHosts: new Set(['mirror.internal', '10.1.2.3']),
    baseDir: root,
    maxLineBytes: 1024 * 1024,
    maxBytes: 1024 ** 3,
    deadlineMs: 60_000,
    minBytesPerSecond: 0,
    rateWindowMs: 60_000,
    store,
    ...overrides,
  };
}

describe('admitSource: files', () => {
  it.each([
    {
      name: 'an absolute path under a root',
      source: () => join(root, 'go.obo'),
      path: () => join(root, 'go.obo'),
    },
    {
      name: 'a file:// URL under a root',
      source: () => pathToFileURL(join(root, 'go.obo')).href,
      path: () => join(root, 'go.obo'),
    },
    {
      name: 'a relative path (against the data folder)',
      source: () => 'sub/inner.txt',
      path: () => join(root, 'sub', 'inner.txt'),
    },
    {
      name: 'a symlink that stays inside the root',
      source: () => join(root, 'inside-link.txt'),
      path: () => join(root, 'sub', 'inner.txt'),
    },
    {
      name: 'a path through a root given as a symlink',
      source: () => join(base, 'root-link', 'go.obo'),
      path: () => join(root, 'go.obo'),
    },
  ])('admits $name', async ({ source, path }) => {
    const roots = [root, join(base, 'root-link')];
    expect(await admitSource(source(), policy({ allowedRoots: roots }))).toEqual({
      kind: 'file',
      path: path(),
    });
  });

  const refused = [
    { name: 'an existing file outside the roots', source: () => join(outside, 'secret.txt') },
    { name: 'a missing file outside the roots', source: () => join(outside, 'absent.txt') },
    { name: 'a path that climbs out with ..', source: () => `${root}/../outside/secret.txt` },
    { name: 'a relative path that climbs out', source: () => '../outside/secret.txt' },
    { name: 'a symlink in the root to a file outside it', source: () => join(root, 'escape.txt') },
    {
      name: 'a path through a symlinked folder outside the root',
      source: () => join(root, 'escape-dir', 'secret.txt'),
    },
    { name: '/etc/passwd', source: () => '/etc/passwd' },
    { name: 'file:///etc/passwd', source: () => 'file:///etc/passwd' },
  ];
  it.each(refused)('refuses $name with source_not_allowed, naming the setting', async ({ source }) => {
    const error = await admitSource(source(), policy()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'source_not_allowed' });
    const message = (error as Error).message;
    expect(message).toContain('SVC_SOURCE_ALLOWED_ROOTS');
    expect(message).toContain('POST /v1/sources');
    expect(message).not.toMatch(/no such|not found|not a file|exist/i);
  });

  it('answers an existing and a missing refused file with the same words', async () => {
    const messageOf = (source: string): Promise<string> =>
      admitSource(source, policy()).then(
        () => 'admitted',
        (e: Error) => e.message,
      );
    const existing = await messageOf(join(outside, 'secret.txt'));
    const missing = await messageOf(join(outside, 'nothing.txt'));
    expect(existing.replace('secret.txt', 'X')).toBe(missing.replace('nothing.txt', 'X'));
  });

  it('refuses every file while no root is set, saying so', async () => {
    await expect(admitSource(join(root, 'go.obo'), policy({ allowedRoots: [] }))).rejects.toMatchObject({
      code: 'source_not_allowed',
      message: expect.stringContaining('reading files is turned off (SVC_SOURCE_ALLOWED_ROOTS is empty)'),
    });
  });

  it('reports a missing file under a root as source_not_found', async () => {
    await expect(admitSource(join(root, 'nope.obo'), policy())).rejects.toMatchObject({
      code: 'source_not_found',
    });
  });

  it('skips the look at the file system when asked (the gateway), still refusing by the path', async () => {
    expect(await admitSource(join(root, 'nope.obo'), policy(), { inspectFiles: false })).toEqual({
      kind: 'file',
      path: join(root, 'nope.obo'),
    });
    await expect(
      admitSource(join(outside, 'secret.txt'), policy(), { inspectFiles: false }),
    ).rejects.toMatchObject({ code: 'source_not_allowed' });
  });

  it('allows one configured file outside the roots with withAllowedRoot', async () => {
    const file = join(outside, 'secret.txt');
    expect(await admitSource(file, withAllowedRoot(policy(), file))).toEqual({ kind: 'file', path: file });
    await expect(
      admitSource(join(outside, 'other.txt'), withAllowedRoot(policy(), file)),
    ).rejects.toMatchObject({
      code: 'source_not_allowed',
    });
  });
});

describe('admitSource: URLs', () => {
  it.each([
    'http://127.0.0.1/x',
    'http://2130706433/x',
    'http://0x7f000001/x',
    'http://017700000001/x',
    'http://127.1/x',
    'http://[::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/x',
    'http://172.16.0.1/x',
    'http://192.168.1.1/x',
    'http://100.64.0.1/x',
    'http://[fc00::1]/x',
    'http://[fe80::1]/x',
    'http://0.0.0.0/x',
    'https://[ff02::1]/x',
  ])('refuses %s with source_not_allowed, naming SVC_SOURCE_ALLOWED_HOSTS', async (url) => {
    await expect(admitSource(url, policy())).rejects.toMatchObject({
      code: 'source_not_allowed',
      message: expect.stringContaining('SVC_SOURCE_ALLOWED_HOSTS'),
    });
  });

  it.each([
    { url: 'https://8.8.8.8/x', checkDns: false },
    { url: 'https://[2606:4700::1]/x', checkDns: false },
    { url: 'https://rest.uniprot.org/x', checkDns: true },
    { url: 'http://MIRROR.internal:8080/x', checkDns: false },
    { url: 'http://10.1.2.3/x', checkDns: false },
    { url: 'http://167838211/x', checkDns: false },
  ])('admits $url (DNS checked: $checkDns)', async ({ url, checkDns }) => {
    expect(await admitSource(url, policy())).toMatchObject({ kind: 'http', checkDns });
  });

  it.each(['ftp://example.org/x', 'gopher://example.org/', 's3://someone-else/x', 'file://server/share/x'])(
    'refuses %s as unsupported',
    async (url) => {
      await expect(admitSource(url, policy())).rejects.toMatchObject({ code: 'unsupported_source' });
    },
  );

  it('always admits URIs the artifact store issued', async () => {
    expect(await admitSource('s3://svc-artifacts/sources/1/go.obo', policy({ allowedRoots: [] }))).toEqual({
      kind: 'artifact',
      key: 'sources/1/go.obo',
      store,
    });
  });
});

describe('checkSource', () => {
  it('refuses a host name that resolves to a loopback address', async () => {
    await expect(checkSource('http://localhost:9/x', policy())).rejects.toMatchObject({
      code: 'source_not_allowed',
      message: expect.stringContaining('resolves to a loopback address'),
    });
  });

  it('lets a host that does not resolve through, for the reader to report', async () => {
    await expect(checkSource('http://no-such-host.invalid/x', policy())).resolves.toBeUndefined();
  });

  it('does not look at files (the gateway may not see the workers’ disk)', async () => {
    await expect(checkSource(join(root, 'not-yet-there.obo'), policy())).resolves.toBeUndefined();
  });
});

describe('sourcePolicyOf', () => {
  it('adds the UniProt and QuickGO hosts of the settings to the allowed hosts', () => {
    const config = loadConfig({
      env: {
        SVC_DB_URL: 'postgresql://db/svc',
        SVC_AMQP_URL: 'amqp://mq',
        SVC_ARTIFACTS_DIR: base,
        SVC_SOURCE_ALLOWED_HOSTS: 'Mirror.Example.org,[::1]',
        SVC_SOURCE_ALLOWED_ROOTS: `${root},${outside}`,
        SVC_UNIPROT_BASE_URL: 'http://127.0.0.1:9999',
      },
      rootDir: base,
      onWarning: () => undefined,
    });
    const made = sourcePolicyOf(config, null);
    expect([...made.allowedHosts].sort()).toEqual([
      '127.0.0.1',
      '::1',
      'mirror.example.org',
      'www.ebi.ac.uk',
    ]);
    expect(made.allowedRoots).toEqual([root, outside]);
    expect(made.maxLineBytes).toBe(1024 * 1024);
    expect(made.maxBytes).toBe(20 * 1024 ** 3);
  });
});
