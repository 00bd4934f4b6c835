import { randomBytes, randomUUID } from 'node:crypto';
import type { OboDocument } from '@svc/domain';
import { DataSource } from 'typeorm';
import { createDataSource } from '../data-source';
import { EmbeddingRepository } from '../embeddings/embedding.repository';
import { AnnotationRepository } from '../reference/annotation.repository';
import { OntologyRepository, TermRef } from '../reference/ontology.repository';
import { PREDICTIONS_TSV_COLUMNS, PredictionRow } from './prediction-columns';
import { BestTermRow, PredictionExportReader, TsvTextRow } from './prediction-export.reader';
import { PredictionSetRepository, TsvFilters } from './prediction-set.repository';
import { runDatabaseUrl } from '../repository-test-support';

// PredictionExportReader against the run's PostgreSQL: the downloads' text rows match the row-object
// reader's rows and order, batches never split a protein, and the best row of each (protein, term).

let db: DataSource;
let reader: PredictionExportReader;
let sets: PredictionSetRepository;

const RELEASE: OboDocument = {
  header: { formatVersion: null, dataVersion: null, ontology: 'go', date: null },
  terms: (
    [
      ['GO:0000001', 'F'],
      ['GO:0000002', 'P'],
    ] as const
  ).map(([id, aspect]) => ({
    id,
    name: `name of ${id}`,
    namespace: null,
    aspect,
    definition: null,
    isObsolete: false,
    altIds: [],
    parents: [],
  })),
  typedefs: [],
};

const tag = `PX${randomBytes(4).toString('hex').toUpperCase()}`;
const [A, B, C] = [`${tag}A`, `${tag}B`, `${tag}C`];

let terms: Map<string, TermRef>;
let configId: string;
let annotationSetId: string;
let setId: string;

function row(protein: string, goId: string, distance: number, extra: PredictionRow = {}): PredictionRow {
  const term = terms.get(goId);
  return {
    protein_accession: protein,
    // A row whose term the snapshot does not hold has no name.
    go_term_id: term?.id ?? -1,
    go_id: goId,
    aspect: term?.aspect ?? 'C',
    distance,
    ref_protein_accession: 'R1',
    evidence_code: 'EXP',
    vote_count: 1,
    k_position: 1,
    ...extra,
  };
}

beforeAll(async () => {
  db = createDataSource({ url: runDatabaseUrl(), poolSize: 2 });
  await db.initialize();
  reader = new PredictionExportReader(db);
  sets = new PredictionSetRepository(db);

  const ontologies = new OntologyRepository(db);
  const snapshotId = (await ontologies.saveSnapshot(RELEASE, `test-${randomUUID()}`, 'file:///go.obo'))
    .snapshot.id;
  terms = await ontologies.termIndex(snapshotId);
  annotationSetId = (
    await new AnnotationRepository(db).withinLoad(
      { source: 'goa', sourceVersion: '1', snapshotId, sourceUrl: null, jobId: null },
      async () => ({ value: null, stats: {} }),
    )
  ).set.id;
  configId = (
    await new EmbeddingRepository(db).saveConfig({
      id: randomUUID(),
      model_name: `kmer-${tag}`,
      model_backend: 'kmer',
      layer_indices: [0],
      layer_agg: 'mean',
      pooling: 'mean',
      normalize_residues: false,
      normalize: true,
      max_length: 1022,
      use_chunking: false,
      chunk_size: 1000,
      chunk_overlap: 0,
      embedding_scale: 1,
      description: null,
    })
  ).config.id;
  setId = await sets.create({
    job_id: null,
    embedding_config_id: configId,
    annotation_set_id: annotationSetId,
    ontology_snapshot_id: snapshotId,
    query_set_id: null,
    limit_per_entry: 5,
    distance_threshold: null,
    search_backend: 'numpy',
    aspect_separated_knn: false,
    options: {},
    feature_schema_sha: 'f'.repeat(64),
    reranker_model_id: null,
    query_count: 3,
    owner_user_id: null,
    visibility: 'owner',
    expires_at: null,
  });
  await sets.writeRows(setId, [
    // A: term 1 twice at one score (the nearer row wins), term 2 without a stored score (1 - d/2)
    // at a distance PostgreSQL prints with an exponent, and a prior-only row of a term the snapshot lacks.
    row(A, 'GO:0000001', 0.5, { score: 0.75, identity_sw: 0.5 }),
    row(A, 'GO:0000001', 0.25, {
      score: 0.75,
      identity_sw: 0.25,
      ref_protein_accession: 'R2',
      features: { identity: 0.875 },
    }),
    row(A, 'GO:0000002', 2 ** -16, { k_position: 2, neighbor_vote_fraction: 0.5 }),
    row(A, 'GO:0000009', 1, {
      score: 0,
      ref_protein_accession: null,
      k_position: null,
      vote_count: 0,
      evidence_code: null,
    }),
    // B: two terms of one score and distance (GO id, then row id, order them).
    row(B, 'GO:0000001', 0.125, {
      score: 0.5,
      ref_protein_accession: 'R3',
      evidence_code: 'IDA',
      query_taxonomy_id: '10090',
    }),
    row(B, 'GO:0000002', 0.125, { score: 0.5, ref_protein_accession: 'R3' }),
    row(C, 'GO:0000001', 0.375, { score: 0.25, identity_sw: 0.625 }),
  ]);
});

afterAll(async () => {
  // The config's prediction set and rows go with it.
  if (configId !== undefined) await new EmbeddingRepository(db).deleteConfig(configId);
  if (annotationSetId !== undefined) await new AnnotationRepository(db).delete(annotationSetId);
  await db?.destroy();
});

async function collect<T>(batches: AsyncGenerator<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

/** The row-object reader's rows, printed as a TSV prints a value: String(value), null kept. */
async function referenceRows(filters: TsvFilters): Promise<TsvTextRow[]> {
  const print = (value: unknown): string | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    throw new Error(`a TSV column holds ${typeof value}`);
  };
  const rows: TsvTextRow[] = [];
  for await (const chunk of sets.streamRows(setId, filters))
    for (const r of chunk) rows.push(PREDICTIONS_TSV_COLUMNS.map((c) => print(r[c])));
  return rows;
}

const cell = (r: TsvTextRow, column: (typeof PREDICTIONS_TSV_COLUMNS)[number]) =>
  r[PREDICTIONS_TSV_COLUMNS.indexOf(column)];

describe('PredictionExportReader', () => {
  it('tsvRows gives predictions.tsv’s columns as text, by accession, distance and row id', async () => {
    const [rows, ...more] = await collect(reader.tsvRows(setId, {}));
    expect(more).toEqual([]);
    expect(rows!.every((r) => r.length === PREDICTIONS_TSV_COLUMNS.length)).toBe(true);
    expect(
      rows!.map((r) => [
        cell(r, 'protein_accession'),
        cell(r, 'go_id'),
        cell(r, 'distance'),
        cell(r, 'score'),
      ]),
    ).toEqual([
      [A, 'GO:0000002', '0.0000152587890625', '0.9999923706054688'],
      [A, 'GO:0000001', '0.25', '0.75'],
      [A, 'GO:0000001', '0.5', '0.75'],
      [A, 'GO:0000009', '1', '0'],
      [B, 'GO:0000001', '0.125', '0.5'],
      [B, 'GO:0000002', '0.125', '0.5'],
      [C, 'GO:0000001', '0.375', '0.25'],
    ]);
    const [first, , , prior] = rows!;
    expect([cell(first!, 'go_name'), cell(first!, 'go_aspect'), cell(first!, 'k_position')]).toEqual([
      'name of GO:0000002',
      'P',
      '2',
    ]);
    expect(cell(first!, 'neighbor_vote_fraction')).toBe('0.5');
    expect([
      cell(prior!, 'go_name'),
      cell(prior!, 'ref_protein_accession'),
      cell(prior!, 'k_position'),
      cell(prior!, 'vote_count'),
      cell(prior!, 'evidence_code'),
    ]).toEqual([null, null, null, '0', null]);
  });

  it('tsvRows prints every row as the row-object reader’s values print, filters included', async () => {
    for (const filters of [{}, { accession: B }, { aspect: 'F' as const }, { maxDistance: 0.25 }]) {
      const rows = (await collect(reader.tsvRows(setId, filters))).flat();
      expect(rows).toEqual(await referenceRows(filters));
    }
    expect(
      (await collect(reader.tsvRows(setId, { aspect: 'F' }))).flat().map((r) => cell(r, 'protein_accession')),
    ).toEqual([A, A, B, C]);
    expect(await collect(reader.tsvRows(randomUUID(), {}))).toEqual([]);
  });

  it('tsvRows batches hold whole proteins, about `batchRows` rows, the same rows in all', async () => {
    const whole = (await collect(reader.tsvRows(setId, {}))).flat();
    const batchesOf = async (size: number) =>
      (await collect(reader.tsvRows(setId, {}, size))).map((batch) => batch.map((r) => r[0]));
    expect(await batchesOf(1)).toEqual([[A, A, A, A], [B, B], [C]]);
    expect(await batchesOf(2)).toEqual([
      [A, A, A, A],
      [B, B, C],
    ]);
    expect((await collect(reader.tsvRows(setId, {}, 1))).flat()).toEqual(whole);
  });

  it('trainingRows gives training-data.tsv’s 31 columns without the label, in predictions.tsv’s order', async () => {
    const tsv = (await collect(reader.tsvRows(setId, {}))).flat();
    const training = (await collect(reader.trainingRows(setId, 2))).flat();
    expect(training).toEqual(tsv.map((r) => [r[0], r[1], r[3], null, ...r.slice(4, 31)]));
    expect(training[0]).toHaveLength(31);
    expect(await collect(reader.trainingRows(randomUUID()))).toEqual([]);
  });

  it('bestTerms gives each protein’s best row per term, best first then by GO id', async () => {
    const best = async (filters: TsvFilters, size?: number) => {
      const out: { protein: string; terms: BestTermRow[] }[] = [];
      for await (const protein of reader.bestTerms(setId, filters, size)) out.push(protein);
      return out;
    };
    const term = (goId: string, score: number, extra: Partial<BestTermRow> = {}): BestTermRow => ({
      goId,
      score,
      aspect: terms.get(goId)?.aspect ?? 'C',
      queryTaxonomyId: null,
      donor: 'R1',
      goName: `name of ${goId}`,
      identity: null,
      evidenceCode: 'EXP',
      ...extra,
    });
    const all = await best({});
    expect(all).toEqual([
      {
        protein: A,
        terms: [
          term('GO:0000002', 0.9999923706054688),
          // Equal scores: the nearer row, whose identity is the feature's.
          term('GO:0000001', 0.75, { donor: 'R2', identity: 0.875 }),
          term('GO:0000009', 0, { aspect: 'C', donor: null, goName: null, evidenceCode: null }),
        ],
      },
      {
        protein: B,
        terms: [
          term('GO:0000001', 0.5, { donor: 'R3', evidenceCode: 'IDA', queryTaxonomyId: '10090' }),
          term('GO:0000002', 0.5, { donor: 'R3' }),
        ],
      },
      // No identity feature: the row's Smith-Waterman identity.
      { protein: C, terms: [term('GO:0000001', 0.25, { identity: 0.625 })] },
    ]);
    expect(await best({}, 1)).toEqual(all);
    expect(
      (await best({ aspect: 'F' })).map((p) => [p.protein, p.terms.map((t) => [t.goId, t.identity])]),
    ).toEqual([
      [A, [['GO:0000001', 0.875]]],
      [B, [['GO:0000001', null]]],
      [C, [['GO:0000001', 0.625]]],
    ]);
    expect((await best({ maxDistance: 0.25 })).map((p) => [p.protein, p.terms.map((t) => t.goId)])).toEqual([
      [A, ['GO:0000002', 'GO:0000001']],
      [B, ['GO:0000001', 'GO:0000002']],
    ]);
    expect(await best({ accession: `${tag}none` })).toEqual([]);
  });
});
