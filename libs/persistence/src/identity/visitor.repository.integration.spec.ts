import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { VisitorEvent, VisitorRepository } from './visitor.repository';
import { useRunDatabase } from '../../testing/repository-test-support';

// VisitorRepository against the run's PostgreSQL: a buffered batch of visitor events is written in
// one statement, every event or none.

let db: DataSource;
let visitors: VisitorRepository;

useRunDatabase((opened) => {
  db = opened;
  visitors = new VisitorRepository(db);
});

/** A visitor hash no other test uses (16 hex digits, as the gateway makes them). */
const newVisitor = (): string => randomBytes(8).toString('hex');

async function eventsOf(hashes: string[]) {
  return db.query<{ visitor_hash: string; day: string; method: string; path: string; status: number }[]>(
    `SELECT visitor_hash, to_char(day, 'YYYY-MM-DD') AS day, method, path, status
       FROM visitor_event WHERE visitor_hash = ANY($1) ORDER BY id`,
    [hashes],
  );
}

describe('VisitorRepository.appendMany', () => {
  it('writes every event of the batch, as given', async () => {
    const alice = newVisitor();
    const bob = newVisitor();
    const events: VisitorEvent[] = [
      { visitorHash: alice, day: '2030-01-02', method: 'GET', path: '/v1/proteins', status: 200 },
      { visitorHash: bob, day: '2030-01-02', method: 'GET', path: '/v1/jobs/x', status: 404 },
      { visitorHash: alice, day: '2030-01-03', method: 'GET', path: '/', status: 304 },
    ];
    await visitors.appendMany(events);

    expect(await eventsOf([alice, bob])).toEqual([
      { visitor_hash: alice, day: '2030-01-02', method: 'GET', path: '/v1/proteins', status: 200 },
      { visitor_hash: bob, day: '2030-01-02', method: 'GET', path: '/v1/jobs/x', status: 404 },
      { visitor_hash: alice, day: '2030-01-03', method: 'GET', path: '/', status: 304 },
    ]);
  });

  it('writes a large batch in one call', async () => {
    const visitor = newVisitor();
    const events = Array.from({ length: 1200 }, (_, i) => ({
      visitorHash: visitor,
      day: '2030-01-02',
      method: 'GET',
      path: `/v1/proteins/P${i}`,
      status: 200,
    }));
    await visitors.appendMany(events);
    const [row] = await db.query<{ n: number; paths: number }[]>(
      `SELECT count(*)::int AS n, count(DISTINCT path)::int AS paths FROM visitor_event WHERE visitor_hash = $1`,
      [visitor],
    );
    expect(row).toEqual({ n: 1200, paths: 1200 });
  });

  it('accepts an empty batch', async () => {
    await expect(visitors.appendMany([])).resolves.toBeUndefined();
  });

  it('writes nothing of a batch holding an event the table refuses', async () => {
    const good = newVisitor();
    await expect(
      visitors.appendMany([
        { visitorHash: good, day: '2030-01-02', method: 'GET', path: '/', status: 200 },
        { visitorHash: 'not-a-hash', day: '2030-01-02', method: 'GET', path: '/', status: 200 },
      ]),
    ).rejects.toThrow();
    expect(await eventsOf([good])).toEqual([]);
  });
});
