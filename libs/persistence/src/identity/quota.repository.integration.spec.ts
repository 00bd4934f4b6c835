import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { QuotaRepository } from './quota.repository';
import { useRunDatabase } from '../../testing/repository-test-support';

// QuotaRepository against the run's PostgreSQL: a counter per (key, resource, period) grows by each
// charge unless that would pass the limit, never overshoots under concurrent charges, and gives back.

let db: DataSource;
let quotas: QuotaRepository;

useRunDatabase(
  (opened) => {
    db = opened;
    quotas = new QuotaRepository(db);
  },
  { poolSize: 4 },
);

const DAY = new Date('2030-01-02T00:00:00.000Z');
const NEXT_DAY = new Date('2030-01-03T00:00:00.000Z');

/** A counter no other test touches. */
function counter(periodStart = DAY) {
  return { key: `user:${randomUUID()}`, resource: 'jobs', periodStart };
}

async function stored(c: { key: string; resource: string; periodStart: Date }) {
  const rows = await db.query<{ count: number; limit: number }[]>(
    `SELECT count, "limit" FROM quota WHERE key = $1 AND resource = $2 AND period_start = $3`,
    [c.key, c.resource, c.periodStart],
  );
  return rows[0] ?? null;
}

describe('QuotaRepository.consume', () => {
  it('adds each charge up to the limit, then refuses without changing the count', async () => {
    const c = counter();
    expect(await quotas.consume({ ...c, limit: 5, amount: 2 })).toEqual({ allowed: true, count: 2 });
    expect(await quotas.consume({ ...c, limit: 5, amount: 3 })).toEqual({ allowed: true, count: 5 });
    expect(await quotas.consume({ ...c, limit: 5, amount: 1 })).toEqual({ allowed: false, count: 5 });
    expect(await stored(c)).toEqual({ count: 5, limit: 5 });
  });

  it('refuses a charge that would pass the limit even when some room is left', async () => {
    const c = counter();
    expect(await quotas.consume({ ...c, limit: 4, amount: 3 })).toEqual({ allowed: true, count: 3 });
    expect(await quotas.consume({ ...c, limit: 4, amount: 2 })).toEqual({ allowed: false, count: 3 });
    expect(await quotas.consume({ ...c, limit: 4, amount: 1 })).toEqual({ allowed: true, count: 4 });
  });

  it('refuses a first charge larger than the limit and creates no counter', async () => {
    const c = counter();
    expect(await quotas.consume({ ...c, limit: 2, amount: 3 })).toEqual({ allowed: false, count: 0 });
    expect(await stored(c)).toBeNull();
    expect(await quotas.consume({ ...c, limit: 2, amount: 2 })).toEqual({ allowed: true, count: 2 });
  });

  it('applies the limit of the current call: a raised limit admits more, a lowered one refuses', async () => {
    const c = counter();
    expect(await quotas.consume({ ...c, limit: 2, amount: 2 })).toEqual({ allowed: true, count: 2 });
    expect(await quotas.consume({ ...c, limit: 3, amount: 1 })).toEqual({ allowed: true, count: 3 });
    expect(await stored(c)).toEqual({ count: 3, limit: 3 });
    expect(await quotas.consume({ ...c, limit: 1, amount: 1 })).toEqual({ allowed: false, count: 3 });
  });

  it('keeps separate counters per key, resource and period', async () => {
    const c = counter();
    expect(await quotas.consume({ ...c, limit: 1, amount: 1 })).toEqual({ allowed: true, count: 1 });
    expect(await quotas.consume({ ...c, limit: 1, amount: 1 })).toEqual({ allowed: false, count: 1 });

    expect(await quotas.consume({ ...c, periodStart: NEXT_DAY, limit: 1, amount: 1 })).toEqual({
      allowed: true,
      count: 1,
    });
    expect(await quotas.consume({ ...c, resource: 'uploads', limit: 1, amount: 1 })).toEqual({
      allowed: true,
      count: 1,
    });
    expect(await quotas.consume({ ...c, key: `${c.key}-other`, limit: 1, amount: 1 })).toEqual({
      allowed: true,
      count: 1,
    });
    expect(await stored(c)).toEqual({ count: 1, limit: 1 });
  });

  it('never lets concurrent charges pass the limit', async () => {
    const c = counter();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () => quotas.consume({ ...c, limit: 5, amount: 1 })),
    );
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
    expect(outcomes.filter((o) => !o.allowed).every((o) => o.count === 5)).toBe(true);
    expect(
      outcomes
        .filter((o) => o.allowed)
        .map((o) => o.count)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(await stored(c)).toEqual({ count: 5, limit: 5 });
  });
});

describe('QuotaRepository.release', () => {
  it('gives back what was charged, so the room can be used again', async () => {
    const c = counter();
    await quotas.consume({ ...c, limit: 3, amount: 3 });
    expect(await quotas.consume({ ...c, limit: 3, amount: 1 })).toEqual({ allowed: false, count: 3 });

    await quotas.release({ ...c, amount: 2 });
    expect(await stored(c)).toEqual({ count: 1, limit: 3 });
    expect(await quotas.consume({ ...c, limit: 3, amount: 2 })).toEqual({ allowed: true, count: 3 });
  });

  it('never takes a counter below zero', async () => {
    const c = counter();
    await quotas.consume({ ...c, limit: 10, amount: 2 });
    await quotas.release({ ...c, amount: 5 });
    expect(await stored(c)).toEqual({ count: 0, limit: 10 });
  });

  it('does nothing for a counter that does not exist, nor for another period', async () => {
    const c = counter();
    await quotas.release({ ...c, amount: 1 });
    expect(await stored(c)).toBeNull();

    await quotas.consume({ ...c, limit: 10, amount: 4 });
    await quotas.release({ ...c, periodStart: NEXT_DAY, amount: 4 });
    expect(await stored(c)).toEqual({ count: 4, limit: 10 });
    expect(await stored({ ...c, periodStart: NEXT_DAY })).toBeNull();
  });
});

describe('QuotaRepository.latest', () => {
  it('reads the counter of a key and resource with the latest period, or null', async () => {
    const c = counter();
    expect(await quotas.latest(c)).toBeNull();
    await quotas.consume({ ...c, periodStart: NEXT_DAY, limit: 1, amount: 0 });
    await quotas.consume({ ...c, limit: 1, amount: 1 });
    await quotas.consume({
      ...c,
      resource: 'other',
      periodStart: new Date('2031-01-01T00:00:00Z'),
      limit: 1,
      amount: 1,
    });
    expect(await quotas.latest(c)).toEqual({ periodStart: NEXT_DAY, count: 0 });
  });
});
