import { EmbeddingBackendPool } from '@svc/inference';

let pool: EmbeddingBackendPool | null = null;

/** The worker process's backend pool (model sessions stay loaded between batches). */
export function backendPool(modelsDir: string): EmbeddingBackendPool {
  pool ??= new EmbeddingBackendPool(modelsDir);
  return pool;
}
