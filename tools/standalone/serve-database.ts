import 'reflect-metadata';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { openStandaloneDatabase } from './database';

// The standalone mode's embedded database alone, for test runs whose components all live in the
// test process: `serve-database.ts <pgdata> <ready-file> [template]`. Copies the template cluster
// when pgdata does not exist yet (skipping initdb), migrates, writes {"url": ...} to the ready file,
// and serves until SIGTERM or until the process that started it is gone. With an empty ready file
// argument it only prepares pgdata and exits.
async function main(): Promise<void> {
  const [pgdata, readyFile, template] = process.argv.slice(2);
  if (pgdata === undefined || readyFile === undefined) {
    process.stderr.write('usage: serve-database.ts <pgdata> <ready-file|""> [template]\n');
    process.exit(64);
  }
  if (template !== undefined && !existsSync(pgdata)) cpSync(template, pgdata, { recursive: true });
  const database = await openStandaloneDatabase(pgdata);
  if (readyFile === '') {
    await database.close();
    return;
  }
  writeFileSync(readyFile, JSON.stringify({ url: database.url, open_seconds: database.openSeconds }));
  const parent = process.ppid;
  const stop = (): void => {
    database.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 1000);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`serve-database failed: ${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
