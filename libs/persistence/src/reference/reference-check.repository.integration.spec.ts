import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ReferenceCheckRepository } from './reference-check.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import {
  deleteFixtures,
  goRelease,
  insertAnnotationSet,
  insertSnapshot,
} from '../../testing/repository-fixtures';

// ReferenceCheckRepository against the run's PostgreSQL: the rows a payload names, and the
// ontology snapshot of each annotation set, keyed by the ids as the caller spelled them.

let db: DataSource;
let references: ReferenceCheckRepository;
let snapshotId: string;
let setIds: string[] = [];

useRunDatabase(
  (opened) => {
    db = opened;
    references = new ReferenceCheckRepository(db);
  },
  { teardown: () => deleteFixtures(db, { annotationSetIds: setIds }) },
);

beforeAll(async () => {
  snapshotId = (await insertSnapshot(db, goRelease([['GO:0000001', 'F']]))).id;
  setIds = [await insertAnnotationSet(db, snapshotId), await insertAnnotationSet(db, snapshotId)];
});

describe('ReferenceCheckRepository', () => {
  it('find gives {} for reference data that exists, the ownership of an owned row, null when missing', async () => {
    expect(await references.find('ontology_snapshot', snapshotId)).toEqual({});
    expect(await references.find('annotation_set', setIds[0]!)).toEqual({});
    expect(await references.find('annotation_set', randomUUID())).toBeNull();
    expect(await references.find('query_set', randomUUID())).toBeNull();
  });

  it('snapshotsOfAnnotationSets keys each snapshot by the id as given, in any case, and leaves out missing sets', async () => {
    const [first, second] = setIds as [string, string];
    const missing = randomUUID();
    const upper = second.toUpperCase();
    const snapshots = await references.snapshotsOfAnnotationSets([first, upper, missing]);
    expect([...snapshots.entries()]).toEqual([
      [first, snapshotId],
      [upper, snapshotId],
    ]);
    expect(await references.snapshotsOfAnnotationSets([])).toEqual(new Map());
  });

  it('snapshotOfAnnotationSet gives the snapshot of one set, in any case, or null when there is no such set', async () => {
    expect(await references.snapshotOfAnnotationSet(setIds[0]!)).toBe(snapshotId);
    expect(await references.snapshotOfAnnotationSet(setIds[0]!.toUpperCase())).toBe(snapshotId);
    expect(await references.snapshotOfAnnotationSet(randomUUID())).toBeNull();
  });
});
