import { randomBytes } from 'node:crypto';
import { md5Hex } from '@svc/domain';
import { DataSource } from 'typeorm';
import { EmbeddingRepository } from '../embeddings/embedding.repository';
import { AnnotationRepository, AnnotationRow } from '../reference/annotation.repository';
import { TermRef } from '../reference/ontology.repository';
import { ProteinRepository } from '../reference/protein.repository';
import { QuerySetRepository } from '../reference/query-set.repository';
import { ReferencePoolRepository } from './reference-pool.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import {
  annotationRow,
  deleteFixtures,
  goRelease,
  insertAnnotationSet,
  insertSnapshot,
  proteinEntry,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';

// ReferencePoolRepository against the run's PostgreSQL: which proteins make the embedding and the
// homology reference pools (with their donor annotations and chunk-averaged vectors), the queries of
// a prediction, and the fingerprints that key the pool caches.

let db: DataSource;
let pools: ReferencePoolRepository;
let embeddings: EmbeddingRepository;

const tag = `RP${randomBytes(4).toString('hex').toUpperCase()}`;
/**
 * RA: embedded in two chunks; F by EXP, P by IEA, a NOT of C. RB: isoform of RA, embedded; P by IDA.
 * RC: a sequence, not embedded; F by IDA. RD: no sequence; F by EXP. RE: embedded; only a NOT.
 * RF: embedded; only a term without aspect.
 */
const [RA, RB, RC, RD, RE, RF] = ['A', 'B', 'C', 'D', 'E', 'F'].map((s) => `${tag}${s}`) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const SEQUENCES = { RA: `MA${tag}`, RB: `MB${tag}`, RC: `MC${tag}`, RE: `ME${tag}`, RF: `MF${tag}` };

let terms: Map<string, TermRef>;
let snapshotId: string;
let setId: string;
let configId: string;
let otherConfigId: string;
let sequenceIds: Record<keyof typeof SEQUENCES, number>;

function annotation(protein: string, goId: string, evidenceCode: string, isNot = false): AnnotationRow {
  return annotationRow(protein, terms.get(goId)!, evidenceCode, {
    qualifier: isNot ? 'NOT|enables' : 'enables',
    isNot,
  });
}

const loadSet = (rows: AnnotationRow[]): Promise<string> => insertAnnotationSet(db, snapshotId, rows);

const vector = (...values: number[]) => new Float32Array(values);

useRunDatabase(
  (opened) => {
    db = opened;
    pools = new ReferencePoolRepository(db);
    embeddings = new EmbeddingRepository(db);
  },
  {
    teardown: () => deleteFixtures(db, { configIds: [configId, otherConfigId], annotationSetIds: [setId] }),
  },
);

beforeAll(async () => {
  ({ id: snapshotId, terms } = await insertSnapshot(
    db,
    goRelease([
      ['GO:0000000', null],
      ['GO:0000001', 'F'],
      ['GO:0000002', 'P'],
      ['GO:0000003', 'C'],
    ]),
  ));

  const proteins = new ProteinRepository(db);
  const entry = (
    accession: string,
    sequence: string | null,
    extra: { canonicalAccession?: string; taxonomyId?: string | null } = {},
  ) =>
    proteinEntry(accession, sequence, {
      canonicalAccession: extra.canonicalAccession ?? accession,
      isCanonical: extra.canonicalAccession === undefined,
      isoformIndex: extra.canonicalAccession === undefined ? null : 2,
      taxonomyId: extra.taxonomyId ?? null,
    });
  await proteins.storeWithSequences([
    entry(RA, SEQUENCES.RA, { taxonomyId: '9606' }),
    entry(RB, SEQUENCES.RB, { canonicalAccession: RA, taxonomyId: '9606' }),
    entry(RC, SEQUENCES.RC),
    entry(RD, null),
    entry(RE, SEQUENCES.RE, { taxonomyId: '10090' }),
    entry(RF, SEQUENCES.RF),
  ]);
  const ids = await proteins.upsertSequences(
    db,
    Object.values(SEQUENCES).map((sequence) => ({ sequence, hash: md5Hex(sequence) })),
  );
  sequenceIds = Object.fromEntries(
    Object.entries(SEQUENCES).map(([key, sequence]) => [key, ids.get(md5Hex(sequence))!]),
  ) as typeof sequenceIds;

  setId = await loadSet([
    annotation(RA, 'GO:0000001', 'EXP'),
    annotation(RA, 'GO:0000002', 'IEA'),
    annotation(RA, 'GO:0000003', 'IDA', true),
    annotation(RB, 'GO:0000002', 'IDA'),
    annotation(RC, 'GO:0000001', 'IDA'),
    annotation(RD, 'GO:0000001', 'EXP'),
    annotation(RE, 'GO:0000001', 'EXP', true),
    annotation(RF, 'GO:0000000', 'EXP'),
  ]);

  // Chunked: a sequence's vector is the mean of its chunks'.
  configId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}`, use_chunking: true });
  otherConfigId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}`, use_chunking: true });
  await embeddings.writeVectors(configId, [
    { sequenceId: sequenceIds.RA, chunkIndex: 0, vector: vector(1, 2) },
    { sequenceId: sequenceIds.RA, chunkIndex: 1, vector: vector(3, 4) },
    { sequenceId: sequenceIds.RB, chunkIndex: 0, vector: vector(5, 6) },
    { sequenceId: sequenceIds.RE, chunkIndex: 0, vector: vector(7, 8) },
    { sequenceId: sequenceIds.RF, chunkIndex: 0, vector: vector(9, 10) },
  ]);
});

const donor = (goId: string, evidenceCode: string) => ({
  goTermId: terms.get(goId)!.id,
  goId,
  aspect: terms.get(goId)!.aspect,
  qualifier: 'enables',
  evidenceCode,
});

describe('ReferencePoolRepository', () => {
  it('loadPool: embedded proteins with a donor annotation, by accession, chunk-averaged vectors', async () => {
    const pool = await pools.loadPool({
      embeddingConfigId: configId,
      annotationSetId: setId,
      aspect: null,
      donorEvidence: 'all',
    });
    expect(pool).toEqual({
      proteins: [
        { accession: RA, canonicalAccession: RA, sequenceId: sequenceIds.RA },
        { accession: RB, canonicalAccession: RA, sequenceId: sequenceIds.RB },
      ],
      dimensions: 2,
      vectors: vector(2, 3, 5, 6),
      annotations: [[donor('GO:0000001', 'EXP'), donor('GO:0000002', 'IEA')], [donor('GO:0000002', 'IDA')]],
    });
  });

  it('loadPool keeps one aspect’s donors, or experimental ones, when asked', async () => {
    const molecularFunction = await pools.loadPool({
      embeddingConfigId: configId,
      annotationSetId: setId,
      aspect: 'F',
      donorEvidence: 'all',
    });
    expect(molecularFunction.proteins.map((p) => p.accession)).toEqual([RA]);
    expect(molecularFunction.vectors).toEqual(vector(2, 3));
    expect(molecularFunction.annotations).toEqual([[donor('GO:0000001', 'EXP')]]);

    const experimental = await pools.loadPool({
      embeddingConfigId: configId,
      annotationSetId: setId,
      aspect: null,
      donorEvidence: 'experimental',
    });
    expect(experimental.annotations).toEqual([[donor('GO:0000001', 'EXP')], [donor('GO:0000002', 'IDA')]]);

    const empty = await pools.loadPool({
      embeddingConfigId: otherConfigId,
      annotationSetId: setId,
      aspect: null,
      donorEvidence: 'all',
    });
    expect(empty).toEqual({ proteins: [], dimensions: 0, vectors: new Float32Array(0), annotations: [] });
  });

  it('loadSequencePool: proteins with a sequence and a donor annotation, embedded or not', async () => {
    const pool = await pools.loadSequencePool({ annotationSetId: setId, donorEvidence: 'all' });
    expect(pool).toEqual({
      proteins: [
        { accession: RA, canonicalAccession: RA, sequenceId: sequenceIds.RA },
        { accession: RB, canonicalAccession: RA, sequenceId: sequenceIds.RB },
        { accession: RC, canonicalAccession: RC, sequenceId: sequenceIds.RC },
      ],
      sequences: [SEQUENCES.RA, SEQUENCES.RB, SEQUENCES.RC],
      annotations: [
        [donor('GO:0000001', 'EXP'), donor('GO:0000002', 'IEA')],
        [donor('GO:0000002', 'IDA')],
        [donor('GO:0000001', 'IDA')],
      ],
    });
    const experimental = await pools.loadSequencePool({
      annotationSetId: setId,
      donorEvidence: 'experimental',
    });
    expect(experimental.annotations[0]).toEqual([donor('GO:0000001', 'EXP')]);
    // Pages of one annotation row (a protein with two rows is never split) give the same pool.
    for (const pageRows of [1, 2])
      expect(
        await pools.loadSequencePool({ annotationSetId: setId, donorEvidence: 'all', pageRows }),
      ).toEqual(pool);
    // Upper bounds, read before the pool: at most every protein with a sequence, and every row.
    const size = await pools.sequencePoolSize(setId);
    expect(size.annotations).toBe(8);
    expect(size.proteins).toBeGreaterThanOrEqual(3);
    expect(size.proteins).toBeLessThanOrEqual(8);
  });

  it('hasSequenceReferences / hasEmbeddedReferences tell whether the pools are empty', async () => {
    expect(await pools.hasSequenceReferences(setId)).toBe(true);
    expect(await pools.hasEmbeddedReferences(configId, setId)).toBe(true);
    expect(await pools.hasEmbeddedReferences(otherConfigId, setId)).toBe(false);

    // Only a protein without a sequence and a NOT annotation.
    const bare = await loadSet([
      annotation(RD, 'GO:0000001', 'EXP'),
      annotation(RA, 'GO:0000001', 'EXP', true),
    ]);
    try {
      expect(await pools.hasSequenceReferences(bare)).toBe(false);
      expect(await pools.hasEmbeddedReferences(configId, bare)).toBe(false);
    } finally {
      await new AnnotationRepository(db).delete(bare);
    }
  });

  it('vectorsBySequence gives one chunk-averaged vector per embedded sequence', async () => {
    const vectors = await pools.vectorsBySequence(configId, [sequenceIds.RA, sequenceIds.RB, sequenceIds.RC]);
    expect(vectors).toEqual(
      new Map([
        [sequenceIds.RA, vector(2, 3)],
        [sequenceIds.RB, vector(5, 6)],
      ]),
    );
  });

  it('queries / countQueries / hasEmbeddedQueries: a query set’s entries, or every embedded protein', async () => {
    const querySetId = (
      await new QuerySetRepository(db).create({
        name: `set-${tag}`,
        description: null,
        entries: [
          {
            accession: 'q2',
            sequence: SEQUENCES.RC,
            hash: md5Hex(SEQUENCES.RC),
            species: null,
            taxonomyId: 10090,
            geneName: null,
          },
          {
            accession: 'q1',
            sequence: `MQ${tag}`,
            hash: md5Hex(`MQ${tag}`),
            species: null,
            taxonomyId: null,
            geneName: null,
          },
        ],
        ownership: { owner_user_id: null, visibility: 'owner', expiresInDays: null },
      })
    )['id'];
    const queries = await pools.queries(configId, querySetId);
    expect(queries).toEqual([
      { accession: 'q2', sequenceId: sequenceIds.RC, taxonomyId: '10090' },
      { accession: 'q1', sequenceId: expect.any(Number), taxonomyId: null },
    ]);
    expect(await pools.countQueries(configId, querySetId)).toBe(2);
    expect(await pools.hasEmbeddedQueries(configId, querySetId)).toBe(false);

    expect(await pools.queries(configId, null)).toEqual([
      { accession: RA, sequenceId: sequenceIds.RA, taxonomyId: '9606' },
      { accession: RB, sequenceId: sequenceIds.RB, taxonomyId: '9606' },
      { accession: RE, sequenceId: sequenceIds.RE, taxonomyId: '10090' },
      { accession: RF, sequenceId: sequenceIds.RF, taxonomyId: null },
    ]);
    expect(await pools.countQueries(configId, null)).toBe(4);
    expect(await pools.hasEmbeddedQueries(configId, null)).toBe(true);
    expect(await pools.queries(otherConfigId, null)).toEqual([]);
    expect(await pools.countQueries(otherConfigId, null)).toBe(0);
    expect(await pools.hasEmbeddedQueries(otherConfigId, null)).toBe(false);

    await embeddings.writeVectors(otherConfigId, [
      { sequenceId: sequenceIds.RC, chunkIndex: 0, vector: vector(1) },
    ]);
    expect(await pools.hasEmbeddedQueries(otherConfigId, querySetId)).toBe(true);
    expect(await pools.countQueries(otherConfigId, null)).toBe(1);
  });

  it('taxonomyIds, sequences and termFrequencies read the pool’s features', async () => {
    expect(await pools.taxonomyIds([RA, RC, `${tag}none`])).toEqual(
      new Map([
        [RA, '9606'],
        [RC, null],
      ]),
    );
    expect(await pools.sequences([sequenceIds.RB, sequenceIds.RA])).toEqual(
      new Map([
        [sequenceIds.RA, SEQUENCES.RA],
        [sequenceIds.RB, SEQUENCES.RB],
      ]),
    );
    // Proteins per term, NOT annotations left out (term 3 has only one).
    expect(await pools.termFrequencies(setId)).toEqual(
      new Map([
        [terms.get('GO:0000000')!.id, 1],
        [terms.get('GO:0000001')!.id, 3],
        [terms.get('GO:0000002')!.id, 2],
      ]),
    );
  });

  it('poolVersion and sequencePoolVersion change when the pool’s embeddings, annotations or proteins do', async () => {
    const version = await pools.poolVersion(configId, setId);
    expect(version).toMatch(/^5:\d+:8:\d+$/);
    expect(await pools.poolVersion(configId, setId)).toBe(version);
    const sequenceVersion = await pools.sequencePoolVersion(setId);
    expect(sequenceVersion).toMatch(/^8:\d+:\d+$/);

    await embeddings.writeVectors(configId, [
      { sequenceId: sequenceIds.RC, chunkIndex: 0, vector: vector(0, 1) },
    ]);
    const embedded = await pools.poolVersion(configId, setId);
    expect(embedded).toMatch(/^6:\d+:8:\d+$/);
    expect(embedded.split(':')[1]).not.toBe(version.split(':')[1]);

    const other = await loadSet([annotation(RA, 'GO:0000001', 'EXP')]);
    try {
      expect(await pools.poolVersion(configId, other)).toMatch(/^6:\d+:1:\d+$/);
      expect(await pools.sequencePoolVersion(other)).toMatch(/^1:\d+:\d+$/);
    } finally {
      await new AnnotationRepository(db).delete(other);
    }

    const newProtein = `MG${tag}`;
    await new ProteinRepository(db).storeWithSequences([proteinEntry(`${tag}G`, newProtein)]);
    expect(await pools.sequencePoolVersion(setId)).not.toBe(sequenceVersion);
  });
});
