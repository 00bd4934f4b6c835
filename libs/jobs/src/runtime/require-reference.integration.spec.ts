import { randomUUID } from 'node:crypto';
import { REFERENCED_TABLES, ReferencedTable } from '@svc/contracts';
import { createDataSource, ReferenceCheckRepository } from '@svc/persistence';
import { currentTestRun } from '@svc/testing';
import { DataSource } from 'typeorm';
import { JobError } from './job-error';
import { requireReference } from './require-reference';

// The workers' reference check against the run's PostgreSQL: one look-up (the gateway's), one code per table.

let db: DataSource;

beforeAll(async () => {
  db = createDataSource({ url: currentTestRun().dbUrl, poolSize: 1 });
  await db.initialize();
});

afterAll(async () => {
  await db?.destroy();
});

describe('requireReference', () => {
  it.each(Object.keys(REFERENCED_TABLES) as ReferencedTable[])(
    'fails a job naming a missing %s row with that table’s code',
    async (table) => {
      const id = randomUUID();
      const failure = await requireReference(new ReferenceCheckRepository(db), table, id).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(JobError);
      expect(failure).toMatchObject({
        code: REFERENCED_TABLES[table].jobErrorCode,
        message: `${REFERENCED_TABLES[table].label.toLowerCase()} ${id} does not exist`,
      });
    },
  );

  it('lets a job naming an existing row go on', async () => {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO ontology_snapshot (obo_version, obo_url) VALUES ($1, 'file:///go.obo') RETURNING id`,
      [`test-${randomUUID()}`],
    );
    await expect(
      requireReference(new ReferenceCheckRepository(db), 'ontology_snapshot', row!.id),
    ).resolves.toBeUndefined();
  });
});
