import { WorkerDefinition } from '@svc/bootstrap';
import { announceHomologyTool } from './operations/homology-tool';
import { predictGoTermsOperation } from './operations/predict-go-terms.operation';
import { predictionsBatchStep } from './operations/predictions-batch.step';
import { predictionsSearchStep } from './operations/predictions-search.step';
import { predictionsWriteStep } from './operations/predictions-write.step';

/** GO term prediction: coordinator on svc.predictions, search-ahead, batch and write steps on their queues. */
export const PREDICTION_WORKER: WorkerDefinition = {
  name: 'prediction-worker',
  jobQueues: ['svc.predictions'],
  operations: [predictGoTermsOperation],
  steps: [predictionsSearchStep, predictionsBatchStep, predictionsWriteStep],
  background: [announceHomologyTool],
};
