import { createDataSource, ensureDatabase, runMigrations } from '@svc/persistence';
import { ConfigError, loadConfig } from '@svc/platform';

/** `npm run db:migrate`: creates the database if missing and applies every pending migration. */
async function main(): Promise<void> {
  const config = loadConfig();
  const created = await ensureDatabase(config.dbUrl);
  const db = createDataSource({ url: config.dbUrl, poolSize: 1, applicationName: 'migrate' });
  await db.initialize();
  try {
    const applied = await runMigrations(db);
    process.stdout.write(
      `${JSON.stringify({ database_created: created, migrations_applied: applied, message: 'database is up to date' })}\n`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `migration failed: ${error instanceof ConfigError ? error.message : String((error as Error).stack ?? error)}\n`,
  );
  process.exit(1);
});
