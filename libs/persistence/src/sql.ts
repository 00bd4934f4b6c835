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

export async function queryOne<T>(db: Db, text: string, params: unknown[] = []): Promise<T | null> {
  const rows = await queryRows<T>(db, text, params);
  return rows[0] ?? null;
}

/** A timestamptz column as an ISO 8601 UTC string with microseconds, so `after` cursors are exact. */
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
