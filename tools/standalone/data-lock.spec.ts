import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataLock, DataFolderInUseError, lockFileOf, readDataLock } from './data-lock';

describe('the standalone data folder lock', () => {
  let dir: string;
  let pgdata: string;
  const alive = (): boolean => true;
  const gone = (): boolean => false;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-lock-'));
    pgdata = join(dir, 'pgdata');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is a file beside the cluster that names this process, then the served address, and goes on release', () => {
    const lock = acquireDataLock(pgdata);
    expect(lockFileOf(pgdata)).toBe(`${pgdata}.lock`);
    expect(readDataLock(pgdata)).toEqual({ pid: process.pid, url: null });
    lock.publish('postgres://postgres@127.0.0.1:5555/postgres');
    expect(readDataLock(pgdata)).toEqual({
      pid: process.pid,
      url: 'postgres://postgres@127.0.0.1:5555/postgres',
    });
    lock.release();
    expect(existsSync(lockFileOf(pgdata))).toBe(false);
    expect(readDataLock(pgdata)).toBeNull();
  });

  it('refuses a folder held by a live process, naming the process, its address and the lock file', () => {
    writeFileSync(lockFileOf(pgdata), JSON.stringify({ pid: 4242, url: 'postgres://x' }));
    let refusal: unknown;
    try {
      acquireDataLock(pgdata, alive);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataFolderInUseError);
    expect(refusal).toMatchObject({
      holder: { pid: 4242, url: 'postgres://x' },
      lockFile: lockFileOf(pgdata),
    });
    expect((refusal as Error).message).toContain('process 4242');
    expect((refusal as Error).message).toContain(lockFileOf(pgdata));
  });

  it('takes over the lock of a process that is gone (a crash or a kill -9)', () => {
    writeFileSync(lockFileOf(pgdata), JSON.stringify({ pid: 4242, url: 'postgres://x' }));
    const lock = acquireDataLock(pgdata, gone);
    expect(readDataLock(pgdata)).toEqual({ pid: process.pid, url: null });
    lock.release();
  });

  it('treats an unreadable lock file as held, since it cannot tell who holds it', () => {
    writeFileSync(lockFileOf(pgdata), 'not json');
    expect(() => acquireDataLock(pgdata, gone)).toThrow(DataFolderInUseError);
  });

  it('leaves a lock that another process took over alone on release', () => {
    const lock = acquireDataLock(pgdata);
    writeFileSync(lockFileOf(pgdata), JSON.stringify({ pid: 4242, url: null }));
    lock.release();
    expect(JSON.parse(readFileSync(lockFileOf(pgdata), 'utf8'))).toEqual({ pid: 4242, url: null });
  });
});
