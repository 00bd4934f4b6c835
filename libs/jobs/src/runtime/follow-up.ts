import { DomainError, normalizeRole } from '@svc/contracts';
import {
  Db,
  FollowUpRepository,
  JobEventRepository,
  JobRecord,
  JobRepository,
  QuotaRepository,
} from '@svc/persistence';
import { AppConfig, Logger, MessageBroker } from '@svc/platform';
import { consumeDailyQuota } from '../dispatch/daily-quota';
import { checkFollowUp, readFollowUp } from '../dispatch/submission';
import { submitJob } from '../dispatch/submit-job';
import { errorMessageOf, JobError } from './job-error';

/**
 * Before a job runs: its follow-up (`meta.then`) must be one its submitter could have queued
 * directly, with the role and entry point recorded on the job. Otherwise the job fails with
 * `forbidden_follow_up` before doing any work, and the follow-up is never queued.
 */
export async function assertFollowUpAllowed(job: JobRecord, config: AppConfig): Promise<void> {
  try {
    const followUp = readFollowUp(job.meta);
    if (followUp === null) return;
    await checkFollowUp({
      followUp,
      role: job.submitted_role,
      via: job.submitted_via,
      payloadLimitBytes: config.security.jobPayloadLimitBytes,
      limits: config.security,
    });
  } catch (error) {
    if (error instanceof DomainError)
      throw new JobError('forbidden_follow_up', `follow-up refused: ${error.message}`);
    throw error;
  }
}

/**
 * Runs inside the transaction that marks a job SUCCEEDED: queues its follow-up on the same caller's
 * behalf (checked again, deduplicated against an identical active job, charged to the caller's daily
 * quota), owned and visible like its parent, and records the new id in the finished job's result, so
 * no reader ever sees the job SUCCEEDED without it. A follow-up over the caller's quota is recorded
 * as a FAILED job with `quota_exceeded`, so the chain shows why it stopped.
 */
export async function insertFollowUp(tx: Db, jobId: string, config: AppConfig): Promise<JobRecord | null> {
  const followUps = new FollowUpRepository(tx);
  const source = await followUps.source(jobId);
  if (source === null) return null;
  const events = new JobEventRepository(tx);
  let checked: Awaited<ReturnType<typeof checkFollowUp>>;
  let resultKey: string;
  try {
    const followUp = readFollowUp(source.meta);
    if (followUp === null) return null;
    resultKey = followUp.result_key ?? 'follow_up_job_id';
    checked = await checkFollowUp({
      followUp,
      role: source.submitted_role,
      via: source.submitted_via,
      payloadLimitBytes: config.security.jobPayloadLimitBytes,
      limits: config.security,
    });
  } catch (error) {
    // Checked before the job ran; reaching here means the rules changed meanwhile.
    await events.append(jobId, 'job.follow_up_refused', errorMessageOf(error), {}, 'warning');
    return null;
  }
  // Keyed like a job its submitter queued directly: only their own identical job is a duplicate.
  const submitted = await submitJob(
    {
      spec: checked.spec,
      payload: checked.payload,
      meta: { follows_job_id: jobId },
      description: null,
      tags: [],
      parentJobId: jobId,
      dispatchDeadlineSeconds: config.jobs.leaseSeconds,
      submitter: {
        ownerUserId: source.owner_user_id,
        role: source.submitted_role,
        via: source.submitted_via,
        quotaKey: source.quota_key,
        visibility: source.visibility,
        expiresInDays: source.expires_in_days === null ? null : Math.max(source.expires_in_days, 0),
      },
    },
    {
      findActive: (dedupKey) => followUps.activeByDedupKey(dedupKey),
      // An identical active job of the same caller is joined; one of someone else (a guest of the same
      // address, or a job of another visibility) is never named in this job's result (its id may be
      // the key to an unlisted result): the follow-up runs on its own, without a deduplication key.
      onDuplicate: async (active) => {
        if (active.owner_user_id !== source.owner_user_id || active.visibility !== source.visibility)
          return 'unkeyed';
        await followUps.record(jobId, resultKey, active.id, checked.spec.name, 'job.follow_up_joined');
        return 'join';
      },
      // Over the quota, the follow-up is recorded FAILED (below), so the chain shows why it stopped.
      charge: async () => {
        const kept = { release: () => Promise.resolve() };
        if (source.quota_key === null || source.submitted_role === null) return kept;
        try {
          await consumeDailyQuota(new QuotaRepository(tx), config, {
            key: source.quota_key,
            role: normalizeRole(source.submitted_role),
            resource: 'jobs',
            amount: 1,
          });
          return kept;
        } catch (error) {
          if (!(error instanceof DomainError) || error.code !== 'quota_exceeded') throw error;
          return { ...kept, refused: error };
        }
      },
      insert: (job) => followUps.insertWithoutConflict(job),
    },
  );
  if (submitted.kind === 'joined') return null;
  const next = submitted.job;
  await followUps.record(jobId, resultKey, next.id, checked.spec.name, 'job.follow_up_queued');
  if (submitted.refused !== null) {
    await followUps.failOverQuota(next.id, submitted.refused.message);
    return null;
  }
  return next;
}

/**
 * Publishes a committed follow-up. A failed publish is logged: the row keeps its dispatch deadline,
 * so the reaper publishes it later.
 */
export async function publishFollowUp(input: {
  jobs: JobRepository;
  broker: MessageBroker;
  job: JobRecord;
  logger: Logger;
}): Promise<void> {
  try {
    await input.broker.publishJob(input.job.queue_name, { job_id: input.job.id });
    await input.jobs.markDispatched(input.job.id);
  } catch (error) {
    input.logger.warn('follow-up publish failed; the reaper will send it', {
      job_id: input.job.id,
      error: errorMessageOf(error),
    });
  }
}
