import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, ConfigError, NestLoggerAdapter, shutdownProcessTracing } from '@svc/platform';
import { WorkerHttpModule } from '../nest/worker-http.module';
import { JobOperation, StepOperation } from '../runtime/operation';
import { WorkerRuntime } from '../runtime/worker-runtime';
import { InfrastructureOptions, openInfrastructure } from './infrastructure';
import { describeStartupFailure, separateProcessConfig } from './run-main';

export interface WorkerDefinition {
  name: string;
  jobQueues: readonly string[];
  operations: readonly JobOperation[];
  stepQueues?: readonly string[];
  steps?: readonly StepOperation[];
  /** Whether this process takes part in reaping expired leases (default true). */
  runReaper?: boolean;
}

export interface RunningWorker {
  runtime: WorkerRuntime;
  app: NestFastifyApplication;
  /** Graceful stop: running jobs are handed back to their queues. */
  shutdown(): Promise<void>;
}

/** Starts a worker process: infrastructure, runtime, HTTP surface, and SIGTERM/SIGINT handling. */
export async function startWorker(
  definition: WorkerDefinition,
  config: AppConfig,
  options: InfrastructureOptions = {},
): Promise<RunningWorker> {
  const infra = await openInfrastructure(definition.name, config, options);
  const runtime = new WorkerRuntime({
    name: definition.name,
    db: infra.db,
    config,
    broker: infra.broker,
    logger: infra.logger.child(`${definition.name}.runtime`),
    metrics: infra.metrics,
    timing: config.jobs,
    jobQueues: definition.jobQueues,
    operations: definition.operations,
    stepQueues: definition.stepQueues,
    steps: definition.steps,
    runReaper: definition.runReaper,
    artifacts: infra.artifacts,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    WorkerHttpModule.forRoot(infra),
    new FastifyAdapter(),
    {
      logger: new NestLoggerAdapter(infra.logger.child(`${definition.name}.http`)),
    },
  );
  if (config.metricsPort !== null) await app.listen(config.metricsPort, config.host);
  else await app.init();
  await runtime.start();
  let stopping: Promise<void> | null = null;
  const shutdown = (): Promise<void> =>
    (stopping ??= (async () => {
      await runtime.stop();
      await app.close();
      await infra.close();
    })());
  return { runtime, app, shutdown };
}

/** Entry point used by each worker's main.ts. */
export function runWorkerMain(definition: WorkerDefinition): void {
  let config: AppConfig;
  try {
    config = separateProcessConfig(definition.name);
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exit(78);
  }
  startWorker(definition, config).then(
    (worker) => {
      const onSignal = (signal: string): void => {
        process.stderr.write(`${definition.name}: ${signal} received, shutting down\n`);
        // The spans of the jobs handed back are exported before the process ends.
        worker
          .shutdown()
          .then(() => shutdownProcessTracing())
          .then(
            () => process.exit(0),
            (error: unknown) => {
              process.stderr.write(
                `${definition.name}: shutdown failed: ${(error as Error).stack ?? String(error)}\n`,
              );
              process.exit(1);
            },
          );
      };
      process.on('unhandledRejection', (reason: unknown) => {
        worker.runtime.logFailure('unhandled rejection', reason);
      });
      process.once('SIGTERM', () => onSignal('SIGTERM'));
      process.once('SIGINT', () => onSignal('SIGINT'));
    },
    (error: unknown) => {
      const { line, code } = describeStartupFailure(definition.name, error);
      process.stderr.write(`${line}\n`);
      process.exit(code);
    },
  );
}
