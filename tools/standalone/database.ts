import { join } from 'node:path';
import { createDataSource, EmbeddedPostgres, runMigrations, startEmbeddedPostgres } from '@svc/persistence';
import { acquireDataLock } from './data-lock';

/** The embedded cluster lives in `<data dir>/pgdata`; artifacts default to `<data dir>/artifacts`. */
export function standalonePaths(dataDir: string): { pgdata: string; artifacts: string } {
  return { pgdata: join(dataDir, 'pgdata'), artifacts: join(dataDir, 'artifacts') };
}

/**
 * Opens the embedded database at `pgdata` and applies the migrations. The folder is locked to this
 * process until `close` (DataFolderInUseError when another process has it open), and the lock names
 * the address the database is served on.
 */
export async function openStandaloneDatabase(
  pgdata: string,
  port = 0,
  onStall?: (waitedSeconds: number) => void,
): Promise<EmbeddedPostgres> {
  const lock = acquireDataLock(pgdata);
  let database: EmbeddedPostgres;
  try {
    database = await startEmbeddedPostgres({ dataDir: pgdata, port, onStall });
  } catch (error) {
    lock.release();
    throw error;
  }
  const close = async (): Promise<void> => {
    try {
      await database.close();
    } finally {
      lock.release();
    }
  };
  const db = createDataSource({ url: database.url, poolSize: 1, applicationName: 'migrate' });
  try {
    await db.initialize();
    await runMigrations(db);
  } catch (error) {
    await close();
    throw error;
  } finally {
    if (db.isInitialized) await db.destroy();
  }
  lock.publish(database.url);
  return { ...database, close };
}
