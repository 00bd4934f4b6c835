import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type HomologyHit } from '@svc/domain';
import { hitsOfText } from '@svc/inference';

/**
 * Where a search-ahead step leaves each batch's DIAMOND hits for its batch step (docs/scaling.md,
 * "One search per job"): `<artifacts>/work/search-ahead/<prediction set>/<batch key>.tsv`, on the
 * volume the workers share with the DIAMOND database cache. The step that scores a batch reads its
 * file and deletes it once its writes are sent; a batch that finds no file (another volume, a
 * redelivery after the delete) searches for itself. Paths are made here from a set id and a batch
 * key, never taken from a message.
 */
const ROOT = ['work', 'search-ahead'];

/** A folder whose files nobody took for this long (a cancelled or failed job's) is removed. */
export const SEARCH_AHEAD_MAX_AGE_MS = 24 * 3600 * 1000;

const SAFE = /^[A-Za-z0-9_-]+$/;

function folderOf(artifactsDir: string, setId: string): string {
  if (!SAFE.test(setId)) throw new Error(`not a prediction set id: ${setId}`);
  return join(artifactsDir, ...ROOT, setId);
}

function fileOf(artifactsDir: string, setId: string, batch: string): string {
  if (!SAFE.test(batch)) throw new Error(`not a batch key: ${batch}`);
  return join(folderOf(artifactsDir, setId), `${batch}.tsv`);
}

/**
 * Runs `search` with a work folder of its own for DIAMOND's files, inside the set's folder (on the
 * shared volume, not the container's own disk), removed when it ends.
 */
export async function withSearchAheadWorkDir<T>(
  artifactsDir: string,
  setId: string,
  search: (workDir: string) => Promise<T>,
): Promise<T> {
  const dir = join(
    folderOf(artifactsDir, setId),
    `run-${process.pid}-${Math.random().toString(36).slice(2)}`,
  );
  await mkdir(dir, { recursive: true });
  try {
    return await search(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Leaves one batch's tabular hits for its batch step; a reader never sees a partial file. */
export async function putSearchedHits(
  artifactsDir: string,
  setId: string,
  batch: string,
  text: string,
): Promise<void> {
  const file = fileOf(artifactsDir, setId, batch);
  await mkdir(folderOf(artifactsDir, setId), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, text);
  await rename(partial, file);
}

/** The batch's hits if a search-ahead step left them, by query id; undefined to search itself. */
export async function searchedHits(
  artifactsDir: string,
  setId: string,
  batch: string,
): Promise<Map<string, HomologyHit[]> | undefined> {
  try {
    return hitsOfText(await readFile(fileOf(artifactsDir, setId, batch), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Drops the batch's hits once its rows are on their way. The set's folder stays (another search of
 * the same set may be writing into it) until `sweepSearchAhead` finds it old.
 */
export async function dropSearchedHits(artifactsDir: string, setId: string, batch: string): Promise<void> {
  await rm(fileOf(artifactsDir, setId, batch), { force: true });
}

/**
 * Removes set folders untouched for `SEARCH_AHEAD_MAX_AGE_MS`: emptied ones, and hits nobody took
 * (their job was cancelled or failed).
 */
export async function sweepSearchAhead(artifactsDir: string, now = Date.now()): Promise<number> {
  const root = join(artifactsDir, ...ROOT);
  const names = await readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const folder = join(root, name);
    const info = await stat(folder).catch(() => null);
    if (info === null || now - info.mtimeMs < SEARCH_AHEAD_MAX_AGE_MS) continue;
    await rm(folder, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
