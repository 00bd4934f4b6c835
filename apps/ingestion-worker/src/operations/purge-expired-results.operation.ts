import { PURGE_EXPIRED_RESULTS, PurgeExpiredResultsPayload } from '@svc/contracts';
import { defineOperation } from '@svc/jobs';
import { RetentionRepository } from '@svc/persistence';

/**
 * The retention purge: removes the unlisted one-click results (prediction sets, query sets, jobs)
 * whose retention period has passed, and reports how many rows of each it removed.
 */
export const purgeExpiredResultsOperation = defineOperation<PurgeExpiredResultsPayload>({
  spec: PURGE_EXPIRED_RESULTS,
  async execute({ payload, emit, db }) {
    const dryRun = payload.dry_run ?? false;
    const counts = await new RetentionRepository(db).purgeExpired({ dryRun });
    await emit('purge_expired_results.done', null, { ...counts, dry_run: dryRun });
    return { ...counts, dry_run: dryRun };
  },
});
