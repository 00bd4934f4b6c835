import { DomainError, OperationSpec } from '@svc/contracts';
import { computeDedupKey, dedupScopeOf } from '@svc/domain';
import type { JobRecord, JobSubmitter, NewJob } from '@svc/persistence';

/** A checked submission: what to queue, on whose behalf. */
export interface JobRequest {
  spec: OperationSpec;
  /** The payload as `checkSubmission` or `checkFollowUp` returned it. */
  payload: Record<string, unknown>;
  meta: Record<string, unknown>;
  description: string | null;
  tags: string[];
  parentJobId?: string;
  submitter: JobSubmitter;
  dispatchDeadlineSeconds: number;
}

/**
 * What differs between the entry points that queue work (the gateway for a caller, a finished job for
 * its follow-up): where jobs are read and written, what an identical active job means, how the
 * submitter's quotas are charged.
 */
export interface SubmitJobSteps<Active extends { id: string } = JobRecord> {
  /** The active job with this deduplication key, if any. */
  findActive(dedupKey: string): Promise<Active | null>;
  /**
   * What an identical active job of the same submitter means: refuse (throw), join it (`join`), or
   * queue this one anyway without a deduplication key (`unkeyed`).
   */
  onDuplicate(existing: Active): Promise<'join' | 'unkeyed'>;
  /** Checks that run once no identical job stands in the way, before anything is charged. */
  beforeCharge?(): Promise<void>;
  /**
   * Charges the submitter's daily quotas and says how to give the charge back. A refusal throws, or,
   * where the refused job is to be recorded, comes back as `refused` (the job is then inserted
   * without a deduplication key, for the caller to fail).
   */
  charge(): Promise<{ release: () => Promise<void>; refused?: DomainError }>;
  /** Inserts the QUEUED row; a failure gives the charge back. */
  insert(job: NewJob): Promise<JobRecord>;
}

export type Submitted<Active extends { id: string } = JobRecord> =
  | { kind: 'joined'; existing: Active }
  | {
      kind: 'inserted';
      job: JobRecord;
      release: () => Promise<void>;
      /** The quota refusal the job is to be failed with, when `charge` returned one. */
      refused: DomainError | null;
    };

/**
 * Job submission, the same for every entry point: the deduplication key of the submitter (only their
 * own identical job is a duplicate), the identical active job, the quota charge, the QUEUED row.
 * Publishing is the caller's: the gateway publishes at once, a follow-up once its parent commits.
 */
export async function submitJob<Active extends { id: string }>(
  request: JobRequest,
  steps: SubmitJobSteps<Active>,
): Promise<Submitted<Active>> {
  const dedupKey = computeDedupKey({
    operation: request.spec.name,
    payload: request.payload,
    scope: dedupScopeOf(request.submitter),
  });
  let keyed = true;
  const existing = await steps.findActive(dedupKey);
  if (existing !== null) {
    if ((await steps.onDuplicate(existing)) === 'join') return { kind: 'joined', existing };
    keyed = false;
  }
  await steps.beforeCharge?.();
  const charged = await steps.charge();
  const refused = charged.refused ?? null;
  let job: JobRecord;
  try {
    job = await steps.insert({
      operation: request.spec.name,
      queueName: request.spec.queue,
      payload: request.payload,
      meta: request.meta,
      description: request.description,
      tags: request.tags,
      dedupKey: keyed && refused === null ? dedupKey : null,
      ...(request.parentJobId !== undefined ? { parentJobId: request.parentJobId } : {}),
      dispatchDeadlineSeconds: request.dispatchDeadlineSeconds,
      submitter: request.submitter,
    });
  } catch (error) {
    // Not queued after all (an identical job won the race, or the write failed): the charge is given back.
    await charged.release();
    throw error;
  }
  return { kind: 'inserted', job, release: () => charged.release(), refused };
}
