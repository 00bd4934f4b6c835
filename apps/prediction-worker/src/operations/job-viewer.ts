import { normalizeRole } from '@svc/contracts';
import { Viewer } from '@svc/domain';
import { JobRecord } from '@svc/persistence';

/**
 * The caller a job works for, as the ownership rules see it. A job without a recorded role was
 * queued by the service itself (or before owners were recorded) and reads everything.
 */
export function viewerOfJob(job: Pick<JobRecord, 'owner_user_id' | 'submitted_role'>): Viewer {
  return job.submitted_role === null
    ? { role: 'admin', userId: null, unrestricted: true }
    : { role: normalizeRole(job.submitted_role), userId: job.owner_user_id, unrestricted: false };
}
