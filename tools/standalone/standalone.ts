import { EmbeddedPostgres } from '@svc/persistence';
import { AppConfig, createLogger, loadConfig, Logger } from '@svc/platform';
import { createGateway } from '../../apps/gateway-api/src/app.factory';
import { openStandaloneDatabase, standalonePaths } from './database';
import { startInProcessApp, WORKERS } from './in-process-app';

export interface Standalone {
  url: string;
  dataDir: string;
  database: EmbeddedPostgres;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * The whole service in this process: the embedded PostgreSQL (PGlite over the wire protocol), the
 * in-process queues, auth-service, every worker and the gateway, each with the same code and
 * configuration as in the services mode except for the run mode.
 */
export async function startStandalone(env: NodeJS.ProcessEnv = process.env): Promise<Standalone> {
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
    logger.info('standalone ready', {
      url: gateway.url,
      data_dir: dataDir,
      artifacts_dir: config.artifactsDir,
    });
    return { url: gateway.url, dataDir, database, config, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function warn(logger: Logger, error: unknown): void {
  logger.warn('stopping a component failed', { error: (error as Error).message });
}
