import type { OperationSpec } from '@svc/contracts';
import type { JobRecord } from '@svc/persistence';
import type { AppConfig } from '@svc/platform';
import { payloadRefusalFor } from '../dispatch/submission';
import { JobError } from './job-error';

/**
 * Before a job runs: its payload must be one its submitter could have queued, by the operation's
 * payload policy with the role and entry point recorded on the job (a row written by hand, or before
 * a cap was lowered, passed no such check). Otherwise the job fails with `forbidden_payload` before
 * doing any work.
 */
export function assertPayloadAllowed(
  spec: OperationSpec,
  payload: object,
  job: Pick<JobRecord, 'submitted_role' | 'submitted_via'>,
  config: AppConfig,
): void {
  const refusal = payloadRefusalFor({
    spec,
    payload,
    role: job.submitted_role,
    via: job.submitted_via,
    limits: config.security,
  });
  if (refusal !== null)
    throw new JobError('forbidden_payload', `payload refused for its submitter: ${refusal.message}`);
}
