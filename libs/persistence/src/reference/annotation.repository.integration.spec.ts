import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EmbeddingRepository } from '../embeddings/embedding.repository';
import { AnnotationRepository, AnnotationRow } from './annotation.repository';
import { OntologyRepository, TermRef } from './ontology.repository';
import { domainError, useRunDatabase, useOwnDatabase } from '../../testing/repository-test-support';
import {
  annotationRow,
  goRelease,
  insertAnnotationSet,
  insertPredictionSet,
  insertSnapshot,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';

// AnnotationRepository against the run's PostgreSQL: a load writes its set and rows all or nothing,
// and the set's readers (counts, co-occurrence, per protein, newest sets) and its deletion rules.

let db: DataSource;
let annotations: AnnotationRepository;
let ontologies: OntologyRepository;

useRunDatabase((opened) => {
  db = opened;
  annotations = new AnnotationRepository(db);
  ontologies = new OntologyRepository(db);
});

/** A stored snapshot of three terms (F, P, C) and its terms by GO id. */
function snapshotIn(target: DataSource): Promise<{ id: string; terms: Map<string, TermRef> }> {
  return insertSnapshot(
    target,
    goRelease([
      ['GO:0000001', 'F'],
      ['GO:0000002', 'P'],
      ['GO:0000003', 'C'],
    ]),
  );
}

/** An annotation row as UniProtKB states it. */
function row(
  protein: string,
  term: TermRef,
  evidence: string,
  extra: Partial<AnnotationRow> = {},
): AnnotationRow {
  return annotationRow(protein, term, evidence, { db: 'UniProtKB', ...extra });
}

describe('AnnotationRepository', () => {
  const tag = `ANN${randomBytes(4).toString('hex').toUpperCase()}`;
  const [p1, p2, p3] = [`${tag}-1`, `${tag}-2`, `${tag}-3`];
  let snapshot: { id: string; terms: Map<string, TermRef> };
  let t1: TermRef;
  let t2: TermRef;
  let t3: TermRef;
  let setId: string;

  beforeAll(async () => {
    snapshot = await snapshotIn(db);
    [t1, t2, t3] = ['GO:0000001', 'GO:0000002', 'GO:0000003'].map((id) => snapshot.terms.get(id)!) as [
      TermRef,
      TermRef,
      TermRef,
    ];
    // P1 and P2 both have terms 1 and 2 (P2 has term 1 twice); P3 only a NOT annotation of term 3.
    setId = await insertAnnotationSet(db, snapshot.id, [
      row(p1, t1, 'EXP', {
        qualifier: 'enables',
        dbObjectSymbol: 'GENE1',
        dbReference: 'PMID:1',
        withFrom: 'UniProtKB:Q1',
        taxonId: 'taxon:9606',
        annotationDate: '2020-01-02',
        assignedBy: 'UniProt',
      }),
      row(p1, t2, 'IDA'),
      row(p2, t1, 'IEA'),
      row(p2, t1, 'IMP'),
      row(p2, t2, 'IMP', { dbObjectSymbol: 'GENE2' }),
      row(p3, t3, 'IDA', { isNot: true, qualifier: 'NOT|located_in' }),
    ]);
  });

  it('withinLoad stores the set with every batch’s rows, its count and stats, and returns the work’s value', async () => {
    const result = await annotations.withinLoad(
      {
        source: 'quickgo',
        sourceVersion: '2024-01',
        snapshotId: snapshot.id,
        sourceUrl: 'https://example.org/annotations.tsv',
        jobId: null,
      },
      async (load) => {
        await load.insert([row(`${tag}-L1`, t1, 'EXP'), row(`${tag}-L2`, t2, 'IDA')]);
        await load.insert([]);
        await load.insert([row(`${tag}-L3`, t3, 'TAS')]);
        return { value: load.count, stats: { skipped: 4 } };
      },
    );
    expect(result.value).toBe(3);
    expect(result.set).toEqual({
      id: expect.any(String),
      source: 'quickgo',
      source_version: '2024-01',
      ontology_snapshot_id: snapshot.id,
      obo_version: (await ontologies.getById(snapshot.id)).obo_version,
      source_url: 'https://example.org/annotations.tsv',
      job_id: null,
      annotation_count: 3,
      stats: { skipped: 4 },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(await annotations.findById(result.set.id)).toEqual(result.set);
    expect(await annotations.getById(result.set.id)).toEqual(result.set);
    expect(await annotations.countAnnotatedProteins(result.set.id)).toBe(3);
  });

  it('withinLoad writes nothing when the work fails: neither the set nor its rows', async () => {
    let started: string | null = null;
    const failure = annotations.withinLoad(
      { source: 'goa', sourceVersion: '1', snapshotId: snapshot.id, sourceUrl: null, jobId: null },
      async (load) => {
        started = load.setId;
        await load.insert([row(`${tag}-X`, t1, 'EXP')]);
        throw new Error('the source broke off');
      },
    );
    await expect(failure).rejects.toThrow('the source broke off');
    expect(started).not.toBeNull();
    expect(await annotations.findById(started!)).toBeNull();
    expect(await annotations.forProtein(`${tag}-X`)).toEqual([]);
  });

  it('findById gives null and getById a not_found error for an unknown set', async () => {
    expect(await annotations.findById(randomUUID())).toBeNull();
    expect(await domainError(annotations.getById(randomUUID()))).toMatchObject({
      code: 'not_found',
      message: 'Annotation set not found',
    });
  });

  it('countAnnotatedProteins counts distinct proteins with a non-NOT annotation', async () => {
    expect(await annotations.countAnnotatedProteins(setId)).toBe(2);
    expect(await annotations.countAnnotatedProteins(randomUUID())).toBe(0);
  });

  it('holdoutAnnotations gives every row of the set, NOT ones included, with its gene', async () => {
    const rows = await annotations.holdoutAnnotations(setId);
    const key = (r: { protein: string; goId: string; evidence: string }) =>
      `${r.protein} ${r.goId} ${r.evidence}`;
    expect(rows.sort((a, b) => key(a).localeCompare(key(b)))).toEqual([
      { protein: p1, goId: 'GO:0000001', evidence: 'EXP', isNot: false, qualifier: 'enables', gene: 'GENE1' },
      { protein: p1, goId: 'GO:0000002', evidence: 'IDA', isNot: false, qualifier: null, gene: null },
      { protein: p2, goId: 'GO:0000001', evidence: 'IEA', isNot: false, qualifier: null, gene: null },
      { protein: p2, goId: 'GO:0000001', evidence: 'IMP', isNot: false, qualifier: null, gene: null },
      { protein: p2, goId: 'GO:0000002', evidence: 'IMP', isNot: false, qualifier: null, gene: 'GENE2' },
      {
        protein: p3,
        goId: 'GO:0000003',
        evidence: 'IDA',
        isNot: true,
        qualifier: 'NOT|located_in',
        gene: null,
      },
    ]);
  });

  it('buildCooccurrence counts proteins per term and per term pair (NOT excluded), the same when run again', async () => {
    expect(await annotations.buildCooccurrence(setId)).toEqual({ pairs: 1, terms: 2 });
    expect(await annotations.buildCooccurrence(setId)).toEqual({ pairs: 1, terms: 2 });

    const [a, b] = [t1.id, t2.id].sort((x, y) => x - y);
    const all = await annotations.cooccurrenceOf(setId, [t1.id, t2.id, t3.id]);
    expect(all.pairs).toEqual([{ a, b, n: 2 }]);
    expect(all.singles.sort((x, y) => x.id - y.id)).toEqual(
      [
        { id: t1.id, n: 2 },
        { id: t2.id, n: 2 },
      ].sort((x, y) => x.id - y.id),
    );
    // Only pairs whose both terms are asked for.
    expect(await annotations.cooccurrenceOf(setId, [t1.id])).toEqual({
      pairs: [],
      singles: [{ id: t1.id, n: 2 }],
    });
  });

  it('forProtein gives a protein’s annotations of every set, or of one, by GO id then evidence', async () => {
    const other = await insertAnnotationSet(db, snapshot.id, [row(p1, t3, 'IPI')], 'quickgo', '7');
    const everywhere = await annotations.forProtein(p1);
    expect(everywhere.map((r) => [r['annotation_set_id'], r['go_id'], r['evidence_code']])).toEqual([
      [setId, 'GO:0000001', 'EXP'],
      [setId, 'GO:0000002', 'IDA'],
      [other, 'GO:0000003', 'IPI'],
    ]);
    expect(everywhere[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      annotation_set_id: setId,
      source: 'goa',
      source_version: '1',
      protein_accession: p1,
      go_id: 'GO:0000001',
      go_name: 'name of GO:0000001',
      go_aspect: 'F',
      qualifier: 'enables',
      is_not: false,
      evidence_code: 'EXP',
      db_reference: 'PMID:1',
      with_from: 'UniProtKB:Q1',
      assigned_by: 'UniProt',
      annotation_date: '2020-01-02',
      taxon_id: 'taxon:9606',
    });
    expect((await annotations.forProtein(p1, other)).map((r) => r['go_id'])).toEqual(['GO:0000003']);
    expect(await annotations.forProtein(`${tag}-none`)).toEqual([]);
  });

  it('newestSetsByVersion gives the newest set of each asked integer version of a source on a snapshot', async () => {
    const own = await snapshotIn(db);
    const one = await insertAnnotationSet(db, own.id, [], 'goa', '1');
    await insertAnnotationSet(db, own.id, [], 'goa', '2');
    const twoNewer = await insertAnnotationSet(db, own.id, [], 'goa', '2');
    await insertAnnotationSet(db, own.id, [], 'quickgo', '3');
    await insertAnnotationSet(db, own.id, [], 'goa', '4');

    const found = await annotations.newestSetsByVersion('goa', own.id, [1, 2, 3]);
    expect(found).toEqual(
      new Map([
        [1, one],
        [2, twoNewer],
      ]),
    );
    expect(await annotations.newestSetsByVersion('goa', snapshot.id, [9])).toEqual(new Map());
  });

  it('list gives every set (or those of one source), newest first', async () => {
    const goa = await insertAnnotationSet(db, snapshot.id, [], 'goa', 'list');
    const quickgo = await insertAnnotationSet(db, snapshot.id, [], 'quickgo', 'list');
    const all = (await annotations.list()).map((s) => s.id);
    expect(all.indexOf(quickgo)).toBeGreaterThanOrEqual(0);
    expect(all.indexOf(quickgo)).toBeLessThan(all.indexOf(goa));
    expect(all.indexOf(goa)).toBeLessThan(all.indexOf(setId));

    const onlyQuickgo = await annotations.list('quickgo');
    expect(onlyQuickgo.every((s) => s.source === 'quickgo')).toBe(true);
    expect(onlyQuickgo.map((s) => s.id)).toContain(quickgo);
    expect(onlyQuickgo.map((s) => s.id)).not.toContain(goa);
    expect((await annotations.list('goa')).find((s) => s.id === setId)).toEqual(
      await annotations.getById(setId),
    );
  });

  it('delete removes a set and its annotations; an unknown set is not_found', async () => {
    const doomed = await insertAnnotationSet(db, snapshot.id, [
      row(`${tag}-D`, t1, 'EXP'),
      row(`${tag}-D`, t2, 'EXP'),
    ]);
    expect(await annotations.delete(doomed)).toEqual({ id: doomed, deleted: true, annotations_deleted: 2 });
    expect(await annotations.findById(doomed)).toBeNull();
    expect(await annotations.forProtein(`${tag}-D`)).toEqual([]);
    expect(await domainError(annotations.delete(doomed))).toMatchObject({ code: 'not_found' });
  });

  it('delete is refused (conflict) while a prediction set uses the set, and keeps everything', async () => {
    const used = await insertAnnotationSet(db, snapshot.id, [row(`${tag}-U`, t1, 'EXP')]);
    const configId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}` });
    await insertPredictionSet(
      db,
      { configId, annotationSetId: used, snapshotId: snapshot.id },
      { feature_schema_sha: 'a'.repeat(64) },
    );
    try {
      expect(await domainError(annotations.delete(used))).toMatchObject({
        code: 'conflict',
        message: '1 prediction set(s) still reference this annotation set',
      });
      expect((await annotations.getById(used)).annotation_count).toBe(1);
      expect(await annotations.forProtein(`${tag}-U`)).toHaveLength(1);
    } finally {
      await new EmbeddingRepository(db).deleteConfig(configId);
    }
    // Its prediction set went with the embedding config: the set may go now.
    expect(await annotations.delete(used)).toEqual({ id: used, deleted: true, annotations_deleted: 1 });
  });
});

describe('AnnotationRepository.newestNonEmptySet (a database of its own: it reads every set)', () => {
  let own: DataSource;

  useOwnDatabase('annotations', (opened) => {
    own = opened;
  });

  it('is null without a set holding annotations, else the newest such set with its snapshot', async () => {
    const repository = new AnnotationRepository(own);
    const snapshot = await snapshotIn(own);
    const term = snapshot.terms.get('GO:0000001')!;
    expect(await repository.newestNonEmptySet()).toBeNull();

    await insertAnnotationSet(own, snapshot.id, []);
    expect(await repository.newestNonEmptySet()).toBeNull();

    const older = await insertAnnotationSet(own, snapshot.id, [row('P1', term, 'EXP')]);
    const newer = await insertAnnotationSet(own, snapshot.id, [row('P2', term, 'EXP')]);
    await insertAnnotationSet(own, snapshot.id, []);
    expect(await repository.newestNonEmptySet()).toEqual({
      annotation_set_id: newer,
      ontology_snapshot_id: snapshot.id,
    });
    await repository.delete(newer);
    expect(await repository.newestNonEmptySet()).toEqual({
      annotation_set_id: older,
      ontology_snapshot_id: snapshot.id,
    });
  });
});
