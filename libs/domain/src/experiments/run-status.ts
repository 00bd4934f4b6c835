export const EXPERIMENT_STATUSES = ['planned', 'running', 'done', 'abandoned'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

export interface StatusMove {
  status: ExperimentStatus;
  /** Set `started_at` now (only when it is still empty). */
  stampStarted: boolean;
  /** Set `finished_at` now (only when it is still empty). */
  stampFinished: boolean;
}

/**
 * An experiment run's status moves. The specification's: planned -> running stamps `started_at`;
 * running -> done | abandoned stamps `finished_at`. The moves it leaves open: planned -> done |
 * abandoned is allowed (a run recorded after the fact, or dropped before it started) and stamps
 * only `finished_at`; done <-> abandoned is a correction and keeps the stamps; a finished run never
 * goes back to planned or running, and running never goes back to planned. Re-entering a state
 * never resets a timestamp. Returns null for a refused move.
 */
export function moveExperimentRun(from: ExperimentStatus, to: ExperimentStatus): StatusMove | null {
  if (from === to) return { status: to, stampStarted: false, stampFinished: false };
  const finished = (s: ExperimentStatus): boolean => s === 'done' || s === 'abandoned';
  if (finished(from)) return finished(to) ? { status: to, stampStarted: false, stampFinished: false } : null;
  if (from === 'running' && to === 'planned') return null;
  return { status: to, stampStarted: to === 'running', stampFinished: finished(to) };
}
