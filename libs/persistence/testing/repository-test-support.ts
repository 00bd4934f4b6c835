import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainError } from '@svc/contracts';
import { createDataSource, runMigrations } from '../src/data-source';
import { dropDatabase, ensureDatabase } from '../src/database-admin';

// Shared by the repository tests of this library (spec files only; not exported by the library).
// They cannot use @svc/testing, which depends on this library.

/** The test run's database, created and migrated by the integration tests' global setup. */
export function runDatabaseUrl(): string {
  const run = process.env['SVC_TEST_RUN'];
  if (run === undefined) throw new Error('SVC_TEST_RUN is not set: run integration tests through jest');
  return (JSON.parse(run) as { dbUrl: string }).dbUrl;
}

/**
 * Opens the run's database before this file's (or describe block's) tests, then runs `setup`;
 * after them runs `teardown` and closes it.
 */
export function useRunDatabase(
  setup: (db: DataSource) => void | Promise<void>,
  options: { poolSize?: number; teardown?: (db: DataSource) => Promise<void> } = {},
): void {
  let db: DataSource | undefined;
  beforeAll(async () => {
    db = createDataSource({ url: runDatabaseUrl(), poolSize: options.poolSize ?? 2 });
    await db.initialize();
    await setup(db);
  });
  afterAll(async () => {
    if (db !== undefined && options.teardown !== undefined) await options.teardown(db);
    await db?.destroy();
  });
}

/** The DomainError a call fails with; anything else (or success) fails the test. */
export async function domainError(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

/**
 * A migrated database of the test's own beside the run's, for readers that count or replace whole
 * tables; `close` drops it.
 */
export async function openOwnDatabase(label: string): Promise<{ db: DataSource; close(): Promise<void> }> {
  const parsed = new URL(runDatabaseUrl());
  parsed.pathname = `${parsed.pathname}_${label}_${randomBytes(3).toString('hex')}`;
  const url = parsed.toString();
  await ensureDatabase(url);
  const db = createDataSource({ url, poolSize: 2 });
  await db.initialize();
  await runMigrations(db);
  return {
    db,
    async close() {
      await db.destroy();
      await dropDatabase(url);
    },
  };
}

/** Opens a database of the test's own (`openOwnDatabase`) before the block's tests, then runs `setup`; drops it after. */
export function useOwnDatabase(label: string, setup: (db: DataSource) => void | Promise<void>): void {
  let own: Awaited<ReturnType<typeof openOwnDatabase>> | undefined;
  beforeAll(async () => {
    own = await openOwnDatabase(label);
    await setup(own.db);
  });
  afterAll(async () => {
    await own?.close();
  });
}
