import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginInfo } from '@svc/contracts';

/** The package.json key under which a package declares plugins, by registry group. */
export const PLUGIN_MANIFEST_KEY = 'svc-plugins';

async function readJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function asPlugin(entry: unknown, packageName: string): PluginInfo | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const e = entry as Record<string, unknown>;
  if (typeof e['name'] !== 'string' || e['name'] === '') return null;
  return {
    name: e['name'],
    cls: typeof e['cls'] === 'string' ? e['cls'] : '',
    module: typeof e['module'] === 'string' ? e['module'] : packageName,
    extra:
      typeof e['extra'] === 'object' && e['extra'] !== null ? (e['extra'] as Record<string, unknown>) : {},
  };
}

/**
 * Plugins of one group declared by the packages the project depends on: each dependency's
 * package.json may hold `"svc-plugins": {"<group>": [{name, cls, module, extra}]}`. Read on every
 * call (no cache), so installing or removing a package shows at the next request. Unreadable or
 * malformed manifests are skipped.
 */
export async function discoverPlugins(rootDir: string, group: string): Promise<PluginInfo[]> {
  const root = await readJson(join(rootDir, 'package.json'));
  if (root === null) return [];
  const names = new Set<string>();
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = root[field];
    if (typeof deps === 'object' && deps !== null) for (const name of Object.keys(deps)) names.add(name);
  }
  const found: PluginInfo[] = [];
  for (const name of [...names].sort()) {
    const manifest = await readJson(join(rootDir, 'node_modules', name, 'package.json'));
    const declared = (manifest?.[PLUGIN_MANIFEST_KEY] as Record<string, unknown> | undefined)?.[group];
    if (!Array.isArray(declared)) continue;
    for (const entry of declared) {
      const plugin = asPlugin(entry, name);
      if (plugin !== null) found.push(plugin);
    }
  }
  return found;
}
