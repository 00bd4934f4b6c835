import { WorkerDefinition } from '@svc/jobs';

/** GO term prediction: coordinator on svc.predictions, batch and write steps. Operations arrive with the prediction capability. */
export const PREDICTION_WORKER: WorkerDefinition = {
  name: 'prediction-worker',
  jobQueues: ['svc.predictions'],
  operations: [],
  stepQueues: ['svc.predictions.batch', 'svc.predictions.write'],
  steps: [],
};
