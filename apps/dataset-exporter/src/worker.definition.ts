import { WorkerDefinition } from '@svc/jobs';

/** Research dataset export on svc.training. Operations arrive with the research-workflow capability. */
export const DATASET_EXPORTER: WorkerDefinition = {
  name: 'dataset-exporter',
  jobQueues: ['svc.training'],
  operations: [],
  stepQueues: [],
  steps: [],
};
