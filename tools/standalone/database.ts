import { join } from 'node:path';
import { createDataSource, EmbeddedPostgres, runMigrations, startEmbeddedPostgres } from '@svc/persistence';

/** The embedded cluster lives in `<data dir>/pgdata`; artifacts default to `<data dir>/artifacts`. */
export function standalonePaths(dataDir: string): { pgdata: string; artifacts: string } {
  return { pgdata: join(dataDir, 'pgdata'), artifacts: join(dataDir, 'artifacts') };
}

/** Opens the embedded database at `pgdata` and applies the migrations. */
export async function openStandaloneDatabase(
  pgdata: string,
  port = 0,
  onStall?: (waitedSeconds: number) => void,
): Promise<EmbeddedPostgres> {
  const database = await startEmbeddedPostgres({ dataDir: pgdata, port, onStall });
  const db = createDataSource({ url: database.url, poolSize: 1, applicationName: 'migrate' });
  try {
    await db.initialize();
    await runMigrations(db);
  } catch (error) {
    await database.close();
    throw error;
  } finally {
    if (db.isInitialized) await db.destroy();
  }
  return database;
}
