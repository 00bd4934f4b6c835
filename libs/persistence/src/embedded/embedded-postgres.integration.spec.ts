import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDataSource, runMigrations } from '../data-source';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

// The standalone mode's database: PGlite behind the wire protocol, shared by many pg connections.

jest.setTimeout(120_000);

describe('embedded PostgreSQL over the wire protocol', () => {
  let dir: string;
  let database: EmbeddedPostgres;
  const clients: Client[] = [];

  const connect = async (): Promise<Client> => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-pglite-'));
    database = await startEmbeddedPostgres({ dataDir: join(dir, 'pgdata') });
  });

  afterAll(async () => {
    for (const client of clients) await client.end().catch(() => undefined);
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration of the service', async () => {
    const db = createDataSource({ url: database.url, poolSize: 2 });
    await db.initialize();
    try {
      const applied = await runMigrations(db);
      expect(applied.length).toBeGreaterThan(0);
      const [row] = (await db.query(`SELECT count(*)::int AS n FROM schema_migrations`)) as { n: number }[];
      expect(row?.n).toBe(applied.length);
      const [uuid] = (await db.query(`SELECT gen_random_uuid()::text AS id`)) as { id: string }[];
      expect(uuid?.id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await db.destroy();
    }
  });

  it("runs one connection's transaction alone: another connection waits for its commit and never sees it half done", async () => {
    const a = await connect();
    const b = await connect();
    await a.query('CREATE TABLE IF NOT EXISTS iso (n int)');
    await a.query('BEGIN');
    await a.query('INSERT INTO iso VALUES (1)');
    let bDone = false;
    const bCount = b.query<{ n: number }>('SELECT count(*)::int AS n FROM iso').then((r) => {
      bDone = true;
      return r.rows[0]?.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bDone).toBe(false);
    await a.query('INSERT INTO iso VALUES (2)');
    await a.query('COMMIT');
    expect(await bCount).toBe(2);
  });

  it('keeps parameterised statements of many connections apart', async () => {
    const connections = await Promise.all([connect(), connect(), connect(), connect()]);
    // Each connection sends its statements one after another; the four streams interleave.
    const perConnection = await Promise.all(
      connections.map(async (client, k) => {
        const rows: { v: string; w: number }[] = [];
        for (let i = 0; i < 50; i += 1) {
          const result = await client.query<{ v: string; w: number }>(
            'SELECT $1::text AS v, $2::int * 2 AS w',
            [`value-${k}-${i}`, i],
          );
          rows.push(result.rows[0]!);
        }
        return rows;
      }),
    );
    perConnection.forEach((rows, k) =>
      rows.forEach((row, i) => expect(row).toEqual({ v: `value-${k}-${i}`, w: i * 2 })),
    );
  });

  it('rolls back what a vanished connection left open, and the others carry on', async () => {
    const a = await connect();
    await a.query('CREATE TABLE IF NOT EXISTS gone (n int)');
    const doomed = new Client({ connectionString: database.url });
    doomed.on('error', () => undefined);
    await doomed.connect();
    await doomed.query('BEGIN');
    await doomed.query('INSERT INTO gone VALUES (1)');
    (doomed as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const after = await a.query<{ n: number }>('SELECT count(*)::int AS n FROM gone');
    expect(after.rows[0]?.n).toBe(0);
  });

  it('keeps the data in its folder across a restart', async () => {
    const a = await connect();
    await a.query('CREATE TABLE IF NOT EXISTS kept (n int)');
    await a.query('INSERT INTO kept VALUES (42)');
    for (const client of clients.splice(0)) await client.end();
    await database.close();
    database = await startEmbeddedPostgres({ dataDir: join(dir, 'pgdata') });
    const b = await connect();
    expect((await b.query<{ n: number }>('SELECT n FROM kept')).rows).toEqual([{ n: 42 }]);
  });
});
