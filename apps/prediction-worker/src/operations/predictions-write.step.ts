import { PredictionsWritePayload } from '@svc/contracts';
import { defineStep } from '@svc/jobs';
import { PredictionSetRepository } from '@svc/persistence';
import { PREDICTIONS_WRITE } from './predictions-batch.step';

/**
 * Stores one batch's prediction rows and ticks the parent's progress by its queries, in one
 * transaction and once per batch key: a redelivered write adds no duplicate rows.
 */
export const predictionsWriteStep = defineStep<PredictionsWritePayload>({
  name: PREDICTIONS_WRITE,
  queue: 'svc.predictions.write',
  payload: PredictionsWritePayload,
  async execute({ payload, db, tick, tickOnce, throwIfCancelled }) {
    await throwIfCancelled();
    const sets = new PredictionSetRepository(db);
    if (payload.batch_key !== undefined) {
      await tickOnce(payload.batch_key, payload.query_count, async (tx) => {
        await sets.writeRows(payload.prediction_set_id, payload.rows, tx);
      });
      return;
    }
    // A message queued before batch keys existed: written and ticked as before.
    await sets.writeRows(payload.prediction_set_id, payload.rows);
    await tick(payload.query_count);
  },
});
