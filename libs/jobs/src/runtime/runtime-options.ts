import { AppConfig, ArtifactStore, Logger, MessageBroker, Metrics } from '@svc/platform';
import { JobOperation, StepOperation } from './operation';
import { Repositories } from '@svc/persistence';

export interface WorkerTiming {
  leaseSeconds: number;
  heartbeatSeconds: number;
  reaperIntervalSeconds: number;
  reaperMaxRequeues: number;
}

export interface WorkerRuntimeOptions {
  name: string;
  /** The process's repositories (Infrastructure.repos). */
  repos: Repositories;
  config: AppConfig;
  broker: MessageBroker;
  logger: Logger;
  metrics: Metrics;
  timing: WorkerTiming;
  /** Job queues this worker consumes and the operations it hosts on them. */
  jobQueues: readonly string[];
  operations: readonly JobOperation[];
  /** The steps this worker hosts; it consumes their queues. */
  steps?: readonly StepOperation[];
  /** Run the lease reaper in this process (every worker does; an advisory lock keeps passes exclusive). */
  runReaper?: boolean;
  /** The checked store of the process; built from the config (unchecked) when absent. */
  artifacts?: ArtifactStore;
}
