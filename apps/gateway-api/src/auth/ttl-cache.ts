/** A small time-bounded cache; concurrent misses for one key share a single load. */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.expires > now) return hit.value;
    const value = load();
    this.entries.set(key, { value, expires: now + this.ttlMs });
    value.catch(() => this.entries.delete(key));
    if (this.entries.size > 10_000) this.sweep(now);
    return value;
  }

  peek(key: string): Promise<T> | undefined {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.expires > Date.now() ? hit.value : undefined;
  }

  set(key: string, value: T): void {
    this.entries.set(key, { value: Promise.resolve(value), expires: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}
