import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TermRef } from '../reference/ontology.repository';
import {
  decodePredictionColumns,
  encodePredictionColumns,
  PREDICTION_ROW_COLUMN_NAMES,
  PredictionRow,
} from './prediction-columns';
import { predictionsTsvCopyCommand, PredictionSetRepository } from './prediction-set.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';
import {
  annotationRow,
  deleteFixtures,
  goRelease,
  insertAnnotationSet,
  insertJob,
  insertQuerySet,
  insertSnapshot,
  PredictionSetFields,
  predictionRow,
  predictionSetFields,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';

// PredictionSetRepository against the run's PostgreSQL: a set and its rows are written (row by
// row, column by column, in a caller's transaction) and read back by every API read: labels,
// per-protein counts, term distribution, streaming in protein batches, ownership-scoped lists, resolve, delete.

let db: DataSource;
let sets: PredictionSetRepository;

const tag = `PS${randomBytes(4).toString('hex').toUpperCase()}`;
const [QA, QB] = [`${tag}-A`, `${tag}-B`];

let snapshotId: string;
let oboVersion: string;
let terms: Map<string, TermRef>;
let annotationSetId: string;
let configId: string;
let querySetId: string;
let jobId: string;

/** A set's fields with the shared references; `extra` overrides. */
function newSet(extra: Partial<PredictionSetFields> = {}): PredictionSetFields {
  return predictionSetFields({ configId, annotationSetId, snapshotId }, { query_count: 2, ...extra });
}

function prediction(
  protein: string,
  goId: string,
  distance: number,
  extra: PredictionRow = {},
): PredictionRow {
  return predictionRow(terms, protein, goId, distance, extra);
}

/**
 * Six rows, distances exact in float32; a row's score is max(0, 1 - distance). QA: term 1 twice (the
 * better first) and term 2. QB: terms 3 and 4 at one distance (row id orders them) and a prior-only
 * row of term 2 (no donor, no rank).
 */
const ROWS = (): PredictionRow[] => [
  prediction(QA, 'GO:0000001', 0.25, { identity_sw: 0.5, features: { self_hit: true } }),
  prediction(QA, 'GO:0000002', 0.375, { ref_protein_accession: 'R2', k_position: 2 }),
  prediction(QA, 'GO:0000001', 0.75, { ref_protein_accession: 'R2', k_position: 2 }),
  prediction(QB, 'GO:0000003', 0.5, { ref_protein_accession: 'R3' }),
  prediction(QB, 'GO:0000002', 0.75, {
    ref_protein_accession: null,
    k_position: null,
    vote_count: 0,
  }),
  prediction(QB, 'GO:0000004', 0.5, { ref_protein_accession: 'R3' }),
];

useRunDatabase(
  (opened) => {
    db = opened;
    sets = new PredictionSetRepository(db);
  },
  // The config's prediction sets and rows go with it.
  { teardown: () => deleteFixtures(db, { configIds: [configId], annotationSetIds: [annotationSetId] }) },
);

beforeAll(async () => {
  const snapshot = await insertSnapshot(
    db,
    goRelease([
      ['GO:0000001', 'F'],
      ['GO:0000002', 'P'],
      ['GO:0000003', 'C'],
      ['GO:0000004', 'F'],
    ]),
  );
  ({ id: snapshotId, oboVersion, terms } = snapshot);
  // QA has terms 1 and 3 (term 1 twice) and a NOT annotation of term 2; QB has none.
  const annotation = (goId: string, evidenceCode: string, isNot = false) =>
    annotationRow(QA, terms.get(goId)!, evidenceCode, { isNot });
  annotationSetId = await insertAnnotationSet(
    db,
    snapshotId,
    [
      annotation('GO:0000001', 'EXP'),
      annotation('GO:0000001', 'IDA'),
      annotation('GO:0000003', 'IDA'),
      annotation('GO:0000002', 'IMP', true),
    ],
    'goa',
    '2024-06',
  );
  configId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}` });
  querySetId = await insertQuerySet(db, `set-${tag}`, [[QA, `MKV${tag}`]]);
  jobId = await insertJob(db, { operation: 'predict_go_terms', queueName: 'svc.prediction' });
});

describe('PredictionSetRepository', () => {
  let setId: string;

  beforeAll(async () => {
    setId = await sets.create(
      newSet({
        job_id: jobId,
        query_set_id: querySetId,
        distance_threshold: 0.9,
        options: { exclude_self: false },
      }),
    );
    expect(await sets.writeRows(setId, ROWS())).toBe(6);
  });

  it('create stores the set; find and get read it back, find null and get not_found for an unknown id', async () => {
    const expiresAt = '2030-01-02T03:04:05.678901Z';
    const owner = randomUUID();
    const id = await sets.create(
      newSet({
        owner_user_id: owner,
        visibility: 'unlisted',
        expires_at: expiresAt,
        aspect_separated_knn: true,
        options: { donor_evidence: 'experimental' },
        reranker_model_id: randomUUID(),
      }),
    );
    const record = await sets.find(id);
    expect(record).toEqual({
      ...newSet({
        owner_user_id: owner,
        visibility: 'unlisted',
        expires_at: expiresAt,
        aspect_separated_knn: true,
        options: { donor_evidence: 'experimental' },
        reranker_model_id: record!.reranker_model_id,
      }),
      id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      reference: null,
    });
    expect(await sets.get(id)).toEqual(record);
    expect(await sets.find(randomUUID())).toBeNull();
    expect(await domainError(sets.get(randomUUID()))).toMatchObject({
      code: 'not_found',
      message: 'Prediction set not found',
    });
  });

  it('detail gives the set with its labels and per-protein counts', async () => {
    expect(await sets.detail(setId)).toEqual({
      ...(await sets.get(setId)),
      embedding_config_name: `kmer-${tag}`,
      embedding_backend: 'kmer',
      annotation_set_label: 'goa 2024-06',
      ontology_version: oboVersion,
      job_status: 'QUEUED',
      exclude_self: false,
      query_set_name: `set-${tag}`,
      label: expect.stringMatching(
        new RegExp(
          `^set-${tag} · embedding kNN \\(exact\\) over kmer-${tag} · goa 2024-06 · self-hits kept · `,
        ),
      ),
      prediction_count: 6,
      protein_count: 2,
      proteins: [
        { protein_accession: QA, go_count: 3 },
        { protein_accession: QB, go_count: 3 },
      ],
    });
    // Sets made before the option always excluded the query's own entry.
    const old = await sets.create(newSet());
    expect(await sets.detail(old)).toMatchObject({
      exclude_self: true,
      job_status: null,
      prediction_count: 0,
    });
  });

  it('countRowsOfJob counts the rows of the job’s set', async () => {
    expect(await sets.countRowsOfJob(jobId)).toBe(6);
    expect(await sets.countRowsOfJob(randomUUID())).toBe(0);
  });

  it('streamRows reads by accession, distance and GO id, in batches of whole proteins, and filters', async () => {
    const read = async (filters: Parameters<PredictionSetRepository['streamRows']>[1], chunk: number) => {
      const chunks: Record<string, unknown>[][] = [];
      for await (const rows of sets.streamRows(setId, filters, chunk)) chunks.push(rows);
      return chunks;
    };
    const whole = await read({}, 1000);
    expect(whole).toHaveLength(1);
    const rows = whole[0]!;
    const key = (r: Record<string, unknown>) =>
      `${String(r['protein_accession'])} ${String(r['go_id'])} ${String(r['distance'])}`;
    expect(rows.map(key)).toEqual([
      `${QA} GO:0000001 0.25`,
      `${QA} GO:0000002 0.375`,
      `${QA} GO:0000001 0.75`,
      `${QB} GO:0000003 0.5`,
      `${QB} GO:0000004 0.5`,
      `${QB} GO:0000002 0.75`,
    ]);
    expect(Number(rows[0]!['row_id'])).toBeLessThan(Number(rows[1]!['row_id']));
    expect(rows[0]).toMatchObject({
      go_term_id: terms.get('GO:0000001')!.id,
      features: { self_hit: true },
      go_name: 'name of GO:0000001',
      go_aspect: 'F',
      distance: 0.25,
      ref_protein_accession: 'R1',
      identity_sw: 0.5,
      vote_count: 1,
      k_position: 1,
    });
    expect(rows[5]).toMatchObject({ ref_protein_accession: null, k_position: null, distance: 0.75 });

    // A batch holds whole proteins: a protein's rows are never split, however small the chunk.
    const ones = await read({}, 1);
    expect(ones.map((c) => c.length)).toEqual([3, 3]);
    expect(ones.flat()).toEqual(rows);
    expect((await read({}, 4)).map((c) => c.length)).toEqual([6]);

    expect((await read({ accession: QB }, 1000)).flat().map(key)).toEqual(rows.slice(3).map(key));
    const pick = (...indexes: number[]) => rows.filter((_, i) => indexes.includes(i)).map(key);
    expect((await read({ aspect: 'F' }, 1000)).flat().map(key)).toEqual(pick(0, 2, 4));
    expect((await read({ maxDistance: 0.5 }, 1000)).flat().map(key)).toEqual(pick(0, 1, 3, 4));
    expect(await read({ accession: `${tag}-none` }, 1000)).toEqual([]);

    const scoreOnly: Record<string, unknown>[] = [];
    for await (const chunk of sets.streamRows(setId, {}, 4, 'score')) scoreOnly.push(...chunk);
    expect(scoreOnly.map((r) => Object.keys(r).sort())).toEqual(
      Array(6).fill(['distance', 'go_id', 'protein_accession', 'row_id', 'score']),
    );
    expect(scoreOnly.map(key)).toEqual(rows.map(key));
    // The score is the specification's max(0, 1 - distance).
    expect(scoreOnly.map((r) => [r['go_id'], r['score']])).toEqual([
      ['GO:0000001', 0.75],
      ['GO:0000002', 0.625],
      ['GO:0000001', 0.25],
      ['GO:0000003', 0.5],
      ['GO:0000004', 0.5],
      ['GO:0000002', 0.25],
    ]);
  });

  it('streamRows can leave out the terms an upload said are known (GO=), as an evaluation reads a set', async () => {
    const target = await sets.create(newSet());
    const rows = ROWS();
    rows[1] = { ...rows[1]!, distance: 0, ref_protein_accession: null, features: { source: 'submitted' } };
    await sets.writeRows(target, rows);
    const read = async (predictionsOnly: boolean) => {
      const out: Record<string, unknown>[] = [];
      for await (const chunk of sets.streamRows(target, {}, 1000, 'score', predictionsOnly))
        out.push(...chunk);
      return out.map((r) => `${String(r['protein_accession'])} ${String(r['go_id'])}`);
    };
    const every = await read(false);
    expect(every).toHaveLength(6);
    expect(every).toContain(`${QA} GO:0000002`);
    expect(await read(true)).toEqual(every.filter((k) => k !== `${QA} GO:0000002`));
  });

  it('allRows gives every row in streamRows’ order', async () => {
    const streamed: Record<string, unknown>[] = [];
    for await (const chunk of sets.streamRows(setId, {}, 2)) streamed.push(...chunk);
    expect(await sets.allRows(setId)).toEqual(streamed);
    expect(await sets.allRows(randomUUID())).toEqual([]);
  });

  it('writeColumns stores rows held column by column as writeRows stores them', async () => {
    const byColumns = await sets.create(newSet());
    const decoded = decodePredictionColumns(PREDICTION_ROW_COLUMN_NAMES, encodePredictionColumns(ROWS()));
    if ('error' in decoded) throw new Error(decoded.error);
    expect(await sets.writeColumns(byColumns, decoded.values)).toBe(6);
    expect(await sets.writeColumns(byColumns, [])).toBe(0);
    const withoutIds = (rows: Record<string, unknown>[]) => rows.map(({ row_id: _id, ...rest }) => rest);
    expect(withoutIds(await sets.allRows(byColumns))).toEqual(withoutIds(await sets.allRows(setId)));
  });

  it('writeRows in the caller’s transaction is rolled back with it; no rows is a no-op', async () => {
    const target = await sets.create(newSet());
    await expect(
      db.transaction(async (tx) => {
        expect(await sets.writeRows(target, ROWS(), tx)).toBe(6);
        throw new Error('the progress tick failed');
      }),
    ).rejects.toThrow('the progress tick failed');
    expect(await sets.allRows(target)).toEqual([]);
    expect(await sets.writeRows(target, [])).toBe(0);
  });

  it('proteins gives each protein’s counts, best score and confirmed terms, searchable and paged', async () => {
    const page = await sets.proteins(setId, { limit: 50, offset: 0 });
    expect(page).toEqual({
      items: [
        // Term 1 (two rows) is annotated; term 2 only by a NOT annotation.
        {
          protein_accession: QA,
          go_count: 3,
          min_distance: 0.25,
          best_score: 0.75,
          annotation_count: 2,
          match_count: 2,
          homologs: null,
          best_identity: null,
          basis: null,
        },
        {
          protein_accession: QB,
          go_count: 3,
          min_distance: 0.5,
          best_score: 0.5,
          annotation_count: 0,
          match_count: 0,
          homologs: null,
          best_identity: null,
          basis: null,
        },
      ],
      total: 2,
      limit: 50,
      offset: 0,
    });
    expect(
      await sets.proteins(setId, { search: `${tag.toLowerCase()}-b`, limit: 50, offset: 0 }),
    ).toMatchObject({
      items: [{ protein_accession: QB }],
      total: 1,
    });
    expect(await sets.proteins(setId, { limit: 1, offset: 1 })).toMatchObject({
      items: [{ protein_accession: QB }],
      total: 2,
    });
    expect(await sets.proteins(setId, { search: `${tag}_A`, limit: 50, offset: 0 })).toMatchObject({
      items: [],
      total: 0,
    });
    expect(await domainError(sets.proteins(randomUUID(), { limit: 1, offset: 0 }))).toMatchObject({
      code: 'not_found',
    });
  });

  it('proteinPredictions gives one protein’s terms, best score first, with self_hit', async () => {
    const rows = await sets.proteinPredictions(setId, QA);
    expect(rows.map((r) => [r['go_id'], r['score'], r['distance'], r['self_hit']])).toEqual([
      ['GO:0000001', 0.75, 0.25, true],
      ['GO:0000002', 0.625, 0.375, false],
      ['GO:0000001', 0.25, 0.75, false],
    ]);
    expect(rows[1]).toMatchObject({
      go_name: 'name of GO:0000002',
      go_aspect: 'P',
      ref_protein_accession: 'R2',
    });
    expect(await sets.proteinPredictions(setId, `${tag}-none`)).toEqual([]);
    expect(await domainError(sets.proteinPredictions(randomUUID(), QA))).toMatchObject({ code: 'not_found' });
  });

  it('goTermDistribution ranks each aspect’s terms by proteins then predictions, at most `limit`, with totals, over the rows kept', async () => {
    const term = (goId: string, predictions: number, proteins: number) => ({
      aspect: terms.get(goId)!.aspect,
      go_id: goId,
      go_name: `name of ${goId}`,
      prediction_count: predictions,
      protein_count: proteins,
    });
    const all = { limit: 10, minScore: 0, homologyOnly: false };
    expect(await sets.goTermDistribution(setId, all)).toEqual({
      terms: {
        F: [term('GO:0000001', 2, 1), term('GO:0000004', 1, 1)],
        P: [term('GO:0000002', 2, 2)],
        C: [term('GO:0000003', 1, 1)],
      },
      totals: {
        C: { aspect: 'C', predictions: 1, terms: 1, proteins: 1 },
        F: { aspect: 'F', predictions: 3, terms: 2, proteins: 2 },
        P: { aspect: 'P', predictions: 2, terms: 1, proteins: 2 },
      },
    });
    expect((await sets.goTermDistribution(setId, { ...all, limit: 1 })).terms['F']).toEqual([
      term('GO:0000001', 2, 1),
    ]);
    // Homology-backed rows only: QB's prior-only row of term 2 is left out.
    const backed = await sets.goTermDistribution(setId, { ...all, homologyOnly: true });
    expect(backed.terms['P']).toEqual([term('GO:0000002', 1, 1)]);
    expect(backed.totals['P']).toEqual({ aspect: 'P', predictions: 1, terms: 1, proteins: 1 });
    // Rows scoring at least 0.5 (distance at most 0.5): QA's second row of term 1 goes.
    const confident = await sets.goTermDistribution(setId, { ...all, minScore: 0.5 });
    expect(confident.terms['F']).toEqual([term('GO:0000001', 1, 1), term('GO:0000004', 1, 1)]);
    expect(confident.totals['F']).toEqual({ aspect: 'F', predictions: 2, terms: 2, proteins: 2 });
    expect(await domainError(sets.goTermDistribution(randomUUID(), all))).toMatchObject({
      code: 'not_found',
    });
  });

  it('list shows what a scope may see, newest first, at most `limit`, with labels and counts', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const alicePrivate = await sets.create(newSet({ owner_user_id: alice }));
    await sets.writeRows(alicePrivate, ROWS().slice(0, 2));
    const aliceUnlisted = await sets.create(newSet({ owner_user_id: alice, visibility: 'unlisted' }));
    const alicePublic = await sets.create(newSet({ owner_user_id: alice, visibility: 'public' }));
    const bobPrivate = await sets.create(newSet({ owner_user_id: bob }));
    const ours = [alicePrivate, aliceUnlisted, alicePublic, bobPrivate];
    const visible = async (scope: Parameters<PredictionSetRepository['list']>[0], limit?: number) =>
      (await sets.list(scope, limit)).map((s) => s['id']).filter((id) => ours.includes(id));

    expect(await visible({ kind: 'own', userId: alice })).toEqual([alicePublic, alicePrivate]);
    expect(await visible({ kind: 'own', userId: alice }, 1)).toEqual([alicePublic]);
    expect(await visible({ kind: 'public_and_own', userId: bob })).toEqual([bobPrivate, alicePublic]);
    expect(await visible({ kind: 'public_and_own', userId: null })).toEqual([alicePublic]);
    expect(await visible({ kind: 'all' })).toEqual([bobPrivate, alicePublic, aliceUnlisted, alicePrivate]);

    const listed = (await sets.list({ kind: 'own', userId: alice })).find((s) => s['id'] === alicePrivate);
    expect(listed).toEqual({
      ...(await sets.get(alicePrivate)),
      embedding_config_name: `kmer-${tag}`,
      embedding_backend: 'kmer',
      annotation_set_label: 'goa 2024-06',
      ontology_version: oboVersion,
      job_status: null,
      exclude_self: true,
      query_set_name: null,
      label: expect.stringMatching(
        /^all proteins · .+ · goa 2024-06 · self-hits excluded · \d{4}-\d\d-\d\d \d\d:\d\d$/,
      ),
      prediction_count: 2,
    });
  });

  it('resolve gives the newest set of a (query set, embedding config) pair, else not_found', async () => {
    expect(await sets.resolve(querySetId, configId)).toMatchObject({ id: setId, job_status: 'QUEUED' });
    const newer = await sets.create(newSet({ query_set_id: querySetId }));
    const resolved = await sets.resolve(querySetId, configId);
    expect(resolved).toMatchObject({
      id: newer,
      annotation_set_label: 'goa 2024-06',
      ontology_version: oboVersion,
      query_set_name: `set-${tag}`,
      label: expect.stringMatching(new RegExp(`^set-${tag} · `)),
    });
    expect(resolved).not.toHaveProperty('label_parts');
    expect(await domainError(sets.resolve(querySetId, randomUUID()))).toMatchObject({
      code: 'not_found',
      message: 'Prediction set not found',
    });
  });

  it('refreshStatistics analyzes the prediction table', async () => {
    const before = new Date();
    await sets.refreshStatistics();
    const [row] = await db.query<{ last_analyze: Date | null }[]>(
      `SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'prediction'`,
    );
    expect(row!.last_analyze).not.toBeNull();
    expect(row!.last_analyze!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });

  it('delete removes a set and its rows; an unknown set is not_found', async () => {
    const doomed = await sets.create(newSet());
    await sets.writeRows(doomed, ROWS());
    expect(await sets.delete(doomed)).toEqual({ deleted: true, predictions_deleted: 6 });
    expect(await sets.find(doomed)).toBeNull();
    expect(await sets.allRows(doomed)).toEqual([]);
    expect(await domainError(sets.delete(doomed))).toMatchObject({ code: 'not_found' });
    expect(await sets.countRowsOfJob(jobId)).toBe(6);
  });
});

describe('predictionsTsvCopyCommand', () => {
  it("is psql's copy of the set's TSV columns in the downloads' order, and takes only a UUID", () => {
    const id = randomUUID();
    const command = predictionsTsvCopyCommand(id);
    expect(command).toMatch(
      /^\\copy \(SELECT p\.protein_accession, p\.go_id, t\.name, p\.aspect, p\.distance, /,
    );
    expect(command).toContain(
      `FROM prediction_row p LEFT JOIN go_term t ON t.id = p.go_term_id WHERE p.prediction_set_id = '${id}' ORDER BY p.protein_accession, p.distance, p.go_id, p.id) TO STDOUT`,
    );
    expect(() => predictionsTsvCopyCommand(`${id}' OR '1'='1`)).toThrow('a prediction set id is a UUID');
  });
});
