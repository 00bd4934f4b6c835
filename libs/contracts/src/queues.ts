/** Queues consumed by job consumers: each message is `{job_id}` and the job has a tracked Job row. */
export const JOB_QUEUES = [
  'svc.ping',
  'svc.jobs',
  'svc.embeddings',
  'svc.predictions',
  'svc.training',
  'svc.evaluations',
] as const;

/** Queues consumed by operation consumers: `{operation, job_id, payload}`, progress lives on the parent. */
export const OPERATION_QUEUES = [
  'svc.embeddings.batch',
  'svc.embeddings.write',
  'svc.predictions.batch',
  'svc.predictions.write',
] as const;

export const ALL_QUEUES = [...JOB_QUEUES, ...OPERATION_QUEUES] as const;

export type JobQueueName = (typeof JOB_QUEUES)[number];
export type OperationQueueName = (typeof OPERATION_QUEUES)[number];
export type QueueName = (typeof ALL_QUEUES)[number];

export const DEAD_LETTER_EXCHANGE = 'svc.dlx';
export const DEAD_LETTER_QUEUE = 'svc.dead-letter';

export function isJobQueue(name: string): name is JobQueueName {
  return (JOB_QUEUES as readonly string[]).includes(name);
}

export function isOperationQueue(name: string): name is OperationQueueName {
  return (OPERATION_QUEUES as readonly string[]).includes(name);
}
