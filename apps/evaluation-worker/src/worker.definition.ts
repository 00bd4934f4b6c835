import { WorkerDefinition } from '@svc/jobs';

/** Evaluation sets and CAFA evaluations on svc.evaluations. Operations arrive with the evaluation capability. */
export const EVALUATION_WORKER: WorkerDefinition = {
  name: 'evaluation-worker',
  jobQueues: ['svc.evaluations'],
  operations: [],
  stepQueues: [],
  steps: [],
};
