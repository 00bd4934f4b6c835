import { EmbeddingsWritePayload } from '@svc/contracts';
import { defineStep } from '@svc/jobs';
import { decodeVector, encodeVector } from '@svc/persistence';

export function vectorToBase64(vector: Float32Array): string {
  return encodeVector(vector).toString('base64');
}

export function vectorFromBase64(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  return decodeVector(bytes, bytes.length / 4);
}

/**
 * Stores one batch's vectors (a sequence already embedded for the config is kept) and ticks progress,
 * in one transaction and once per batch key, so a redelivered write does not tick twice.
 */
export const embeddingsWriteStep = defineStep<EmbeddingsWritePayload>({
  name: 'compute_embeddings_write',
  queue: 'svc.embeddings.write',
  payload: EmbeddingsWritePayload,
  async execute({ payload, repos, tick, tickOnce, throwIfCancelled }) {
    await throwIfCancelled();
    const vectors = payload.items.flatMap((item) =>
      item.chunks.map((chunk, chunkIndex) => ({
        sequenceId: item.sequence_id,
        chunkIndex,
        vector: vectorFromBase64(chunk),
      })),
    );
    const embeddings = repos.embeddings;
    if (payload.batch_key !== undefined) {
      await tickOnce(payload.batch_key, payload.sequence_count, async (tx) => {
        await embeddings.writeVectors(payload.embedding_config_id, vectors, tx);
      });
      return;
    }
    // A message queued before batch keys existed: written and ticked as before.
    await embeddings.writeVectors(payload.embedding_config_id, vectors);
    await tick(payload.sequence_count);
  },
});
