import { EmbeddedPostgres } from '@svc/persistence';
import { AppConfig, createLogger, loadConfig, Logger, PasswordHasher } from '@svc/platform';
import { createGateway } from '../../apps/gateway-api/src/app.factory';
import { openStandaloneDatabase, standalonePaths } from './database';
import { ensureFirstRunAdmin, FIRST_RUN_ADMIN, firstRunAdminNotice } from './first-run-admin';
import { startInProcessApp, WORKERS } from './in-process-app';

export interface Standalone {
  url: string;
  dataDir: string;
  database: EmbeddedPostgres;
  config: AppConfig;
  close(): Promise<void>;
}

export interface StandaloneOptions {
  /** Where notices for the person at the terminal go (standard error by default). */
  terminal?: NodeJS.WritableStream;
}

/**
 * The whole service in this process: the embedded PostgreSQL (PGlite over the wire protocol), the
 * in-process queues, auth-service, every worker and the gateway, each with the same code and
 * configuration as in the services mode except for the run mode.
 */
export async function startStandalone(
  env: NodeJS.ProcessEnv = process.env,
  options: StandaloneOptions = {},
): Promise<Standalone> {
  const base = loadConfig({ env: { ...env, SVC_MODE: 'standalone' } });
  const dataDir = base.standaloneDataDir;
  const paths = standalonePaths(dataDir);
  const logger = createLogger({ name: 'standalone', format: base.logFormat, level: base.logLevel });
  logger.info('opening the embedded database', { pgdata: paths.pgdata });
  const database = await openStandaloneDatabase(paths.pgdata, 0, (seconds) =>
    logger.warn('a database connection has waited for the session', {
      seconds,
      hint: 'a transaction that waits for another connection never ends in the standalone mode (README: Laptop)',
    }),
  );
  logger.info('embedded database ready', {
    url: database.url,
    open_seconds: Number(database.openSeconds.toFixed(2)),
  });
  const config = loadConfig({
    env: {
      ...env,
      SVC_MODE: 'standalone',
      SVC_DB_URL: database.url,
      SVC_ARTIFACTS_DIR: env['SVC_ARTIFACTS_DIR'] ?? paths.artifacts,
    },
  });
  const stops: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((e: unknown) => warn(logger, e));
    await database.close();
  };
  try {
    // One process: only the gateway listens; the components' own metrics ports stay closed.
    for (const name of ['auth-service', ...WORKERS.map((w) => w.name)]) {
      const app = await startInProcessApp(name, { ...config, metricsPort: null });
      stops.push(() => app.close());
    }
    const gateway = await createGateway(config);
    stops.push(() => gateway.close());
    // The in-process queues start empty: jobs queued before the last stop are published again
    // (a duplicate delivery of a job that is already running or done is acknowledged and dropped).
    const queued = await gateway.infra.repos.jobs.queuedJobs();
    for (const job of queued) await gateway.infra.broker.publishJob(job.queue_name, { job_id: job.id });
    if (queued.length > 0) logger.info('queued jobs published again', { jobs: queued.length });
    const firstRun = await ensureFirstRunAdmin({
      db: gateway.infra.db,
      config,
      passwords: new PasswordHasher(),
    });
    if (firstRun.outcome === 'created')
      logger.info('first-run administrator created', {
        email: firstRun.admin.email,
        username: firstRun.admin.username,
      });
    if (firstRun.outcome === 'address_taken')
      logger.warn('no active administrator', {
        hint: `${FIRST_RUN_ADMIN.email} exists but is not an active administrator; add one with npm run user:add -- --standalone --email ADDRESS --role admin (README: Laptop)`,
      });
    logger.info('standalone ready', {
      url: gateway.url,
      data_dir: dataDir,
      artifacts_dir: config.artifactsDir,
    });
    // Plain text whatever the log format: it is for the person at the terminal, and it holds a
    // password, so it stays out of the log lines (as the bootstrap of auth-service does).
    if (firstRun.outcome === 'created')
      (options.terminal ?? process.stderr).write(
        firstRunAdminNotice({ admin: firstRun.admin, url: gateway.url }),
      );
    return { url: gateway.url, dataDir, database, config, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function warn(logger: Logger, error: unknown): void {
  logger.warn('stopping a component failed', { error: (error as Error).message });
}
