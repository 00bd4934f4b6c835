import { PredictionsWritePayload } from '@svc/contracts';
import { defineStep } from '@svc/jobs';
import { PredictionSetRepository } from '@svc/persistence';
import { PREDICTIONS_WRITE } from './predictions-batch.step';

/** Stores one batch's prediction rows and ticks the parent's progress by its queries. */
export const predictionsWriteStep = defineStep<PredictionsWritePayload>({
  name: PREDICTIONS_WRITE,
  queue: 'svc.predictions.write',
  payload: PredictionsWritePayload,
  async execute({ payload, db, tick, throwIfCancelled }) {
    await throwIfCancelled();
    await new PredictionSetRepository(db).writeRows(payload.prediction_set_id, payload.rows);
    await tick(payload.query_count);
  },
});
