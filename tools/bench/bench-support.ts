import { randomBytes } from 'node:crypto';
import { createDataSource, dropDatabase, ensureDatabase, runMigrations } from '@svc/persistence';
import { AppConfig, loadConfig } from '@svc/platform';
import { removeQueues } from '@svc/testing';

/** A throw-away database and queue prefix for one benchmark run, removed by `dispose`. */
export interface BenchWorld {
  config: AppConfig;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function createBenchWorld(overrides: Record<string, string> = {}): Promise<BenchWorld> {
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const base = loadConfig();
  const dbUrl = new URL(base.dbUrl);
  dbUrl.pathname = `/svc_bench_${id}`;
  const env: Record<string, string> = {
    SVC_DB_URL: dbUrl.toString(),
    SVC_AMQP_URL: base.amqpUrl,
    SVC_ARTIFACTS_DIR: base.artifactsDir,
    SVC_QUEUE_PREFIX: `bench.${id}.`,
    SVC_AUTHN_REQUIRED: 'false',
    SVC_PORT: '0',
    SVC_LOG_LEVEL: 'error',
    ...overrides,
  };
  await ensureDatabase(env['SVC_DB_URL']!);
  const migrator = createDataSource({ url: env['SVC_DB_URL']!, poolSize: 1 });
  await migrator.initialize();
  await runMigrations(migrator);
  await migrator.destroy();
  return {
    config: loadConfig({ env }),
    env,
    async dispose() {
      await dropDatabase(env['SVC_DB_URL']!);
      await removeQueues(env['SVC_AMQP_URL']!, env['SVC_QUEUE_PREFIX']!);
    },
  };
}

export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
