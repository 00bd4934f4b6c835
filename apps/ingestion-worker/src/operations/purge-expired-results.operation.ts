import { PURGE_EXPIRED_RESULTS, PurgeExpiredResultsPayload } from '@svc/contracts';
import { defineOperation } from '@svc/jobs';

/**
 * The retention purge: removes the unlisted one-click results (prediction sets, query sets, jobs)
 * whose retention period has passed, and reports how many rows of each it removed.
 */
export const purgeExpiredResultsOperation = defineOperation<PurgeExpiredResultsPayload>({
  spec: PURGE_EXPIRED_RESULTS,
  async execute({ payload, emit, repos }) {
    const dryRun = payload.dry_run ?? false;
    const counts = await repos.retention.purgeExpired({ dryRun });
    await emit('purge_expired_results.done', null, { ...counts, dry_run: dryRun });
    return { ...counts, dry_run: dryRun };
  },
});
