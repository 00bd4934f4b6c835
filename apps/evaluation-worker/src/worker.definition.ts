import { WorkerDefinition } from '@svc/bootstrap';
import { generateEvaluationSetOperation } from './operations/generate-evaluation-set.operation';
import { runCafaEvaluationOperation } from './operations/run-cafa-evaluation.operation';

/** Evaluation sets (temporal holdouts) and CAFA evaluations on svc.evaluations. */
export const EVALUATION_WORKER: WorkerDefinition = {
  name: 'evaluation-worker',
  jobQueues: ['svc.evaluations'],
  operations: [generateEvaluationSetOperation, runCafaEvaluationOperation],
  steps: [],
};
