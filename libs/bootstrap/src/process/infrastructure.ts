import {
  createDataSource,
  createRepositories,
  DataSource,
  pingDatabase,
  poolInUse,
  Repositories,
} from '@svc/persistence';
import {
  AmqpBroker,
  AppConfig,
  ArtifactStore,
  createLogger,
  InProcessBroker,
  Logger,
  MessageBroker,
  Metrics,
  openArtifactStore,
  processQueues,
} from '@svc/platform';

/** What every process of the service holds: config, logger, database, broker and metrics. */
export interface Infrastructure {
  name: string;
  config: AppConfig;
  logger: Logger;
  db: DataSource;
  /** The repositories over `db`, one set for the whole process. */
  repos: Repositories;
  broker: MessageBroker;
  metrics: Metrics;
  /** Datasets, boosters and evaluation outputs (local disk or an object store). */
  artifacts: ArtifactStore;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  /** Where log lines go (standard output by default). */
  logDestination?: NodeJS.WritableStream;
}

export async function openInfrastructure(
  name: string,
  config: AppConfig,
  options: InfrastructureOptions = {},
): Promise<Infrastructure> {
  const logger = createLogger({
    name,
    format: config.logFormat,
    level: config.logLevel,
    destination: options.logDestination,
  });
  // Checked before anything else opens, so a missing object store stops the process at once.
  const artifacts = await openArtifactStore(config, logger.child(`${name}.artifacts`));
  const db = createDataSource({ url: config.dbUrl, poolSize: config.dbPoolSize, applicationName: name });
  await db.initialize();
  const broker = openBroker(name, config, logger);
  const metrics = new Metrics();
  metrics.setPoolProbe(() => poolInUse(db));
  return {
    name,
    config,
    logger,
    db,
    repos: createRepositories(db),
    broker,
    metrics,
    artifacts,
    async close() {
      await broker.close();
      if (db.isInitialized) await db.destroy();
    },
  };
}

/** RabbitMQ in the services mode; the queues of this process in the standalone mode. */
function openBroker(name: string, config: AppConfig, logger: Logger): MessageBroker {
  if (config.mode === 'standalone')
    return new InProcessBroker({
      queues: processQueues(),
      prefix: config.queuePrefix,
      logger: logger.child(`${name}.broker`),
    });
  return new AmqpBroker({
    url: config.amqpUrl,
    prefix: config.queuePrefix,
    publishTimeoutMs: config.jobs.publishTimeoutMs,
    logger: logger.child(`${name}.broker`),
    connectionName: name,
  });
}

export interface ReadinessReport {
  ready: boolean;
  checks: { database: 'ok' | 'down'; broker: 'ok' | 'down' };
  failing: string[];
}

/** Readiness: the database answers a query and the broker connection is up. */
export async function checkReadiness(db: DataSource, broker: MessageBroker): Promise<ReadinessReport> {
  let database: 'ok' | 'down' = 'down';
  try {
    await Promise.race([
      pingDatabase(db),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000).unref()),
    ]);
    database = 'ok';
  } catch {
    database = 'down';
  }
  const brokerState: 'ok' | 'down' = broker.isConnected() ? 'ok' : 'down';
  const checks = { database, broker: brokerState };
  const failing = Object.entries(checks)
    .filter(([, state]) => state === 'down')
    .map(([part]) => part);
  return { ready: failing.length === 0, checks, failing };
}
