import { createHash } from 'node:crypto';

/**
 * The key a write step commits under (see `tickOnce`): a digest of what its batch covers. The batches
 * of one job cover disjoint items, so their keys differ; the same batch redelivered keeps its key.
 */
export function batchKey(items: readonly (string | number)[]): string {
  return createHash('sha256').update(JSON.stringify(items)).digest('base64url').slice(0, 32);
}
