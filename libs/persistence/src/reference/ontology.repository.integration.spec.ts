import { randomUUID } from 'node:crypto';
import { oboContentSha256, type OboDocument, type OboTerm, type RelationType } from '@svc/domain';
import { DataSource } from 'typeorm';
import { OntologyRepository, OntologyVersionConflict } from './ontology.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';

// OntologyRepository against the run's PostgreSQL: a release is stored once, all or nothing, and
// read back as terms, alt ids, edges, upward subgraphs and a rebuilt OBO document.

let db: DataSource;
let ontologies: OntologyRepository;

useRunDatabase((opened) => {
  db = opened;
  ontologies = new OntologyRepository(db);
});

function term(
  id: string,
  aspect: 'F' | 'P' | 'C' | null,
  parents: [string, RelationType][] = [],
  extra: Partial<OboTerm> = {},
): OboTerm {
  return {
    id,
    name: `name of ${id}`,
    namespace: null,
    aspect,
    definition: `definition of ${id}`,
    isObsolete: false,
    altIds: [],
    parents: parents.map(([parent, relation]) => ({ id: parent, relation })),
    ...extra,
  };
}

function obo(terms: OboTerm[]): OboDocument {
  return {
    header: { formatVersion: '1.2', dataVersion: null, ontology: 'go', date: null },
    terms,
    typedefs: [],
  };
}

/**
 * Six terms: F root 1 <- 2 <- 3 (3 also regulates 1), P root 4 <- 5 (part_of; 5 also names a parent
 * outside the file), 6 obsolete. Alt ids: 0000033 of 3; 0000066 listed by 2 then by 6 (2 keeps it);
 * 6 also lists 0000001, a primary id, which stays 1's.
 */
const RELEASE = obo([
  term('GO:0000001', 'F'),
  term('GO:0000002', 'F', [['GO:0000001', 'is_a']], { altIds: ['GO:0000066'] }),
  term(
    'GO:0000003',
    'F',
    [
      ['GO:0000002', 'is_a'],
      ['GO:0000001', 'regulates'],
    ],
    { altIds: ['GO:0000033'] },
  ),
  term('GO:0000004', 'P'),
  term('GO:0000005', 'P', [
    ['GO:0000004', 'part_of'],
    ['GO:9999999', 'is_a'],
  ]),
  term('GO:0000006', 'C', [], { isObsolete: true, altIds: ['GO:0000001', 'GO:0000066'] }),
]);

const version = () => `test-${randomUUID()}`;

describe('OntologyRepository', () => {
  let snapshotId: string;
  let oboVersion: string;

  beforeAll(async () => {
    oboVersion = version();
    const saved = await ontologies.saveSnapshot(RELEASE, oboVersion, 'file:///go.obo');
    snapshotId = saved.snapshot.id;
  });

  it('saveSnapshot stores a release with its counts, readable by version and by id', async () => {
    const snapshot = await ontologies.findByVersion(oboVersion);
    expect(snapshot).toEqual({
      id: snapshotId,
      obo_version: oboVersion,
      obo_url: 'file:///go.obo',
      loaded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      ia_url: null,
      format_version: '1.2',
      term_count: 6,
      relationship_count: 4,
      content_sha256: oboContentSha256(RELEASE),
    });
    expect(await ontologies.findById(snapshotId)).toEqual(snapshot);
    expect(await ontologies.getById(snapshotId)).toEqual(snapshot);
  });

  it('saveSnapshot reports skipped relationships and kept alt ids, and is idempotent by version and content', async () => {
    const v = version();
    const first = await ontologies.saveSnapshot(RELEASE, v, 'file:///a.obo');
    expect(first).toMatchObject({ created: true, skipped_relationships: 1, alt_ids: 2 });

    const again = await ontologies.saveSnapshot(RELEASE, v, 'file:///b.obo');
    expect(again).toEqual({ snapshot: first.snapshot, created: false, skipped_relationships: 0, alt_ids: 0 });
    expect(await ontologies.liveTermAspects(first.snapshot.id)).toHaveLength(5);
  });

  it('saveSnapshot refuses other content under a stored data-version and stores nothing', async () => {
    const v = version();
    const first = await ontologies.saveSnapshot(RELEASE, v, 'file:///a.obo');
    const subset = obo([term('GO:0000001', 'F')]);
    const refusal = await ontologies.saveSnapshot(subset, v, 'file:///subset.obo').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(OntologyVersionConflict);
    expect(refusal).toMatchObject({
      stored: { id: first.snapshot.id, term_count: 6, content_sha256: oboContentSha256(RELEASE) },
      contentSha256: oboContentSha256(subset),
    });
    expect((await ontologies.list()).filter((s) => s.obo_version === v)).toHaveLength(1);
  });

  it('saveSnapshot hashes a snapshot stored before content hashes from its stored content', async () => {
    const v = version();
    const first = await ontologies.saveSnapshot(RELEASE, v, 'file:///a.obo');
    await db.query(`UPDATE ontology_snapshot SET content_sha256 = NULL WHERE id = $1`, [first.snapshot.id]);
    const again = await ontologies.saveSnapshot(RELEASE, v, 'file:///a.obo');
    expect(again).toMatchObject({ created: false, snapshot: { id: first.snapshot.id } });
    expect((await ontologies.getById(first.snapshot.id)).content_sha256).toBe(oboContentSha256(RELEASE));
    await db.query(`UPDATE ontology_snapshot SET content_sha256 = NULL WHERE id = $1`, [first.snapshot.id]);
    await expect(ontologies.saveSnapshot(obo([term('GO:0000001', 'F')]), v, 'file:///b.obo')).rejects.toThrow(
      OntologyVersionConflict,
    );
  });

  it('saveSnapshot serialises concurrent loads of one release: one creates, the other gets it', async () => {
    const v = version();
    const results = await Promise.all([
      ontologies.saveSnapshot(RELEASE, v, 'file:///go.obo'),
      ontologies.saveSnapshot(RELEASE, v, 'file:///go.obo'),
    ]);
    expect(results.map((r) => r.created).sort()).toEqual([false, true]);
    expect(results[0].snapshot.id).toBe(results[1].snapshot.id);
    const stored = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM go_term WHERE ontology_snapshot_id = $1`,
      [results[0].snapshot.id],
    );
    expect(stored).toEqual([{ n: 6 }]);
  });

  it('saveSnapshot writes nothing when a part of the release cannot be stored', async () => {
    const v = version();
    const broken = obo([
      term('GO:0000001', 'F'),
      term('GO:0000002', 'F', [['GO:0000001', 'has_part' as RelationType]], { altIds: ['GO:0000022'] }),
    ]);
    await expect(ontologies.saveSnapshot(broken, v, 'file:///broken.obo')).rejects.toThrow(
      /go_term_relationship_relation_type_check/,
    );
    expect(await ontologies.findByVersion(v)).toBeNull();
  });

  it('find* give null and get/setIaUrl a not_found error for an unknown snapshot', async () => {
    expect(await ontologies.findByVersion(version())).toBeNull();
    expect(await ontologies.findById(randomUUID())).toBeNull();
    expect(await domainError(ontologies.getById(randomUUID()))).toMatchObject({
      code: 'not_found',
      message: 'Ontology snapshot not found',
    });
    expect(await domainError(ontologies.setIaUrl(randomUUID(), 'file:///ia.tsv'))).toMatchObject({
      code: 'not_found',
    });
  });

  it('setIaUrl sets and clears the snapshot’s information-accretion file', async () => {
    const v = version();
    const { snapshot } = await ontologies.saveSnapshot(obo([term('GO:0000001', 'F')]), v, 'file:///go.obo');
    const set = await ontologies.setIaUrl(snapshot.id, 'file:///ia.tsv');
    expect(set).toEqual({ ...snapshot, ia_url: 'file:///ia.tsv' });
    expect((await ontologies.getById(snapshot.id)).ia_url).toBe('file:///ia.tsv');
    expect(await ontologies.setIaUrl(snapshot.id, null)).toEqual(snapshot);
  });

  it('list gives every snapshot, newest first', async () => {
    const older = await ontologies.saveSnapshot(obo([term('GO:0000001', 'F')]), version(), 'file:///1.obo');
    const newer = await ontologies.saveSnapshot(obo([term('GO:0000001', 'F')]), version(), 'file:///2.obo');
    const ids = (await ontologies.list()).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([older.snapshot.id, newer.snapshot.id, snapshotId]));
    expect(ids.indexOf(newer.snapshot.id)).toBeLessThan(ids.indexOf(older.snapshot.id));
    expect(ids.indexOf(older.snapshot.id)).toBeLessThan(ids.indexOf(snapshotId));
  });

  it('termIndex maps primary and alt ids to their canonical term', async () => {
    const index = await ontologies.termIndex(snapshotId);
    expect([...index.keys()].sort()).toEqual([
      'GO:0000001',
      'GO:0000002',
      'GO:0000003',
      'GO:0000004',
      'GO:0000005',
      'GO:0000006',
      'GO:0000033',
      'GO:0000066',
    ]);
    expect(index.get('GO:0000033')).toEqual(index.get('GO:0000003'));
    expect(index.get('GO:0000066')).toEqual(index.get('GO:0000002'));
    expect(index.get('GO:0000002')).toEqual({
      id: expect.any(Number),
      go_id: 'GO:0000002',
      aspect: 'F',
      is_obsolete: false,
    });
    expect(index.get('GO:0000006')).toMatchObject({ go_id: 'GO:0000006', aspect: 'C', is_obsolete: true });
    expect(await ontologies.termIndex(randomUUID())).toEqual(new Map());
  });

  it('liveTermAspects leaves obsolete terms out; isAPartOfEdges keeps only is_a and part_of', async () => {
    const index = await ontologies.termIndex(snapshotId);
    const rowId = (goId: string) => index.get(goId)!.id;
    const live = await ontologies.liveTermAspects(snapshotId);
    expect(live.sort((a, b) => a.go_id.localeCompare(b.go_id))).toEqual([
      { id: rowId('GO:0000001'), go_id: 'GO:0000001', aspect: 'F' },
      { id: rowId('GO:0000002'), go_id: 'GO:0000002', aspect: 'F' },
      { id: rowId('GO:0000003'), go_id: 'GO:0000003', aspect: 'F' },
      { id: rowId('GO:0000004'), go_id: 'GO:0000004', aspect: 'P' },
      { id: rowId('GO:0000005'), go_id: 'GO:0000005', aspect: 'P' },
    ]);
    const edges = await ontologies.isAPartOfEdges(snapshotId);
    expect(edges.sort((a, b) => a.child - b.child)).toEqual([
      { child: rowId('GO:0000002'), parent: rowId('GO:0000001') },
      { child: rowId('GO:0000003'), parent: rowId('GO:0000002') },
      { child: rowId('GO:0000005'), parent: rowId('GO:0000004') },
    ]);
  });

  it('subgraph walks up from the seeds (alt ids resolved) at most `depth` steps, with the edges among its nodes', async () => {
    const index = await ontologies.termIndex(snapshotId);
    const rowId = (goId: string) => index.get(goId)!.id;
    const node = (goId: string, aspect: string, isQuery: boolean) => ({
      id: rowId(goId),
      go_id: goId,
      name: `name of ${goId}`,
      aspect,
      is_query: isQuery,
    });

    const fromAlt = await ontologies.subgraph(snapshotId, ['GO:0000033'], 1);
    expect(fromAlt.nodes).toEqual([
      node('GO:0000001', 'F', false),
      node('GO:0000002', 'F', false),
      node('GO:0000003', 'F', true),
    ]);
    expect(fromAlt.edges).toEqual(
      [
        { source: rowId('GO:0000002'), target: rowId('GO:0000001'), relation_type: 'is_a' },
        { source: rowId('GO:0000003'), target: rowId('GO:0000001'), relation_type: 'regulates' },
        { source: rowId('GO:0000003'), target: rowId('GO:0000002'), relation_type: 'is_a' },
      ].sort((a, b) => a.source - b.source || a.target - b.target),
    );

    const seedOnly = await ontologies.subgraph(snapshotId, ['GO:0000003'], 0);
    expect(seedOnly).toEqual({ nodes: [node('GO:0000003', 'F', true)], edges: [] });

    const twoSeeds = await ontologies.subgraph(snapshotId, ['GO:0000005', 'GO:0000002'], 5);
    expect(twoSeeds.nodes.map((n) => [n.go_id, n.is_query])).toEqual([
      ['GO:0000001', false],
      ['GO:0000002', true],
      ['GO:0000004', false],
      ['GO:0000005', true],
    ]);
    expect(twoSeeds.edges).toHaveLength(2);

    expect(await ontologies.subgraph(snapshotId, ['GO:1234567'], 3)).toEqual({ nodes: [], edges: [] });
  });

  it('oboDocument rebuilds the stored release: terms in load order, kept alt ids and edges', async () => {
    const document = await ontologies.oboDocument(snapshotId);
    expect(document.header).toEqual({ formatVersion: null, dataVersion: null, ontology: 'go', date: null });
    expect(document.typedefs).toEqual([]);
    const namespaces = { F: 'molecular_function', P: 'biological_process', C: 'cellular_component' };
    expect(document.terms).toEqual([
      { ...RELEASE.terms[0], namespace: namespaces.F },
      { ...RELEASE.terms[1], namespace: namespaces.F },
      { ...RELEASE.terms[2], namespace: namespaces.F },
      { ...RELEASE.terms[3], namespace: namespaces.P },
      { ...RELEASE.terms[4], namespace: namespaces.P, parents: [{ id: 'GO:0000004', relation: 'part_of' }] },
      { ...RELEASE.terms[5], namespace: namespaces.C, altIds: [] },
    ]);
    expect((await ontologies.oboDocument(randomUUID())).terms).toEqual([]);
  });
});
