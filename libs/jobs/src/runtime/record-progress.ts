import type { Logger } from '@svc/platform';

/**
 * Lets a progress event be written without waiting for it, for code that holds a database
 * transaction open: waiting there for another connection would never end on the embedded database
 * of the standalone mode, which has a single session. A failed write is logged, not thrown.
 */
export function recordProgress(pending: Promise<void>, logger: Logger): void {
  pending.catch((error: unknown) =>
    logger.warn('progress event not recorded', {
      error: error instanceof Error ? error.message : String(error),
    }),
  );
}
