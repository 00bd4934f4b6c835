import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, NestLoggerAdapter, runProcessMain } from '@svc/platform';
import { WorkerHttpModule } from '../nest/worker-http.module';
import { JobOperation, StepOperation, WorkerRuntime } from '@svc/jobs';
import { Infrastructure, InfrastructureOptions, openInfrastructure } from './infrastructure';
import { separateProcessConfig } from './run-main';

/** Periodic work a worker runs beside its queues (for example queueing a maintenance job). */
export interface BackgroundTask {
  /** Stops the timers and waits for a run in progress. */
  stop(): Promise<void>;
}

export interface WorkerDefinition {
  name: string;
  jobQueues: readonly string[];
  operations: readonly JobOperation[];
  steps?: readonly StepOperation[];
  /** Whether this process takes part in reaping expired leases (default true). */
  runReaper?: boolean;
  /** Started once the runtime consumes its queues; stopped first on shutdown. */
  background?: readonly ((infra: Infrastructure) => BackgroundTask)[];
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
    repos: infra.repos,
    config,
    broker: infra.broker,
    logger: infra.logger.child(`${definition.name}.runtime`),
    metrics: infra.metrics,
    timing: config.jobs,
    jobQueues: definition.jobQueues,
    operations: definition.operations,
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
  const tasks = (definition.background ?? []).map((start) => start(infra));
  let stopping: Promise<void> | null = null;
  const shutdown = (): Promise<void> =>
    (stopping ??= (async () => {
      await Promise.all(tasks.map((task) => task.stop()));
      await runtime.stop();
      await app.close();
      await infra.close();
    })());
  return { runtime, app, shutdown };
}

/** Entry point used by each worker's main.ts (`runProcessMain`). */
export function runWorkerMain(definition: WorkerDefinition): void {
  runProcessMain(definition.name, async () => {
    const config = separateProcessConfig(definition.name);
    const worker = await startWorker(definition, config);
    // The spans of the jobs handed back are exported before the process ends.
    return {
      close: () => worker.shutdown(),
      logFormat: config.logFormat,
      onUnhandledRejection: (reason) => worker.runtime.logFailure('unhandled rejection', reason),
    };
  });
}
