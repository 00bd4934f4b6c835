import { randomUUID } from 'node:crypto';
import { constants, createWriteStream, Dirent, Stats } from 'node:fs';
import {
  copyFile,
  FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ArtifactNotFoundError,
  ArtifactStore,
  validateArtifactKey,
  validateArtifactPrefix,
  validKeyOrNull,
} from './artifact-store';

// In-flight writes sit next to their target so the final rename stays on one file system; list() hides them.
const TEMP_FILE_RE = /^\..+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.partial$/;

/**
 * Codes meaning "no artifact at this key", including a key whose path runs through or onto a
 * directory, and (ELOOP, from O_NOFOLLOW) onto a symbolic link.
 */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP']);

/**
 * Opens a stored file for reading without following a symbolic link in its last component, and
 * without waiting for a writer when the path is a named pipe (which then fails as no file).
 */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What a key that is no stored file (a folder, or a symbolic link) fails with: like a missing one. */
function notAFile(): Error {
  return Object.assign(new Error('not a stored file'), { code: 'ENOENT' });
}

// Checked by shape, not `instanceof Error`: errors from node:fs can come from another realm (as under Jest).
function isMissing(error: unknown): boolean {
  const code: unknown =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && MISSING_CODES.has(code);
}

/**
 * Artifacts as plain files under one directory, a key's segments becoming nested directories.
 * The store follows no symbolic link below its root (docs/security.md, "Sources: what the server
 * reads"): a key whose path runs through or onto a link is no artifact; it reads, lists and
 * deletes like a missing one, and a write into a linked folder is refused.
 */
export class LocalArtifactStore implements ArtifactStore {
  readonly backend = 'local' as const;
  readonly rootDir: string;

  constructor(rootDir: string) {
    // A relative root would silently follow the process's working directory.
    if (!isAbsolute(rootDir))
      throw new Error(`the local artifact store needs an absolute root, got '${rootDir}'`);
    this.rootDir = resolve(rootDir);
  }

  async put(key: string, body: Buffer | string | { path: string }): Promise<string> {
    return this.write(key, async (temp) => {
      if (typeof body === 'string' || Buffer.isBuffer(body)) await writeFile(temp, body);
      else await copyFile(body.path, temp);
    });
  }

  async putStream(key: string, body: Readable): Promise<string> {
    return this.write(key, (temp) => pipeline(body, createWriteStream(temp)));
  }

  /** Readers see the old artifact or the new one, never a half-written file. */
  private async write(key: string, fill: (temp: string) => Promise<void>): Promise<string> {
    const target = this.pathOf(key);
    const dir = dirname(target);
    await mkdir(dir, { recursive: true });
    // mkdir follows links: a folder of the key that is a link would take the file out of the store.
    if (!(await this.isUnlinked(key.split('/').slice(0, -1), dir)))
      throw new Error(`the artifact store refuses to write ${JSON.stringify(key)}: a folder of it is a link`);
    const temp = join(dir, `.${basename(target)}.${randomUUID()}.partial`);
    try {
      await fill(temp);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return this.url(key);
  }

  async get(key: string): Promise<Buffer> {
    const handle = await this.openStored(key);
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async open(key: string): Promise<Readable> {
    // Opened here, so that a missing artifact is this call's error and not the stream's.
    return (await this.openStored(key)).createReadStream();
  }

  /**
   * The stored file of `key`, opened for reading, or ArtifactNotFoundError. The last component is
   * opened with O_NOFOLLOW; then the path, with every link resolved, must be the key's own path
   * under the (resolved) root, and name the very file that was opened, so a link anywhere below
   * the root, also one swapped in while the file was opened, fails like a missing artifact. The
   * error never says where a link points.
   */
  private async openStored(key: string): Promise<FileHandle> {
    const path = this.pathOf(key);
    let handle: FileHandle | undefined;
    try {
      handle = await open(path, READ_FLAGS);
      const opened = await handle.stat();
      if (!opened.isFile()) throw notAFile();
      const real = await this.storedFile(key, path);
      if (real === null || real.dev !== opened.dev || real.ino !== opened.ino) throw notAFile();
      return handle;
    } catch (error) {
      await handle?.close();
      if (isMissing(error)) throw new ArtifactNotFoundError(key);
      throw error;
    }
  }

  /**
   * The file of `key` when nothing on its path below the root is a symbolic link (its lstat), or
   * null: a link, a folder, or nothing there.
   */
  private async storedFile(key: string, path = this.pathOf(key)): Promise<Stats | null> {
    try {
      if (!(await this.isUnlinked(key.split('/'), path))) return null;
      const info = await lstat(path);
      return info.isFile() ? info : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** True when `path`, the folders or file `segments` below the root, resolves to itself: no link on the way. */
  private async isUnlinked(segments: readonly string[], path: string): Promise<boolean> {
    const realRoot = await realpath(this.rootDir);
    return (await realpath(path)) === join(realRoot, ...segments);
  }

  url(key: string): string {
    return pathToFileURL(this.pathOf(key)).href;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.storedFile(key)) !== null;
  }

  // Empty parent directories are left in place: removing them could race a concurrent put into them.
  async delete(key: string): Promise<boolean> {
    // A directory is not an artifact, and unlink() on one fails differently per platform; a link is
    // none either, and a linked folder would have the unlink remove a file outside the store.
    if (!(await this.exists(key))) return false;
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      // Someone else deleted it between the check and the unlink.
      if (isMissing(error)) return false;
      throw error;
    }
    await this.removeEmptyFolders(key);
    return true;
  }

  /** Folders exist only for the keys under them (as on S3): the ones a delete leaves empty go too. */
  private async removeEmptyFolders(key: string): Promise<void> {
    const segments = key.split('/').slice(0, -1);
    while (segments.length > 0) {
      try {
        await rmdir(join(this.rootDir, ...segments));
      } catch {
        // Not empty (or already gone): the folders above it are not empty either.
        return;
      }
      segments.pop();
    }
  }

  async list(prefix: string): Promise<string[]> {
    validateArtifactPrefix(prefix);
    const lastSlash = prefix.lastIndexOf('/');
    const keyDir = lastSlash === -1 ? '' : prefix.slice(0, lastSlash);
    const namePrefix = prefix.slice(lastSlash + 1);
    const start = keyDir === '' ? this.rootDir : join(this.rootDir, ...keyDir.split('/'));
    const keys: string[] = [];
    // A linked folder on the prefix would list files outside the store (links below it are skipped).
    try {
      if (!(await this.isUnlinked(keyDir === '' ? [] : keyDir.split('/'), start))) return [];
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    await collectKeys(start, keyDir, namePrefix, keys);
    return keys.sort();
  }

  keyOf(uri: string): string | null {
    if (!/^file:\/\//i.test(uri)) return null;
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return null;
    }
    const rel = relative(this.rootDir, path);
    if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return null;
    return validKeyOrNull(rel.split(sep).join('/'));
  }

  private pathOf(key: string): string {
    validateArtifactKey(key);
    return join(this.rootDir, ...key.split('/'));
  }
}

/** Walks `dir`, whose key is `keyDir`, adding every file key; only entries starting with `namePrefix` at the top. */
async function collectKeys(dir: string, keyDir: string, namePrefix: string, out: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.name.startsWith(namePrefix)) continue;
    const key = keyDir === '' ? entry.name : `${keyDir}/${entry.name}`;
    if (entry.isDirectory()) await collectKeys(join(dir, entry.name), key, '', out);
    else if (entry.isFile() && !TEMP_FILE_RE.test(entry.name)) out.push(key);
  }
}
