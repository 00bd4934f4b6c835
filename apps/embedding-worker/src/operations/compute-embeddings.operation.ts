import { COMPUTE_EMBEDDINGS, ComputeEmbeddingsPayload } from '@svc/contracts';
import { deferTo, defineOperation, missingReference, requireReference } from '@svc/jobs';
import { embeddingsBatchStep } from './embeddings-batch.step';

/**
 * Coordinator: lists the sequences to embed (a query set, or every protein; already embedded ones
 * skipped when asked), splits them into batches of `sequences_per_job` on svc.embeddings.batch and
 * returns deferred. The write steps tick progress by sequences; the last tick closes the job.
 */
export const computeEmbeddingsOperation = defineOperation<ComputeEmbeddingsPayload>({
  spec: COMPUTE_EMBEDDINGS,
  async execute({ payload, emit, repos, dispatch, setProgress, plan }) {
    const embeddings = repos.embeddings;
    const config = await embeddings.findConfig(payload.embedding_config_id);
    if (config === null) throw missingReference('embedding_config', payload.embedding_config_id);
    if (payload.query_set_id !== undefined) {
      await requireReference(repos.references, 'query_set', payload.query_set_id);
    }
    // A re-run (handed back during an outage, or requeued after a crash) sends the first run's
    // batches again rather than a new listing, which would leave out what the first run's steps wrote.
    const { plan: sequenceIds, resumed } = await plan(() =>
      embeddings.sequencesToEmbed({
        configId: config.id,
        querySetId: payload.query_set_id ?? null,
        skipExisting: payload.skip_existing ?? true,
      }),
    );
    const perJob = payload.sequences_per_job ?? 200;
    const batches = Math.ceil(sequenceIds.length / perJob);
    await emit('compute_embeddings.planned', null, {
      embedding_config_id: config.id,
      model_backend: config.model_backend,
      sequences: sequenceIds.length,
      batches,
      device: 'cpu',
      resumed,
    });
    if (sequenceIds.length === 0) return { embedding_config_id: config.id, sequences: 0, batches: 0 };
    // A resumed plan keeps the progress its steps have already committed.
    await setProgress(resumed ? null : 0, sequenceIds.length);
    for (let start = 0; start < sequenceIds.length; start += perJob) {
      await dispatch(embeddingsBatchStep, {
        embedding_config_id: config.id,
        sequence_ids: sequenceIds.slice(start, start + perJob),
        batch_size: payload.batch_size ?? 16,
      });
    }
    return deferTo(sequenceIds.length);
  },
});
