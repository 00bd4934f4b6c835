import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Repositories } from '@svc/persistence';
import { AppConfig } from '@svc/platform';
import { alignPair, PairFeatures, PairTask } from './pair-alignment';

const REGISTER = resolve(__dirname, '../../../tools/register.js');
const THREAD = resolve(__dirname, 'pair-alignment.thread.ts');

/**
 * Alignment features of (query, reference) sequence pairs, spread over a pool of worker threads
 * (`SVC_PAIR_FEATURE_WORKERS`; 0 or unset with one core aligns in the calling thread) and memoised
 * on disk under `SVC_ALIGN_CACHE_DIR` when set (one small JSON file per sequence pair).
 */
export class PairFeatureService {
  private readonly threads: Worker[] = [];

  constructor(
    private readonly workers: number,
    private readonly cacheDir: string | null,
  ) {}

  async compute(
    repos: Repositories,
    pairs: { query: number; ref: number }[],
  ): Promise<Map<string, PairFeatures>> {
    const out = new Map<string, PairFeatures>();
    const wanted = new Map<string, { query: number; ref: number }>();
    for (const p of pairs) wanted.set(`${p.query}:${p.ref}`, p);
    if (wanted.size === 0) return out;
    const sequences = await repos.referencePools.sequences([
      ...new Set([...wanted.values()].flatMap((p) => [p.query, p.ref])),
    ]);
    const tasks: PairTask[] = [];
    for (const [key, p] of wanted) {
      const query = sequences.get(p.query);
      const ref = sequences.get(p.ref);
      if (query === undefined || ref === undefined) continue;
      const cached = await this.readCache(query, ref);
      if (cached !== null) out.set(key, cached);
      else tasks.push({ key, query, ref });
    }
    const byKey = new Map(tasks.map((t) => [t.key, t]));
    for (const result of await this.run(tasks)) {
      out.set(result.key, result.features);
      const task = byKey.get(result.key)!;
      await this.writeCache(task.query, task.ref, result.features);
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.splice(0).map((t) => t.terminate()));
  }

  private async run(tasks: PairTask[]): Promise<{ key: string; features: PairFeatures }[]> {
    if (tasks.length === 0) return [];
    if (this.workers <= 0) return tasks.map(alignPair);
    while (this.threads.length < this.workers) {
      const thread = new Worker(`require(${JSON.stringify(REGISTER)}); require(${JSON.stringify(THREAD)});`, {
        eval: true,
      });
      thread.unref();
      this.threads.push(thread);
    }
    // Longest pairs first, dealt round-robin, so the threads finish at about the same time.
    const sorted = [...tasks].sort((a, b) => b.query.length * b.ref.length - a.query.length * a.ref.length);
    const shares: PairTask[][] = this.threads.map(() => []);
    sorted.forEach((t, i) => shares[i % shares.length]!.push(t));
    const results = await Promise.all(
      shares.map((share, i) =>
        share.length === 0
          ? Promise.resolve([])
          : new Promise<{ key: string; features: PairFeatures }[]>((done, fail) => {
              const thread = this.threads[i]!;
              const onError = (error: Error): void => {
                thread.off('message', onMessage);
                fail(error);
              };
              const onMessage = (message: { key: string; features: PairFeatures }[]): void => {
                thread.off('error', onError);
                done(message);
              };
              thread.once('message', onMessage);
              thread.once('error', onError);
              thread.postMessage(share);
            }),
      ),
    );
    return results.flat();
  }

  private cachePath(query: string, ref: string): string | null {
    if (this.cacheDir === null) return null;
    const hash = createHash('sha256').update(`nw-sw/blosum62/10/1\n${query}\n${ref}`).digest('hex');
    return join(this.cacheDir, hash.slice(0, 2), `${hash}.json`);
  }

  private async readCache(query: string, ref: string): Promise<PairFeatures | null> {
    const path = this.cachePath(query, ref);
    if (path === null) return null;
    try {
      return JSON.parse(await readFile(path, 'utf8')) as PairFeatures;
    } catch {
      return null;
    }
  }

  private async writeCache(query: string, ref: string, features: PairFeatures): Promise<void> {
    const path = this.cachePath(query, ref);
    if (path === null) return;
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, JSON.stringify(features));
  }
}

let shared: PairFeatureService | null = null;

export function pairFeatureService(config: AppConfig): PairFeatureService {
  shared ??= new PairFeatureService(
    config.pairFeatureWorkers ?? Math.max(0, Math.min(2, cpus().length) - 1),
    config.alignCacheDir,
  );
  return shared;
}
