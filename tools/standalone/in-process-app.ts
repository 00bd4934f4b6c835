import { startWorker, WorkerDefinition } from '@svc/bootstrap';
import type { AppConfig } from '@svc/platform';
import { startAuthService } from '../../apps/auth-service/src/auth-service';
import { DATASET_EXPORTER } from '../../apps/dataset-exporter/src/worker.definition';
import { EMBEDDING_WORKER } from '../../apps/embedding-worker/src/worker.definition';
import { EVALUATION_WORKER } from '../../apps/evaluation-worker/src/worker.definition';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { PREDICTION_WORKER } from '../../apps/prediction-worker/src/worker.definition';

export const WORKERS: readonly WorkerDefinition[] = [
  INGESTION_WORKER,
  EMBEDDING_WORKER,
  PREDICTION_WORKER,
  EVALUATION_WORKER,
  DATASET_EXPORTER,
];

export interface InProcessApp {
  close(): Promise<void>;
}

/**
 * Starts auth-service or a worker inside this process, with the code its main.ts runs, so it shares
 * the process's in-process queues (the standalone mode, and standalone test runs).
 */
export async function startInProcessApp(
  name: string,
  config: AppConfig,
  logDestination?: NodeJS.WritableStream,
): Promise<InProcessApp> {
  if (name === 'auth-service') return startAuthService(config, { logDestination });
  const definition = WORKERS.find((w) => w.name === name);
  if (definition === undefined) throw new Error(`no app named ${name} runs in process`);
  const worker = await startWorker(definition, config, { logDestination });
  return { close: () => worker.shutdown() };
}
