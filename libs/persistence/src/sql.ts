import type { PoolClient } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

export type Db = DataSource | EntityManager;

/** Runs one statement and returns its rows, whatever the statement kind (SELECT, UPDATE ... RETURNING). */
export async function queryRows<T>(db: Db, text: string, params: unknown[] = []): Promise<T[]> {
  const borrowed = db instanceof DataSource ? undefined : db.queryRunner;
  const runner: QueryRunner = borrowed ?? (db instanceof DataSource ? db : db.connection).createQueryRunner();
  try {
    const result = await runner.query(text, params, true);
    return result.records as T[];
  } finally {
    if (borrowed === undefined) await runner.release();
  }
}

/**
 * Runs one SELECT and returns its rows as arrays of PostgreSQL's own text for each value (NULL stays
 * null): no per-value parsing and no row objects, for streams that only print what they read.
 */
export async function queryTextRows(
  db: Db,
  text: string,
  params: unknown[] = [],
): Promise<(string | null)[][]> {
  const borrowed = db instanceof DataSource ? undefined : db.queryRunner;
  const runner: QueryRunner = borrowed ?? (db instanceof DataSource ? db : db.connection).createQueryRunner();
  try {
    const client = (await runner.connect()) as PoolClient;
    const result = await client.query<(string | null)[]>({
      text,
      values: params,
      rowMode: 'array',
      types: { getTypeParser: () => (value: string) => value },
    });
    return result.rows;
  } finally {
    if (borrowed === undefined) await runner.release();
  }
}

/**
 * A number column's PostgreSQL text as JavaScript prints the same number (`String(n)`), so a file
 * written from text rows matches one written from parsed rows: PostgreSQL and JavaScript both print
 * the shortest round-trip digits and differ only in when they switch to exponent notation
 * (`5e-05` against `0.00005`) and in `-0`. NaN and infinities, which a TSV cell leaves empty, give null.
 */
export function jsNumberText(text: string | null): string | null {
  if (text === null) return null;
  if (!text.includes('e') && text !== '-0' && text !== 'NaN' && !text.endsWith('Infinity')) return text;
  const value = Number(text);
  return Number.isFinite(value) ? String(value) : null;
}

export async function queryOne<T>(db: Db, text: string, params: unknown[] = []): Promise<T | null> {
  const rows = await queryRows<T>(db, text, params);
  return rows[0] ?? null;
}

/** A timestamptz column as an ISO 8601 UTC string with microseconds, so `after` cursors are exact. */
/**
 * Makes the transaction `tx` wait for any other transaction holding the same `key` (a
 * transaction-scoped advisory lock), so writers of one name take turns.
 */
export async function takeTurns(tx: Db, key: string): Promise<void> {
  await queryRows(tx, `SELECT pg_advisory_xact_lock(hashtext($1))`, [key]);
}

export function isoColumn(column: string, alias = column): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ${alias}`;
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as {
    code?: string;
    constraint?: string;
    driverError?: { code?: string; constraint?: string };
  };
  const code = e.code ?? e.driverError?.code;
  const name = e.constraint ?? e.driverError?.constraint;
  return code === '23505' && name === constraint;
}
