import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDataSource, DataSource, EmbeddedPostgres } from '@svc/persistence';
import { loadConfig } from '@svc/platform';
import { chooseMode } from '../start/run-mode';
import { openStandaloneDatabase, standalonePaths } from '../standalone/database';
import { DataFolderInUseError, lockFileOf } from '../standalone/data-lock';

/** Where an account goes: where `npm start` would keep it, or a standalone data folder (`--standalone [DIR]`). */
export type UserDatabaseChoice = { kind: 'by-mode' } | { kind: 'standalone'; dataDir: string | null };

export type UserDatabaseTarget =
  | { mode: 'services'; why: string }
  | { mode: 'standalone'; why: string; dataDir: string }
  | { mode: 'error'; message: string };

/** A database could not be opened for a reason the person can act on (the message says how). */
export class UserDatabaseError extends Error {}

/**
 * `--standalone [DIR]` decides; otherwise the mode `npm start` would pick from the same settings
 * (SVC_MODE, SVC_DB_URL/SVC_AMQP_URL, then whether PostgreSQL or RabbitMQ answers locally).
 */
export async function resolveUserDatabase(input: {
  choice: UserDatabaseChoice;
  setting: (name: string) => string | undefined;
  probe?: (port: number) => Promise<boolean>;
  standaloneDataDir: () => string;
}): Promise<UserDatabaseTarget> {
  const { choice } = input;
  if (choice.kind === 'standalone') {
    const dataDir = choice.dataDir === null ? input.standaloneDataDir() : resolve(choice.dataDir);
    return { mode: 'standalone', why: '--standalone', dataDir };
  }
  const picked = await chooseMode({ setting: input.setting, probe: input.probe });
  if (picked.error !== undefined) return { mode: 'error', message: picked.error };
  return picked.mode === 'services'
    ? { mode: 'services', why: picked.why }
    : { mode: 'standalone', why: picked.why, dataDir: input.standaloneDataDir() };
}

export interface UserDatabase {
  db: DataSource;
  /** Which database this is, for the person at the terminal; null in the services mode (unchanged output). */
  description: string | null;
  close(): Promise<void>;
}

/** Opens the target's database: the configured PostgreSQL, or a standalone folder's embedded one. */
export async function openUserDatabase(
  target: Exclude<UserDatabaseTarget, { mode: 'error' }>,
): Promise<UserDatabase> {
  if (target.mode === 'services') {
    const db = await connect(loadConfig().dbUrl);
    return { db, description: null, close: () => db.destroy() };
  }
  return openStandaloneFolder(target.dataDir, `mode: standalone (${target.why})`);
}

/**
 * PGlite is one session in one process: when the standalone service has the folder open, the
 * account goes through the database it serves (the lock file names its address); otherwise this
 * process opens the folder, and holds it until done.
 */
async function openStandaloneFolder(dataDir: string, mode: string): Promise<UserDatabase> {
  const { pgdata } = standalonePaths(dataDir);
  if (!existsSync(join(pgdata, 'PG_VERSION')))
    throw new UserDatabaseError(
      `no standalone data in ${dataDir}: start the standalone mode there once (npm start), or name another folder with --standalone DIR`,
    );
  const folder = `${mode}; adding to the standalone data folder ${dataDir}`;
  let database: EmbeddedPostgres;
  try {
    database = await openStandaloneDatabase(pgdata);
  } catch (error) {
    if (!(error instanceof DataFolderInUseError) || error.holder === null) throw error;
    return throughRunningService(error.holder, pgdata, folder);
  }
  try {
    const db = await connect(database.url);
    return {
      db,
      description: folder,
      async close() {
        await db.destroy();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function throughRunningService(
  holder: { pid: number; url: string | null },
  pgdata: string,
  folder: string,
): Promise<UserDatabase> {
  if (holder.url === null)
    throw new UserDatabaseError(
      `the standalone service (process ${holder.pid}) is opening ${pgdata}; try again once it is ready`,
    );
  let db: DataSource;
  try {
    db = await connect(holder.url);
  } catch (error) {
    throw new UserDatabaseError(
      `process ${holder.pid} holds ${lockFileOf(pgdata)}, but its database at ${holder.url} does not answer ` +
        `(${(error as Error).message}); if no standalone service runs, delete that file`,
    );
  }
  return {
    db,
    description: `${folder} through the database of the running standalone service (process ${holder.pid})`,
    close: () => db.destroy(),
  };
}

async function connect(url: string): Promise<DataSource> {
  const db = createDataSource({ url, poolSize: 1, applicationName: 'user-add' });
  await db.initialize();
  return db;
}
