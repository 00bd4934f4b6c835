import { DataSource } from 'typeorm';
import { Db, queryOne, queryRows } from '../sql';
import { JobEventRepository } from './job-event.repository';
import { closeWhenComplete } from './job-sql';

export interface ProgressTick {
  progress_current: number;
  progress_total: number | null;
  status: string;
  closed: boolean;
}

export interface StepCommit {
  /** The step's key was already committed: nothing was written or ticked this time. */
  duplicate: boolean;
  tick: ProgressTick | null;
}

/** Fields set in a job's result, and counters added to it. */
export interface ResultMerge {
  fields?: Record<string, unknown>;
  counts?: Record<string, number>;
}

interface TickRow {
  progress_current: number;
  progress_total: number | null;
  status: string;
}

/** Rolls a step's transaction back when its job was no longer RUNNING. */
class StepNotCommitted extends Error {}

/** Sets `fields` in the job's result and adds `counts` to its counters, in one statement. */
export async function mergeResultIn(db: Db, id: string, input: ResultMerge): Promise<void> {
  const counts = Object.entries(input.counts ?? {});
  await queryRows(
    db,
    `UPDATE job SET result = COALESCE(result, '{}'::jsonb) || $2::jsonb || COALESCE(
       (SELECT jsonb_object_agg(c.key, COALESCE((result ->> c.key)::numeric, 0) + c.value::numeric)
          FROM jsonb_each_text($3::jsonb) c), '{}'::jsonb)
      WHERE id = $1`,
    [id, JSON.stringify(input.fields ?? {}), JSON.stringify(Object.fromEntries(counts))],
  );
}

export function markJobDeferred(
  db: DataSource,
  id: string,
  progressTotal: number | null,
  onClose?: (tx: Db) => Promise<void>,
): Promise<ProgressTick | null> {
  return db.transaction(async (tx) => {
    const row = await queryOne<TickRow>(
      tx,
      `UPDATE job SET leased_until = NULL, progress_total = COALESCE($2, progress_total),
                progress_current = COALESCE(progress_current, 0),
                ${closeWhenComplete('COALESCE(progress_current, 0)', 'COALESCE($2, progress_total)')}
          WHERE id = $1 AND status = 'RUNNING'
          RETURNING progress_current, progress_total, status`,
      [id, progressTotal],
    );
    if (row === null) return null;
    await new JobEventRepository(tx).append(id, 'job.deferred', null, {
      progress_total: row.progress_total,
    });
    return closedIn(tx, id, row, onClose);
  });
}

export async function setJobProgress(
  db: Db,
  id: string,
  current: number | null,
  total: number | null,
): Promise<void> {
  await queryRows(
    db,
    `UPDATE job SET progress_current = COALESCE($2, progress_current), progress_total = COALESCE($3, progress_total)
        WHERE id = $1 AND status = 'RUNNING'`,
    [id, current, total],
  );
}

export function tickJobProgress(
  db: DataSource,
  id: string,
  amount: number,
  onClose?: (tx: Db) => Promise<void>,
): Promise<ProgressTick | null> {
  return db.transaction(async (tx) => {
    const ticked = await tickIn(tx, id, amount);
    return ticked === null ? null : closedIn(tx, id, ticked, onClose);
  });
}

export async function planJobOnce<T>(
  db: Db,
  id: string,
  make: () => Promise<T>,
): Promise<{ plan: T; resumed: boolean }> {
  const stored = await queryOne<{ plan: T }>(db, `SELECT plan FROM job_plan WHERE job_id = $1`, [id]);
  if (stored !== null) return { plan: stored.plan, resumed: true };
  const plan = await make();
  const inserted = await queryRows(
    db,
    `INSERT INTO job_plan (job_id, plan) VALUES ($1, $2) ON CONFLICT (job_id) DO NOTHING RETURNING job_id`,
    [id, JSON.stringify(plan)],
  );
  if (inserted.length === 1) return { plan, resumed: false };
  const winner = await queryOne<{ plan: T }>(db, `SELECT plan FROM job_plan WHERE job_id = $1`, [id]);
  return { plan: winner?.plan ?? plan, resumed: true };
}

export async function tickJobProgressOnce(
  db: DataSource,
  id: string,
  stepKey: string,
  amount: number,
  write: (tx: Db) => Promise<void>,
  onClose?: (tx: Db) => Promise<void>,
): Promise<StepCommit> {
  let outcome: ProgressTick | 'duplicate';
  try {
    outcome = await db.transaction(async (tx) => {
      const claimed = await queryRows(
        tx,
        `INSERT INTO job_step_commit (job_id, step_key) VALUES ($1, $2)
           ON CONFLICT (job_id, step_key) DO NOTHING RETURNING step_key`,
        [id, stepKey],
      );
      if (claimed.length === 0) return 'duplicate' as const;
      await write(tx);
      const ticked = await tickIn(tx, id, amount);
      // Not RUNNING (cancelled, or handed back and waiting for its re-run, which sends this batch
      // again): nothing of this step may stay committed, or the re-run's copy would be skipped.
      if (ticked === null) throw new StepNotCommitted();
      return closedIn(tx, id, ticked, onClose);
    });
  } catch (error) {
    if (error instanceof StepNotCommitted) return { duplicate: false, tick: null };
    throw error;
  }
  if (outcome === 'duplicate') return { duplicate: true, tick: null };
  return { duplicate: false, tick: outcome };
}

/** Inside the closing transaction: the `job.succeeded` event and `onClose` of a tick that completed the job. */
async function closedIn(
  tx: Db,
  id: string,
  row: TickRow,
  onClose?: (tx: Db) => Promise<void>,
): Promise<ProgressTick> {
  const closed = row.status === 'SUCCEEDED';
  if (closed) {
    await new JobEventRepository(tx).append(id, 'job.succeeded', null, {
      progress_current: row.progress_current,
    });
    if (onClose !== undefined) await onClose(tx);
  }
  return { ...row, closed };
}

function tickIn(db: Db, id: string, amount: number): Promise<TickRow | null> {
  return queryOne<TickRow>(
    db,
    `UPDATE job
          SET progress_current = COALESCE(progress_current, 0) + $2,
              ${closeWhenComplete('COALESCE(progress_current, 0) + $2', 'progress_total')}
        WHERE id = $1 AND status = 'RUNNING'
        RETURNING progress_current, progress_total, status`,
    [id, amount],
  );
}
