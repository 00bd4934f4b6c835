import type { QuotaRepository } from '@svc/persistence';

/**
 * A quota repository in memory for unit tests of limits and throttles: one counter per (key,
 * resource, period start), consumed, read and released the way the quota table's statements do.
 * `counts` is keyed `key|resource|period start (ISO)`.
 */
export function memoryQuotas(): { quotas: QuotaRepository; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const periods = new Map<string, { key: string; resource: string; periodStart: Date }>();
  const slot = (i: { key: string; resource: string; periodStart: Date }) =>
    `${i.key}|${i.resource}|${i.periodStart.toISOString()}`;
  const quotas = {
    consume: async (i: {
      key: string;
      resource: string;
      periodStart: Date;
      limit: number;
      amount: number;
    }) => {
      const count = (counts.get(slot(i)) ?? 0) + i.amount;
      if (count > i.limit) return { allowed: false, count: counts.get(slot(i)) ?? 0 };
      counts.set(slot(i), count);
      periods.set(slot(i), { key: i.key, resource: i.resource, periodStart: i.periodStart });
      return { allowed: true, count };
    },
    used: async (i: { key: string; resource: string; periodStart: Date }) => counts.get(slot(i)) ?? 0,
    latest: async (i: { key: string; resource: string }) => {
      const mine = [...periods.values()].filter((p) => p.key === i.key && p.resource === i.resource);
      mine.sort((a, b) => b.periodStart.getTime() - a.periodStart.getTime());
      const last = mine[0];
      return last === undefined
        ? null
        : { periodStart: last.periodStart, count: counts.get(slot(last)) ?? 0 };
    },
    release: async (i: { key: string; resource: string; periodStart: Date; amount: number }) => {
      if (counts.has(slot(i))) counts.set(slot(i), Math.max((counts.get(slot(i)) ?? 0) - i.amount, 0));
    },
  };
  return { quotas: quotas as unknown as QuotaRepository, counts };
}
