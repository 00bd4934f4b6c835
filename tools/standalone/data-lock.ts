import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Who holds a standalone cluster: a process, and the address it serves the database on once open. */
export interface DataLockHolder {
  pid: number;
  url: string | null;
}

export interface DataLock {
  /** Records the address the database is served on, for tools that must not open the folder twice. */
  publish(url: string): void;
  release(): void;
}

/**
 * PGlite opens a cluster with no lock of its own (its postmaster.pid names no real process), and two
 * processes writing one cluster corrupt it. This file beside the cluster says who has it open.
 */
export function lockFileOf(pgdata: string): string {
  return `${pgdata}.lock`;
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: DataLockHolder | null,
  ) {
    super(
      holder === null
        ? `the embedded database is locked by ${lockFile}, which names no process; if no standalone process runs, delete that file`
        : `the embedded database is open in process ${holder.pid} (a running standalone service?); ` +
            `stop it first, or delete ${lockFile} if that process is not one`,
    );
  }
}

/** The holder named by the lock file, or null when there is none; an unreadable file names no one. */
export function readDataLock(pgdata: string): DataLockHolder | null {
  let text: string;
  try {
    text = readFileSync(lockFileOf(pgdata), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const holder = parseHolder(text);
  if (holder === null) throw new DataFolderInUseError(lockFileOf(pgdata), null);
  return holder;
}

/** Takes the folder for this process; a lock left by a process that is gone is taken over. */
export function acquireDataLock(
  pgdata: string,
  isAlive: (pid: number) => boolean = isProcessAlive,
): DataLock {
  const file = lockFileOf(pgdata);
  mkdirSync(dirname(file), { recursive: true });
  const write = (url: string | null, flag: 'w' | 'wx'): void =>
    writeFileSync(file, JSON.stringify({ pid: process.pid, url }), { flag });
  // Two rounds: the second follows the removal of a stale lock, and loses to anyone faster.
  for (let round = 0; ; round++) {
    try {
      write(null, 'wx');
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readDataLock(pgdata);
      if (round > 0 || (holder !== null && isAlive(holder.pid))) throw new DataFolderInUseError(file, holder);
      rmSync(file, { force: true });
    }
  }
  const isOurs = (): boolean => {
    try {
      return readDataLock(pgdata)?.pid === process.pid;
    } catch {
      return false;
    }
  };
  return {
    publish: (url) => write(url, 'w'),
    release: () => {
      if (isOurs()) rmSync(file, { force: true });
    },
  };
}

function parseHolder(text: string): DataLockHolder | null {
  try {
    const value = JSON.parse(text) as { pid?: unknown; url?: unknown };
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return { pid: value.pid, url: typeof value.url === 'string' ? value.url : null };
  } catch {
    return null;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
