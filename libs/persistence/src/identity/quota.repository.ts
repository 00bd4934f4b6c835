import { Db, queryOne } from '../sql';

export interface QuotaConsumption {
  allowed: boolean;
  count: number;
}

export class QuotaRepository {
  constructor(private readonly db: Db) {}

  /**
   * Adds `amount` to the counter of (key, resource, period) unless that would pass `limit`; one
   * statement, so concurrent requests on any gateway replica never overshoot.
   */
  async consume(input: {
    key: string;
    resource: string;
    periodStart: Date;
    limit: number;
    amount: number;
  }): Promise<QuotaConsumption> {
    const row = await queryOne<{ count: number }>(
      this.db,
      `INSERT INTO quota (key, resource, period_start, count, "limit")
       SELECT $1::text, $2::text, $3::timestamptz, $4::int, $5::int WHERE $4::int <= $5::int
       ON CONFLICT (key, resource, period_start)
       DO UPDATE SET count = quota.count + EXCLUDED.count, "limit" = EXCLUDED."limit"
        WHERE quota.count + EXCLUDED.count <= EXCLUDED."limit"
       RETURNING count`,
      [input.key, input.resource, input.periodStart, input.amount, input.limit],
    );
    if (row !== null) return { allowed: true, count: row.count };
    const current = await queryOne<{ count: number }>(
      this.db,
      `SELECT count FROM quota WHERE key = $1 AND resource = $2 AND period_start = $3`,
      [input.key, input.resource, input.periodStart],
    );
    return { allowed: false, count: current?.count ?? 0 };
  }

  /** What (key, resource, period) has used so far; 0 when nothing was charged. */
  async used(input: { key: string; resource: string; periodStart: Date }): Promise<number> {
    const row = await queryOne<{ count: number }>(
      this.db,
      `SELECT count FROM quota WHERE key = $1 AND resource = $2 AND period_start = $3`,
      [input.key, input.resource, input.periodStart],
    );
    return row?.count ?? 0;
  }

  /**
   * The counter of (key, resource) with the latest period, or null: for a counter whose period is a
   * moment (the end of a sign-in delay) rather than a window everyone can compute.
   */
  async latest(input: {
    key: string;
    resource: string;
  }): Promise<{ periodStart: Date; count: number } | null> {
    const row = await queryOne<{ period_start: Date; count: number }>(
      this.db,
      `SELECT period_start, count FROM quota WHERE key = $1 AND resource = $2
        ORDER BY period_start DESC LIMIT 1`,
      [input.key, input.resource],
    );
    return row === null ? null : { periodStart: new Date(row.period_start), count: row.count };
  }

  /** Gives back what `consume` charged for work that was not queued after all (a refused publish). */
  async release(input: { key: string; resource: string; periodStart: Date; amount: number }): Promise<void> {
    await queryOne(
      this.db,
      `UPDATE quota SET count = greatest(count - $4::int, 0)
        WHERE key = $1 AND resource = $2 AND period_start = $3 RETURNING count`,
      [input.key, input.resource, input.periodStart, input.amount],
    );
  }
}
