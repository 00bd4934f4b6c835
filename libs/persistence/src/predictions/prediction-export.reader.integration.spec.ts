import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TermRef } from '../reference/ontology.repository';
import { PREDICTIONS_TSV_COLUMNS, PredictionRow } from './prediction-columns';
import { BestTermRow, PredictionExportReader, TsvTextRow } from './prediction-export.reader';
import { PredictionSetRepository, TsvFilters } from './prediction-set.repository';
import { QuerySetRepository } from '../reference/query-set.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import {
  deleteFixtures,
  goRelease,
  insertAnnotationSet,
  insertQuerySet,
  insertSnapshot,
  predictionRow,
  predictionSetFields,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';

// PredictionExportReader against the run's PostgreSQL: the downloads' text rows match the row-object
// reader's rows and order, batches never split a protein, and the best row of each (protein, term).

let db: DataSource;
let reader: PredictionExportReader;
let sets: PredictionSetRepository;

const tag = `PX${randomBytes(4).toString('hex').toUpperCase()}`;
const [A, B, C] = [`${tag}A`, `${tag}B`, `${tag}C`];

let terms: Map<string, TermRef>;
let configId: string;
let annotationSetId: string;
let snapshotId: string;
let setId: string;

/** A row of the set; a term the snapshot does not hold gives a row with no name. */
function row(protein: string, goId: string, distance: number, extra: PredictionRow = {}): PredictionRow {
  return predictionRow(terms, protein, goId, distance, extra);
}

useRunDatabase(
  (opened) => {
    db = opened;
    reader = new PredictionExportReader(db);
    sets = new PredictionSetRepository(db);
  },
  // The config's prediction set and rows go with it.
  { teardown: () => deleteFixtures(db, { configIds: [configId], annotationSetIds: [annotationSetId] }) },
);

beforeAll(async () => {
  const snapshot = await insertSnapshot(
    db,
    goRelease([
      ['GO:0000001', 'F'],
      ['GO:0000002', 'P'],
    ]),
  );
  terms = snapshot.terms;
  snapshotId = snapshot.id;
  annotationSetId = await insertAnnotationSet(db, snapshot.id);
  configId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}` });
  setId = await sets.create(
    predictionSetFields({ configId, annotationSetId, snapshotId: snapshot.id }, { query_count: 3 }),
  );
  await sets.writeRows(setId, [
    // A: term 1 twice (the nearer row, the better score, wins), term 2 at a distance PostgreSQL prints
    // with an exponent, and a prior-only row of a term the snapshot lacks. A row's score is
    // max(0, 1 - distance).
    row(A, 'GO:0000001', 0.25, { identity_sw: 0.5 }),
    row(A, 'GO:0000001', 0.5, {
      identity_sw: 0.25,
      ref_protein_accession: 'R2',
      features: { identity: 0.875 },
    }),
    row(A, 'GO:0000002', 2 ** -16, { k_position: 2, neighbor_vote_fraction: 0.5 }),
    row(A, 'GO:0000009', 1, {
      ref_protein_accession: null,
      k_position: null,
      vote_count: 0,
      evidence_code: null,
    }),
    // B: two terms of one score and distance (GO id, then row id, order them).
    row(B, 'GO:0000001', 0.5, {
      ref_protein_accession: 'R3',
      evidence_code: 'IDA',
      query_taxonomy_id: '10090',
    }),
    row(B, 'GO:0000002', 0.5, { ref_protein_accession: 'R3' }),
    row(C, 'GO:0000001', 0.75, { identity_sw: 0.625 }),
  ]);
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
    expect(rows!.map((r) => [cell(r, 'protein_accession'), cell(r, 'go_id'), cell(r, 'distance')])).toEqual([
      [A, 'GO:0000002', '0.0000152587890625'],
      [A, 'GO:0000001', '0.25'],
      [A, 'GO:0000001', '0.5'],
      [A, 'GO:0000009', '1'],
      [B, 'GO:0000001', '0.5'],
      [B, 'GO:0000002', '0.5'],
      [C, 'GO:0000001', '0.75'],
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
      geneName: null,
      donor: 'R1',
      goName: `name of ${goId}`,
      identity: null,
      evidenceCode: 'EXP',
      known: false,
      submitted: false,
      ...extra,
    });
    const all = await best({});
    expect(all).toEqual([
      {
        protein: A,
        terms: [
          term('GO:0000002', 0.9999847412109375),
          // The nearer row, the better score; no identity feature: its Smith-Waterman identity.
          term('GO:0000001', 0.75, { identity: 0.5 }),
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
      [A, [['GO:0000001', 0.5]]],
      [B, [['GO:0000001', null]]],
      [C, [['GO:0000001', 0.625]]],
    ]);
    expect((await best({ maxDistance: 0.5 })).map((p) => [p.protein, p.terms.map((t) => t.goId)])).toEqual([
      [A, ['GO:0000002', 'GO:0000001']],
      [B, ['GO:0000001', 'GO:0000002']],
    ]);
    expect((await best({ maxDistance: 0.25 })).map((p) => [p.protein, p.terms.map((t) => t.goId)])).toEqual([
      [A, ['GO:0000002', 'GO:0000001']],
    ]);
    expect(await best({ accession: `${tag}none` })).toEqual([]);
  });

  it('bestTerms takes the taxon of the query-set entry (OX=, else the upload’s taxon), else the row’s, and the entry’s gene name', async () => {
    const residues = (n: number) => `M${'ACDEFGHIKLMNPQRSTVWY'[n]}${tag}`;
    // A has a taxon on its entry only (a set predicted without the taxonomy features), B on its row
    // only, C is not an entry of the query set. A's header had GN=, B's did not.
    const querySetId = await insertQuerySet(db, `taxa-${tag}`, [
      [A, residues(1), 4932, 'CDC28'],
      [B, residues(2)],
    ]);
    try {
      const withQueries = await sets.create(
        predictionSetFields(
          { configId, annotationSetId, snapshotId },
          { query_set_id: querySetId, query_count: 3 },
        ),
      );
      await sets.writeRows(withQueries, [
        row(A, 'GO:0000001', 0.5),
        row(B, 'GO:0000001', 0.5, { query_taxonomy_id: '10090' }),
        row(C, 'GO:0000001', 0.5, { query_taxonomy_id: '9606' }),
        row(C, 'GO:0000002', 0.75),
      ]);
      const taxa: [string, string, string | null, string | null][] = [];
      for await (const { protein, terms: best } of reader.bestTerms(withQueries, {}))
        for (const t of best) taxa.push([protein, t.goId, t.queryTaxonomyId, t.geneName]);
      expect(taxa).toEqual([
        [A, 'GO:0000001', '4932', 'CDC28'],
        [B, 'GO:0000001', '10090', null],
        [C, 'GO:0000001', '9606', null],
        [C, 'GO:0000002', null, null],
      ]);
    } finally {
      await new QuerySetRepository(db).delete(querySetId);
    }
  });
});
