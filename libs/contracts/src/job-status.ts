export const JOB_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses in which a job blocks an identical submission (deduplication). */
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['QUEUED', 'RUNNING'];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELLED'];

export function isTerminalStatus(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.includes(status);
}
