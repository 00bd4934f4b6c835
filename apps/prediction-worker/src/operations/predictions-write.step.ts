import { PredictionsWritePayload } from '@svc/contracts';
import { defineStep } from '@svc/jobs';
import { JobRepository, PredictionSetRepository } from '@svc/persistence';
import { PREDICTIONS_WRITE } from './predictions-batch.step';

/**
 * Stores one batch's prediction rows, adds them to the parent's `prediction_count` and ticks its
 * progress by its queries, in one transaction and once per batch key: a redelivered write adds no
 * duplicate rows and counts them once.
 */
export const predictionsWriteStep = defineStep<PredictionsWritePayload>({
  name: PREDICTIONS_WRITE,
  queue: 'svc.predictions.write',
  payload: PredictionsWritePayload,
  async execute({ payload, db, parentJobId, tick, tickOnce, throwIfCancelled }) {
    await throwIfCancelled();
    const sets = new PredictionSetRepository(db);
    const jobs = new JobRepository(db);
    const counts = { prediction_count: payload.rows.length };
    if (payload.batch_key !== undefined) {
      const committed = await tickOnce(payload.batch_key, payload.query_count, async (tx) => {
        await sets.writeRows(payload.prediction_set_id, payload.rows, tx);
        await jobs.mergeResult(parentJobId, { counts }, tx);
      });
      // The write that closed the job refreshes the planner's statistics: without them every page of
      // an export or evaluation of a large set scans and sorts the rest of the set.
      if (committed && (await jobs.findById(parentJobId))?.status === 'SUCCEEDED')
        await sets.refreshStatistics();
      return;
    }
    // A message queued before batch keys existed: written and ticked as before.
    await sets.writeRows(payload.prediction_set_id, payload.rows);
    await jobs.mergeResult(parentJobId, { counts });
    await tick(payload.query_count);
  },
});
