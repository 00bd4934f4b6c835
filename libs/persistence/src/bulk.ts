import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource, QueryRunner } from 'typeorm';
import { Db, queryRows } from './sql';

export interface BulkColumn {
  name: string;
  /** PostgreSQL type of the column, used for the array cast (text, int, bool, uuid, date, jsonb...). */
  type: string;
}

/**
 * Multi-row INSERT through `unnest` of one array per column: one statement and one round trip per
 * chunk whatever the number of rows, far faster than row-by-row inserts for bulk loads.
 */
export async function bulkInsert<T = Record<string, unknown>>(
  db: Db,
  options: {
    table: string;
    columns: BulkColumn[];
    rows: unknown[][];
    returning?: string;
    onConflict?: string;
    chunkSize?: number;
  },
): Promise<T[]> {
  const { rows, ...rest } = options;
  return bulkInsertColumns<T>(db, {
    ...rest,
    values: options.columns.map((_, column) => rows.map((row) => row[column] ?? null)),
  });
}

/** `bulkInsert` of rows already held column by column: `values[c][r]` is row r's value of column c. */
export async function bulkInsertColumns<T = Record<string, unknown>>(
  db: Db,
  options: {
    table: string;
    columns: BulkColumn[];
    values: unknown[][];
    returning?: string;
    onConflict?: string;
    chunkSize?: number;
  },
): Promise<T[]> {
  const out: T[] = [];
  const chunkSize = options.chunkSize ?? 5000;
  const count = options.values[0]?.length ?? 0;
  const names = options.columns.map((c) => (c.name === 'end' ? '"end"' : c.name)).join(', ');
  const unnest = options.columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
  const sql = `INSERT INTO ${options.table} (${names}) SELECT * FROM unnest(${unnest}) ${options.onConflict ?? ''} ${
    options.returning ? `RETURNING ${options.returning}` : ''
  }`;
  for (let start = 0; start < count; start += chunkSize) {
    const params = options.values.map((column) =>
      column.slice(start, start + chunkSize).map((value) => value ?? null),
    );
    const rows = await queryRows<T>(db, sql, params);
    if (options.returning) out.push(...rows);
  }
  return out;
}

/** A COPY ... FROM STDIN in progress: rows go in as they come, `finish` ends it and reports its failure. */
export interface CopyWriter {
  write(rows: readonly (readonly unknown[])[]): Promise<void>;
  finish(): Promise<void>;
}

const copySupport = new WeakMap<object, Promise<boolean>>();

/** Whether the server takes COPY FROM STDIN (PGlite, the embedded engine, does not); asked once per data source. */
function supportsCopy(db: Db): Promise<boolean> {
  const source = db instanceof DataSource ? db : db.connection;
  let known = copySupport.get(source);
  if (known === undefined) {
    known = queryRows<{ version: string }>(db, 'SELECT version() AS version').then(
      (rows) => !(rows[0]?.version ?? '').includes('PGlite'),
    );
    copySupport.set(source, known);
  }
  return known;
}

/** One value in COPY's text format: NULL as \N, booleans as t/f, and the four escapes of text. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint')
    throw new TypeError(`a COPY value is text, a number or a boolean, not ${typeof value}`);
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

/**
 * Opens `COPY table (columns) FROM STDIN` on the connection of `db` (inside its transaction when it has
 * one): the fastest way PostgreSQL takes rows, about twice the rate of `bulkInsert` for wide rows. No
 * other statement may run on that connection until `finish`.
 */
export async function copyInto(db: Db, table: string, columns: readonly BulkColumn[]): Promise<CopyWriter> {
  // The standalone mode's embedded PostgreSQL (PGlite behind a wire-protocol shim) has no COPY FROM
  // STDIN: there the rows go in through `bulkInsert`, in the same transaction.
  if (!(await supportsCopy(db)))
    return {
      write: async (rows) => {
        if (rows.length > 0)
          await bulkInsert(db, { table, columns: [...columns], rows: rows.map((r) => [...r]) });
      },
      finish: () => Promise.resolve(),
    };
  const borrowed = db instanceof DataSource ? undefined : db.queryRunner;
  const runner: QueryRunner = borrowed ?? (db instanceof DataSource ? db : db.connection).createQueryRunner();
  const client = (await runner.connect()) as PoolClient;
  const names = columns.map((c) => (c.name === 'end' ? '"end"' : c.name)).join(', ');
  const stream = client.query(copyFrom(`COPY ${table} (${names}) FROM STDIN`));
  // Set when PostgreSQL refuses the COPY; read after every await (an object, so the check is not narrowed away).
  const state: { failure: Error | null } = { failure: null };
  const check = (): void => {
    if (state.failure !== null) throw state.failure;
  };
  const done = finished(stream).catch((error: unknown) => {
    state.failure = error instanceof Error ? error : new Error(String(error));
  });
  const release = async (): Promise<void> => {
    if (borrowed === undefined) await runner.release();
  };
  return {
    async write(rows) {
      check();
      if (rows.length === 0) return;
      let text = '';
      for (const row of rows) text += `${row.map(copyText).join('\t')}\n`;
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), done]);
      check();
    },
    async finish() {
      stream.end();
      await done;
      await release();
      check();
    },
  };
}
