import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { AppConfig } from './app-config';

/**
 * The optional benchmark config file (YAML or JSON) as parsed, read at each use so an edit applies
 * without a restart; null when no file is configured or it does not exist (the defaults apply).
 */
export async function readBenchmarkConfigFile(config: AppConfig): Promise<unknown> {
  if (config.benchmarkConfigPath === null) return null;
  try {
    return parse(await readFile(config.benchmarkConfigPath, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
