import { randomBytes, randomInt } from 'node:crypto';
import { md5Hex } from '@svc/domain';
import { DataSource } from 'typeorm';
import { EmbeddingRepository } from '../embeddings/embedding.repository';
import { ProteinInput, ProteinRepository } from './protein.repository';
import { domainError, useRunDatabase, useOwnDatabase } from '../../testing/repository-test-support';
import {
  annotationRow,
  goRelease,
  insertAnnotationSet,
  insertQuerySet,
  insertSnapshot,
  proteinFields,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';

// ProteinRepository against the run's PostgreSQL: sequences stored once by hash, proteins and
// UniProt metadata upserted without losing stored values, the list and detail reads, and (in a
// database of its own) the whole-table statistics and orphan-sequence maintenance.

let db: DataSource;
let proteins: ProteinRepository;

useRunDatabase((opened) => {
  db = opened;
  proteins = new ProteinRepository(db);
});

const AMINO_ACIDS = 'ACDEFGHIKLMNPQRSTVWY';

/** A random sequence (unique in practice) with its MD5. */
function sequence(length = 40): { sequence: string; hash: string } {
  const text = Array.from({ length }, () => AMINO_ACIDS[randomInt(AMINO_ACIDS.length)]).join('');
  return { sequence: text, hash: md5Hex(text) };
}

const protein = proteinFields;

async function sequenceIdsOf(hashes: string[]): Promise<number[]> {
  const rows = await db.query<{ id: number }[]>(
    `SELECT id FROM sequence WHERE sequence_hash = ANY($1::text[]) ORDER BY id`,
    [hashes],
  );
  return rows.map((r) => r.id);
}

describe('ProteinRepository', () => {
  const tag = `PRT${randomBytes(4).toString('hex').toUpperCase()}`;
  const acc = (suffix: string) => `${tag}-${suffix}`;

  it('upsertSequences stores each distinct sequence once and gives the id of every hash, again the same ids', async () => {
    const [a, b, c] = [sequence(), sequence(), sequence()];
    const first = await proteins.upsertSequences(db, [a, b, a]);
    expect([...first.keys()].sort()).toEqual([a.hash, b.hash].sort());
    expect(await sequenceIdsOf([a.hash, b.hash])).toEqual([first.get(a.hash), first.get(b.hash)].sort());

    const again = await proteins.upsertSequences(db, [c, b, a]);
    expect(again.get(a.hash)).toBe(first.get(a.hash));
    expect(again.get(b.hash)).toBe(first.get(b.hash));
    expect(again.get(c.hash)).toEqual(expect.any(Number));
    expect(await sequenceIdsOf([a.hash, b.hash, c.hash])).toHaveLength(3);
    expect(await proteins.upsertSequences(db, [])).toEqual(new Map());
  });

  it('upsertProteins inserts, then updates by accession keeping stored values the new row leaves null', async () => {
    const s = (await proteins.upsertSequences(db, [sequence()])).values().next().value!;
    const accession = acc('UP');
    const full = protein(accession, {
      sequenceId: s,
      entryName: 'UP_HUMAN',
      proteinName: 'Up protein',
      geneName: 'UP1',
      organism: 'Homo sapiens',
      taxonomyId: '9606',
      length: 40,
      reviewed: true,
    });
    // The last of two rows of one accession wins.
    expect(await proteins.upsertProteins(db, [protein(accession, { entryName: 'LOST' }), full])).toBe(1);
    const stored = await proteins.detail(accession);
    expect(stored).toMatchObject({
      accession,
      canonical_accession: accession,
      is_canonical: true,
      isoform_index: null,
      sequence_id: s,
      entry_name: 'UP_HUMAN',
      protein_name: 'Up protein',
      gene_name: 'UP1',
      organism: 'Homo sapiens',
      taxonomy_id: '9606',
      length: 40,
      reviewed: true,
    });

    await proteins.upsertProteins(db, [
      protein(accession, {
        canonicalAccession: acc('CANON'),
        isCanonical: false,
        isoformIndex: 2,
        geneName: 'UP2',
      }),
    ]);
    const updated = await proteins.detail(accession);
    expect(updated).toMatchObject({
      canonical_accession: acc('CANON'),
      is_canonical: false,
      isoform_index: 2,
      sequence_id: s,
      entry_name: 'UP_HUMAN',
      protein_name: 'Up protein',
      gene_name: 'UP2',
      organism: 'Homo sapiens',
      taxonomy_id: '9606',
      length: 40,
      reviewed: true,
      created_at: stored['created_at'],
    });
    expect((updated['updated_at'] as string) > (stored['updated_at'] as string)).toBe(true);
  });

  it('upsertMetadata / saveMetadata store UniProt fields by canonical accession; absent fields keep their value', async () => {
    const accession = acc('META');
    await proteins.upsertProteins(db, [protein(accession)]);
    expect(await proteins.detail(accession)).toMatchObject({ metadata: null });

    expect(
      await proteins.upsertMetadata(db, [
        { canonicalAccession: accession, function_cc: 'old function', keywords: 'Heme' },
      ]),
    ).toBe(1);
    expect(
      await proteins.saveMetadata([
        { canonicalAccession: accession, function_cc: 'new function', ec_number: null },
      ]),
    ).toBe(1);
    const { metadata } = (await proteins.detail(accession)) as { metadata: Record<string, string | null> };
    expect(metadata).toMatchObject({
      function_cc: 'new function',
      keywords: 'Heme',
      ec_number: null,
      pathway: null,
    });
    expect(Object.keys(metadata)).toHaveLength(18);
  });

  it('storeWithSequences stores a page of proteins and their distinct sequences; running it again changes nothing', async () => {
    const shared = sequence();
    const own = sequence();
    const page = [
      { ...protein(acc('S1'), { length: 40 }), sequence: shared },
      { ...protein(acc('S2'), { length: 40 }), sequence: shared },
      { ...protein(acc('S3')), sequence: own },
      { ...protein(acc('S4')), sequence: null },
    ].map(({ sequenceId: _unused, ...entry }) => entry);
    expect(await proteins.storeWithSequences(page)).toEqual({ proteins: 4, sequences: 2 });
    const stored = async () =>
      Promise.all(['S1', 'S2', 'S3', 'S4'].map(async (s) => (await proteins.detail(acc(s)))['sequence_id']));
    const [s1, s2, s3, s4] = await stored();
    expect(s1).toBe(s2);
    expect(s3).not.toBe(s1);
    expect(s4).toBeNull();
    expect(await sequenceIdsOf([shared.hash, own.hash])).toEqual([s1, s3].sort());

    expect(await proteins.storeWithSequences(page)).toEqual({ proteins: 4, sequences: 2 });
    expect(await stored()).toEqual([s1, s2, s3, s4]);
  });

  it('storeWithSequences writes nothing when one protein of the page cannot be stored', async () => {
    const fresh = sequence();
    const page = [
      { ...protein(acc('OK')), sequence: fresh },
      // Not an integer: the protein insert fails after the sequences were written.
      { ...protein(acc('BAD'), { isoformIndex: 1.5 }), sequence: sequence() },
    ].map(({ sequenceId: _unused, ...entry }) => entry);
    await expect(proteins.storeWithSequences(page)).rejects.toThrow(/invalid input syntax for type integer/);
    expect(await proteins.exists(acc('OK'))).toBe(false);
    expect(await sequenceIdsOf([fresh.hash])).toEqual([]);
  });

  it('refreshProteins updates loaded proteins’ core fields', async () => {
    const accession = acc('REF');
    await proteins.upsertProteins(db, [protein(accession, { reviewed: false, organism: 'Mus musculus' })]);
    expect(
      await proteins.refreshProteins([protein(accession, { reviewed: true, entryName: 'REF_MOUSE' })]),
    ).toBe(1);
    expect(await proteins.detail(accession)).toMatchObject({
      reviewed: true,
      entry_name: 'REF_MOUSE',
      organism: 'Mus musculus',
    });
  });

  it('exists and existingAccessions tell which accessions are loaded', async () => {
    await proteins.upsertProteins(db, [protein(acc('E1')), protein(acc('E2'))]);
    expect(await proteins.exists(acc('E1'))).toBe(true);
    expect(await proteins.exists(acc('E9'))).toBe(false);
    expect(await proteins.existingAccessions([acc('E1'), acc('E9'), acc('E2')])).toEqual(
      new Set([acc('E1'), acc('E2')]),
    );
    expect(await proteins.existingAccessions([])).toEqual(new Set());
  });

  describe('list', () => {
    const listTag = `${tag}L`;
    const at = (suffix: string) => `${listTag}-${suffix}`;

    beforeAll(async () => {
      await proteins.upsertProteins(db, [
        protein(at('A'), { reviewed: true, geneName: 'alpha' }),
        protein(at('B'), { reviewed: false }),
        protein(at('C'), { reviewed: true, organism: 'Homo sapiens' }),
        protein(at('C-2'), { canonicalAccession: at('C'), isCanonical: false, isoformIndex: 2 }),
        protein(`${tag}X`, { entryName: `${listTag}-IN-NAME` }),
        protein(`${tag}Y`, { proteinName: `Protein ${listTag.toLowerCase()}-in-protein-name` }),
      ]);
    });

    const list = (extra: Partial<Parameters<ProteinRepository['list']>[0]> = {}) =>
      proteins.list({ search: listTag, canonicalOnly: false, limit: 50, offset: 0, ...extra });
    const accessions = async (extra: Partial<Parameters<ProteinRepository['list']>[0]> = {}) =>
      (await list(extra)).items.map((p) => p['accession']);

    it('finds by accession, entry name, protein name, gene or organism, by accession order, with the total', async () => {
      const all = await list();
      expect(all.total).toBe(6);
      expect(all.items.map((p) => p['accession'])).toEqual([
        at('A'),
        at('B'),
        at('C'),
        at('C-2'),
        `${tag}X`,
        `${tag}Y`,
      ]);
      expect(all.items[0]).toEqual({
        accession: at('A'),
        canonical_accession: at('A'),
        is_canonical: true,
        isoform_index: null,
        sequence_id: null,
        entry_name: null,
        protein_name: null,
        gene_name: 'alpha',
        organism: null,
        taxonomy_id: null,
        length: null,
        reviewed: true,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(await accessions({ search: `  ${listTag.toLowerCase()}-c  ` })).toEqual([at('C'), at('C-2')]);
      expect(await accessions({ search: `${listTag}-IN-PROTEIN` })).toEqual([`${tag}Y`]);
    });

    it('keeps canonical entries only, or reviewed ones, when asked', async () => {
      expect(await accessions({ canonicalOnly: true })).toEqual([
        at('A'),
        at('B'),
        at('C'),
        `${tag}X`,
        `${tag}Y`,
      ]);
      expect(await accessions({ reviewed: true })).toEqual([at('A'), at('C')]);
      expect(await accessions({ reviewed: false, canonicalOnly: true })).toEqual([at('B')]);
    });

    it('pages with limit and offset, the total unchanged', async () => {
      expect(await list({ limit: 2, offset: 1 })).toMatchObject({ total: 6, limit: 2, offset: 1 });
      expect(await accessions({ limit: 2, offset: 1 })).toEqual([at('B'), at('C')]);
      expect(await list({ limit: 2, offset: 10 })).toEqual({ items: [], total: 6, limit: 2, offset: 10 });
    });

    it('takes % and _ in the search literally', async () => {
      expect(await list({ search: `${listTag}_A` })).toMatchObject({ items: [], total: 0 });
      expect(await list({ search: `${listTag}%` })).toMatchObject({ items: [], total: 0 });
    });
  });

  it('detail gives the protein with its metadata, embedding and annotation counts and its isoforms', async () => {
    const canonical = acc('D');
    const s = sequence();
    await proteins.storeWithSequences([
      { ...withoutSequenceId(protein(canonical, { reviewed: true })), sequence: s },
      {
        ...withoutSequenceId(
          protein(acc('D-3'), { canonicalAccession: canonical, isCanonical: false, isoformIndex: 3 }),
        ),
        sequence: null,
      },
      {
        ...withoutSequenceId(
          protein(acc('D-2'), { canonicalAccession: canonical, isCanonical: false, isoformIndex: 2 }),
        ),
        sequence: null,
      },
    ]);
    await proteins.saveMetadata([{ canonicalAccession: canonical, keywords: 'Kinase' }]);
    const [sequenceId] = await sequenceIdsOf([s.hash]);

    const embeddings = new EmbeddingRepository(db);
    const configId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}` });
    await embeddings.writeVectors(configId, [
      { sequenceId: sequenceId!, chunkIndex: 0, vector: new Float32Array([1, 0]) },
      { sequenceId: sequenceId!, chunkIndex: 1, vector: new Float32Array([0, 1]) },
    ]);

    const snapshot = await insertSnapshot(db, goRelease([['GO:0000001', 'F']]));
    const term = snapshot.terms.get('GO:0000001')!;
    await insertAnnotationSet(
      db,
      snapshot.id,
      ['EXP', 'IDA', 'IEA'].map((evidenceCode) =>
        annotationRow(canonical, term, evidenceCode, { isNot: evidenceCode === 'IEA' }),
      ),
    );

    try {
      const detail = await proteins.detail(canonical);
      expect(detail).toMatchObject({
        accession: canonical,
        is_canonical: true,
        sequence_id: sequenceId,
        reviewed: true,
        embedding_count: 2,
        go_annotation_count: 3,
        isoform_accessions: [acc('D-2'), acc('D-3')],
      });
      expect((detail['metadata'] as Record<string, unknown>)['keywords']).toBe('Kinase');
      // An isoform lists no isoforms; it reads its canonical entry's metadata.
      expect(await proteins.detail(acc('D-2'))).toMatchObject({
        isoform_accessions: [],
        embedding_count: 0,
        go_annotation_count: 0,
        metadata: expect.objectContaining({ keywords: 'Kinase' }),
      });
    } finally {
      await embeddings.deleteConfig(configId);
    }
    expect(await domainError(proteins.detail(acc('nobody')))).toMatchObject({
      code: 'not_found',
      message: 'Protein not found',
    });
  });
});

function withoutSequenceId({ sequenceId: _unused, ...rest }: ProteinInput): Omit<ProteinInput, 'sequenceId'> {
  return rest;
}

describe('ProteinRepository statistics and orphan sequences (a database of its own: they read every row)', () => {
  let own: DataSource;
  let repository: ProteinRepository;

  useOwnDatabase('proteins', (opened) => {
    own = opened;
    repository = new ProteinRepository(own);
  });

  it('stats counts proteins, isoforms, reviewed, metadata, annotated, sequences and embedded proteins', async () => {
    expect(await repository.stats()).toEqual({
      proteins: 0,
      canonical: 0,
      isoforms: 0,
      reviewed: 0,
      with_metadata: 0,
      with_go_annotations: 0,
      sequences: 0,
      with_embeddings: 0,
    });
    const [a, b] = [sequence(), sequence()];
    await repository.storeWithSequences([
      { ...withoutSequenceId(protein('P1', { reviewed: true })), sequence: a },
      {
        ...withoutSequenceId(
          protein('P1-2', { canonicalAccession: 'P1', isCanonical: false, isoformIndex: 2 }),
        ),
        sequence: a,
      },
      { ...withoutSequenceId(protein('P2', { reviewed: false })), sequence: b },
      { ...withoutSequenceId(protein('P3')), sequence: null },
    ]);
    await repository.saveMetadata([{ canonicalAccession: 'P1', keywords: 'Heme' }]);
    const configId = await saveEmbeddingConfig(own, { model_name: 'kmer-stats' });
    const [aId] = await own
      .query<{ id: number }[]>(`SELECT id FROM sequence WHERE sequence_hash = $1`, [a.hash])
      .then((rows) => rows.map((r) => r.id));
    await new EmbeddingRepository(own).writeVectors(configId, [
      { sequenceId: aId!, chunkIndex: 0, vector: new Float32Array([1]) },
    ]);
    // A query set's own sequence is no protein's: the public statistics do not count it.
    await insertQuerySet(own, 'private upload', [['q1', sequence().sequence]]);

    expect(await repository.stats()).toEqual({
      proteins: 4,
      canonical: 3,
      isoforms: 1,
      reviewed: 1,
      // P1 and its isoform share P1's metadata.
      with_metadata: 2,
      with_go_annotations: 0,
      // The proteins' distinct sequences (P3 has none).
      sequences: 2,
      // P1 and its isoform share the embedded sequence.
      with_embeddings: 2,
    });
  });

  it('countOrphanSequences / deleteOrphanSequences find and drop sequences no protein or query set uses', async () => {
    const [used, queried, orphanA, orphanB] = [sequence(), sequence(), sequence(), sequence()];
    const before = await repository.countOrphanSequences();
    await repository.storeWithSequences([{ ...withoutSequenceId(protein('O1')), sequence: used }]);
    await insertQuerySet(own, 'orphans', [['q1', queried.sequence]]);
    await repository.upsertSequences(own, [orphanA, orphanB]);
    expect(await repository.countOrphanSequences()).toBe(before + 2);

    expect(await repository.deleteOrphanSequences()).toBe(before + 2);
    expect(await repository.countOrphanSequences()).toBe(0);
    const left = await own.query<{ sequence_hash: string }[]>(
      `SELECT sequence_hash FROM sequence WHERE sequence_hash = ANY($1::text[])`,
      [[used.hash, queried.hash, orphanA.hash, orphanB.hash]],
    );
    expect(left.map((r) => r.sequence_hash).sort()).toEqual([used.hash, queried.hash].sort());
    expect(await repository.deleteOrphanSequences()).toBe(0);
  });
});
