import { Client } from 'pg';
import { DataSource } from 'typeorm';

function splitUrl(url: string): { adminUrl: string; database: string } {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return { adminUrl: admin.toString(), database };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Creates the database named in the URL when it does not exist yet; true when it was created. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const { adminUrl, database } = splitUrl(url);
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 1) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(database)}`);
    } catch (error) {
      // Another process created it between the check and the CREATE.
      if ((error as { code?: string }).code !== '42P04') throw error;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}

/** Drops the database named in the URL, closing its open connections. */
export async function dropDatabase(url: string): Promise<void> {
  const { adminUrl, database } = splitUrl(url);
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Whether the database answers a trivial query (the readiness check). */
export async function pingDatabase(db: Pick<DataSource, 'query'>): Promise<void> {
  await db.query('SELECT 1');
}
