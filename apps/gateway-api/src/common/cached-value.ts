import { Logger } from '@svc/platform';

/**
 * A value recomputed every `ttlMs` in the background (before it expires), filled at start-up, and
 * served stale when a recompute fails: readers never wait on a slow or failing recompute after the
 * first fill.
 */
export class CachedValue<T> {
  private value: { data: T; computedAt: number } | null = null;
  private refreshing: Promise<T> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lastProbe = 0;

  constructor(
    private readonly name: string,
    private readonly compute: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly logger: Logger,
    /**
     * When the data last changed (epoch ms; null when unknown), asked at most once a second: a change
     * after the value was computed refreshes it at once, so a finished load shows without waiting
     * for the TTL (the writes happen in other processes).
     */
    private readonly changedAt?: () => Promise<number | null>,
  ) {}

  /** Fills the cache now and keeps it fresh in the background. */
  start(): void {
    void this.refresh().catch(() => undefined);
    this.timer = setInterval(
      () => void this.refresh().catch(() => undefined),
      Math.max(1000, this.ttlMs * 0.8),
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  async get(): Promise<T & { cached_at: string; stale: boolean }> {
    const now = Date.now();
    if (this.value === null) await this.refresh();
    else if (
      now - this.value.computedAt > this.ttlMs ||
      (await this.changedSince(this.value.computedAt, now))
    ) {
      try {
        await this.refresh();
      } catch {
        // Stale-on-error: the last known value is served, marked as stale.
      }
    }
    const current = this.value!;
    return {
      ...current.data,
      cached_at: new Date(current.computedAt).toISOString(),
      stale: now - current.computedAt > this.ttlMs,
    };
  }

  private async changedSince(computedAt: number, now: number): Promise<boolean> {
    if (this.changedAt === undefined || now - this.lastProbe < 1000) return false;
    this.lastProbe = now;
    try {
      const changed = await this.changedAt();
      return changed !== null && changed >= computedAt;
    } catch {
      return false;
    }
  }

  /** Drops the value so the next read recomputes (after a write that changes it). */
  invalidate(): void {
    if (this.value !== null) this.value = { ...this.value, computedAt: 0 };
  }

  private refresh(): Promise<T> {
    this.refreshing ??= this.compute()
      .then((data) => {
        this.value = { data, computedAt: Date.now() };
        return data;
      })
      .catch((error: unknown) => {
        this.logger.warn('cache refresh failed; serving the last value', {
          cache: this.name,
          error: (error as Error).message,
        });
        throw error;
      })
      .finally(() => (this.refreshing = null));
    return this.refreshing;
  }
}
