import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** Which build of the service produced a dataset: its version and, from a git checkout, its commit. */
export interface ProducerInfo {
  version: string | null;
  git_sha: string | null;
}

const ROOT = resolve(__dirname, '../../../../..');

let producer: Promise<ProducerInfo> | null = null;

/** Read by the first export, without blocking the event loop; every later export reuses it. */
export function producerInfo(): Promise<ProducerInfo> {
  return (producer ??= readProducerInfo());
}

async function readProducerInfo(): Promise<ProducerInfo> {
  const version = await readFile(join(ROOT, 'package.json'), 'utf8')
    .then((text) => (JSON.parse(text) as { version?: string }).version ?? null)
    .catch(() => null);
  const gitSha = await promisify(execFile)('git', ['rev-parse', 'HEAD'], { cwd: ROOT })
    .then(({ stdout }) => stdout.trim() || null)
    .catch(() => null);
  return { version, git_sha: gitSha };
}
