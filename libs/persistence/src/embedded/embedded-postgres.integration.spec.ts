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
  const stalls: number[] = [];

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
      const [row] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM schema_migrations`);
      expect(row?.n).toBe(applied.length);
      const [uuid] = await db.query<{ id: string }[]>(`SELECT gen_random_uuid()::text AS id`);
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

  it('keeps a statement whose message spans many socket reads apart from the others', async () => {
    const connections = await Promise.all([connect(), connect(), connect(), connect()]);
    const big = 'x'.repeat(2_000_000);
    const results = await Promise.all(
      connections.map(async (client, k) => {
        const rows: unknown[] = [];
        for (let i = 0; i < 30; i += 1) {
          const result =
            k === 0
              ? await client.query('SELECT length($1::text) AS big, $2::int AS i', [big, i])
              : await client.query(`SELECT $1::text AS v${k}, $2::int AS i`, [`value-${k}-${i}`, i]);
          rows.push(result.rows[0]);
        }
        return rows;
      }),
    );
    results.forEach((rows, k) =>
      rows.forEach((row, i) =>
        expect(row).toEqual(k === 0 ? { big: 2_000_000, i } : { [`v${k}`]: `value-${k}-${i}`, i }),
      ),
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
    database = await startEmbeddedPostgres({
      dataDir: join(dir, 'pgdata'),
      onStall: (seconds) => stalls.push(seconds),
      stallSeconds: 0.2,
    });
    const b = await connect();
    expect((await b.query<{ n: number }>('SELECT n FROM kept')).rows).toEqual([{ n: 42 }]);
  });

  it('reports a connection that waits too long for the session', async () => {
    const a = await connect();
    const b = await connect();
    stalls.length = 0;
    await a.query('BEGIN');
    const waiting = b.query('SELECT 1');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stalls).toEqual([0.2]);
    await a.query('COMMIT');
    await waiting;
    expect(stalls).toEqual([0.2]);
  });
});
