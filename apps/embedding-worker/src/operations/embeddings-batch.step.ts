import { EmbeddingsBatchPayload } from '@svc/contracts';
import { EmbeddingBackendError } from '@svc/inference';
import { batchKey, defineStep, JobError } from '@svc/jobs';
import { backendPool } from './backend-pool';
import { embeddingsWriteStep, vectorToBase64 } from './embeddings-write.step';

/** Runs the config's backend over one batch of sequences and hands the vectors to the write step. */
export const embeddingsBatchStep = defineStep<EmbeddingsBatchPayload>({
  name: 'compute_embeddings_batch',
  queue: 'svc.embeddings.batch',
  payload: EmbeddingsBatchPayload,
  async execute({ payload, dispatch, repos, config, throwIfCancelled, emit }) {
    const embeddings = repos.embeddings;
    const recipe = await embeddings.findConfig(payload.embedding_config_id);
    if (recipe === null)
      throw new JobError(
        'embedding_config_not_found',
        `embedding config ${payload.embedding_config_id} was deleted`,
      );
    const sequences = await embeddings.sequences(payload.sequence_ids);
    const backend = backendPool(config.modelsDir).get(recipe.model_backend);
    const started = process.hrtime.bigint();
    const items: { sequence_id: number; chunks: string[] }[] = [];
    for (let start = 0; start < sequences.length; start += payload.batch_size) {
      await throwIfCancelled();
      const slice = sequences.slice(start, start + payload.batch_size);
      try {
        const vectors = await backend.embed(
          slice.map((s) => s.sequence),
          recipe,
        );
        slice.forEach((s, i) =>
          items.push({ sequence_id: s.id, chunks: vectors[i]!.chunks.map(vectorToBase64) }),
        );
      } catch (error) {
        if (error instanceof EmbeddingBackendError) throw new JobError(error.code, error.message);
        throw error;
      }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await emit('compute_embeddings_batch.done', null, {
      sequences: sequences.length,
      seconds: Number(seconds.toFixed(3)),
      sequences_per_s: Number((sequences.length / Math.max(seconds, 1e-9)).toFixed(1)),
    });
    // Sequences deleted since the coordinator listed them still count, so progress reaches its total.
    await dispatch(embeddingsWriteStep, {
      embedding_config_id: recipe.id,
      items,
      sequence_count: payload.sequence_ids.length,
      batch_key: batchKey(payload.sequence_ids),
    });
  },
});
