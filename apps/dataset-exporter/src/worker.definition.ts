import { WorkerDefinition } from '@svc/bootstrap';
import { exportResearchDatasetOperation } from './operations/export-research-dataset.operation';

/** Research dataset export on svc.training. */
export const DATASET_EXPORTER: WorkerDefinition = {
  name: 'dataset-exporter',
  jobQueues: ['svc.training'],
  operations: [exportResearchDatasetOperation],
  steps: [],
};
