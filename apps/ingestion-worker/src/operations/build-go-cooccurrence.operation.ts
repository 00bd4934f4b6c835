import { BUILD_GO_COOCCURRENCE, BuildGoCooccurrencePayload } from '@svc/contracts';
import { defineOperation, missingReference } from '@svc/jobs';

/** Term pair counts within the proteins of an annotation set (for association features), then ANALYZE. */
export const buildGoCooccurrenceOperation = defineOperation<BuildGoCooccurrencePayload>({
  spec: BUILD_GO_COOCCURRENCE,
  async execute({ payload, emit, repos }) {
    const started = Date.now();
    const annotations = repos.annotations;
    if ((await annotations.findById(payload.annotation_set_id)) === null) {
      throw missingReference('annotation_set', payload.annotation_set_id);
    }
    const counts = await annotations.buildCooccurrence(payload.annotation_set_id);
    const result = {
      annotation_set_id: payload.annotation_set_id,
      ...counts,
      elapsed_s: Number(((Date.now() - started) / 1000).toFixed(2)),
    };
    await emit('build_go_cooccurrence.done', null, result);
    return result;
  },
});
