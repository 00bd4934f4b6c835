/**
 * A small time-bounded cache; concurrent misses for one key share a single load. It never holds more
 * than `maxEntries` keys (the oldest go first), so a flood of distinct keys (forged credentials, say)
 * costs bounded memory.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.expires > now) return hit.value;
    const value = load();
    this.store(key, value, now + this.ttlMs);
    value.catch(() => this.entries.delete(key));
    return value;
  }

  peek(key: string): Promise<T> | undefined {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.expires > Date.now() ? hit.value : undefined;
  }

  /** Stores a value for the cache's lifetime, or for `ttlMs` when given. */
  set(key: string, value: T, ttlMs = this.ttlMs): void {
    this.store(key, Promise.resolve(value), Date.now() + ttlMs);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  private store(key: string, value: Promise<T>, expires: number): void {
    // Re-inserting moves the key to the end, so Map order stays oldest-first.
    this.entries.delete(key);
    this.entries.set(key, { value, expires });
    // Entries share one lifetime (nearly always), so the oldest is also the first to expire.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}
