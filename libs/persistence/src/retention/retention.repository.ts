import { DataSource } from 'typeorm';
import { Db, queryOne } from '../sql';

/** What one retention purge removed (or, in a dry run, would remove). */
export interface PurgeCounts {
  prediction_sets: number;
  predictions: number;
  query_sets: number;
  query_set_entries: number;
  jobs: number;
  job_events: number;
}

const EXPIRED = `visibility = 'unlisted' AND expires_at IS NOT NULL AND expires_at <= clock_timestamp()`;
const ACTIVE = `('QUEUED', 'RUNNING')`;

/** Rolls the purge's transaction back while keeping its counts. */
class DryRun extends Error {
  constructor(readonly counts: PurgeCounts) {
    super('dry run');
  }
}

/**
 * The retention purge of unlisted one-click results whose `expires_at` has passed: prediction sets
 * (their predictions cascade), query sets (their entries cascade; the deduplicated sequences stay,
 * other sets and embeddings share them) and terminal jobs (events, comments and descendants cascade,
 * and are counted). Rows still in use by a queued or running job, and a job with a queued or running
 * descendant, are left for the next run, so a purge never pulls the rows from under a job that is
 * writing them.
 */
export class RetentionRepository {
  constructor(private readonly db: DataSource) {}

  async purgeExpired(options: { dryRun: boolean }): Promise<PurgeCounts> {
    try {
      return await this.db.transaction(async (tx) => {
        const counts = await purgeIn(tx);
        if (options.dryRun) throw new DryRun(counts);
        return counts;
      });
    } catch (error) {
      if (error instanceof DryRun) return error.counts;
      throw error;
    }
  }
}

async function purgeIn(tx: Db): Promise<PurgeCounts> {
  const sets = await queryOne<{ sets: number; predictions: number }>(
    tx,
    `WITH gone AS (
       DELETE FROM prediction_set s WHERE ${EXPIRED}
          AND NOT EXISTS (SELECT 1 FROM job j WHERE j.id = s.job_id AND j.status IN ${ACTIVE})
       RETURNING s.id)
     SELECT (SELECT count(*)::int FROM gone) AS sets,
            ((SELECT count(*) FROM prediction p WHERE p.prediction_set_id IN (SELECT id FROM gone))
              + (SELECT COALESCE(sum(w.composed_rows), 0) FROM prediction_prior_weight w
                  WHERE w.prediction_set_id IN (SELECT id FROM gone)))::int AS predictions`,
  );
  const querySets = await queryOne<{ sets: number; entries: number }>(
    tx,
    `WITH gone AS (
       DELETE FROM query_set q WHERE ${EXPIRED}
          AND NOT EXISTS (SELECT 1 FROM job j WHERE j.status IN ${ACTIVE}
                           AND lower(j.payload->>'query_set_id') = q.id::text)
       RETURNING q.id)
     SELECT (SELECT count(*)::int FROM gone) AS sets,
            (SELECT count(*)::int FROM query_set_entry e WHERE e.query_set_id IN (SELECT id FROM gone)) AS entries`,
  );
  // An expired terminal job goes with every descendant (they cascade), unless one of them is still
  // queued or running; the counts include the descendants.
  const jobs = await queryOne<{ jobs: number; events: number }>(
    tx,
    `WITH RECURSIVE tree(root, id) AS (
       SELECT j.id, j.id FROM job j WHERE ${EXPIRED} AND j.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED')
       UNION
       SELECT t.root, c.id FROM tree t JOIN job c ON c.parent_job_id = t.id),
     kept AS (SELECT DISTINCT t.root FROM tree t JOIN job x ON x.id = t.id WHERE x.status IN ${ACTIVE}),
     doomed AS (SELECT DISTINCT t.id FROM tree t WHERE t.root NOT IN (SELECT root FROM kept)),
     gone AS (DELETE FROM job j WHERE j.id IN (SELECT root FROM tree WHERE root NOT IN (SELECT root FROM kept)))
     SELECT (SELECT count(*)::int FROM doomed) AS jobs,
            (SELECT count(*)::int FROM job_event e WHERE e.job_id IN (SELECT id FROM doomed)) AS events`,
  );
  return {
    prediction_sets: sets?.sets ?? 0,
    predictions: sets?.predictions ?? 0,
    query_sets: querySets?.sets ?? 0,
    query_set_entries: querySets?.entries ?? 0,
    jobs: jobs?.jobs ?? 0,
    job_events: jobs?.events ?? 0,
  };
}
