import { WorkerDefinition } from '@svc/bootstrap';
import { computeEmbeddingsOperation } from './operations/compute-embeddings.operation';
import { embeddingsBatchStep } from './operations/embeddings-batch.step';
import { embeddingsWriteStep } from './operations/embeddings-write.step';

/** Embedding computation: coordinator on svc.embeddings, batch and write steps on their queues. */
export const EMBEDDING_WORKER: WorkerDefinition = {
  name: 'embedding-worker',
  jobQueues: ['svc.embeddings'],
  operations: [computeEmbeddingsOperation],
  steps: [embeddingsBatchStep, embeddingsWriteStep],
};
