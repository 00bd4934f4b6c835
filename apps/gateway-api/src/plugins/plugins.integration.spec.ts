import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

interface Listing {
  group: string;
  plugins: { name: string; cls: string; module: string; extra: Record<string, unknown> }[];
}

/** Writes an installed package with a plugin manifest into `root/node_modules`. */
function installPackage(root: string, name: string, manifest: Record<string, unknown>): void {
  const dir = join(root, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
}

describe('plugin registry: built-ins plus plugins declared by installed packages', () => {
  let gateway: Gateway;
  let api: HttpClient;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'svc-plugins-'));
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({
        name: 'host',
        dependencies: { 'svc-plugin-fixture': '1.0.0', 'plain-package': '1.0.0' },
      }),
    );
    installPackage(root, 'plain-package', {});
    gateway = await createGateway(testConfig({ SVC_PLUGIN_ROOT: root }));
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists the built-in runners, embedding backends and annotation sources', async () => {
    const runners = await api.get<Listing>('/v1/runners');
    expect(runners.body.group).toBe('runners');
    expect(runners.body.plugins.map((p) => p.name)).toEqual(['baseline', 'knn', 'boosted_tree']);
    const backends = await api.get<Listing>('/v1/embedding-backends');
    expect(backends.body.plugins.map((p) => p.name)).toEqual(['kmer', 'esm', 't5', 'ankh']);
    const sources = await api.get<Listing>('/annotation-sources');
    expect(sources.body.plugins.map((p) => p.name)).toEqual(['goa', 'quickgo', 'uniprot']);
    expect(sources.body.plugins.every((p) => typeof p.extra['version'] === 'string')).toBe(true);
  });

  it('discovers a package installed after start at the next call, and drops it once removed', async () => {
    installPackage(root, 'svc-plugin-fixture', {
      'svc-plugins': {
        embedding_backends: [
          {
            name: 'prott5-lite',
            cls: 'LiteBackend',
            module: 'svc-plugin-fixture/backend',
            extra: { dim: 512 },
          },
        ],
        runners: [{ name: 'ensemble', cls: 'EnsembleRunner' }, { nameless: true }],
      },
    });
    const backends = await api.get<Listing>('/v1/embedding-backends');
    expect(backends.body.plugins.at(-1)).toEqual({
      name: 'prott5-lite',
      cls: 'LiteBackend',
      module: 'svc-plugin-fixture/backend',
      extra: { dim: 512 },
    });
    const runners = await api.get<Listing>('/v1/runners');
    expect(runners.body.plugins.map((p) => p.name)).toEqual(['baseline', 'knn', 'boosted_tree', 'ensemble']);
    expect(runners.body.plugins.at(-1)!.module).toBe('svc-plugin-fixture');
    rmSync(join(root, 'node_modules', 'svc-plugin-fixture'), { recursive: true });
    expect((await api.get<Listing>('/v1/runners')).body.plugins).toHaveLength(3);
  });
});
