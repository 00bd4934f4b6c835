import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { calibrate, type Calibration, fitCalibration, type GoAspect } from '@svc/domain';
import { TermRef } from '../reference/ontology.repository';
import {
  type ComposedPrior,
  composedPriorRow,
  decodeComposedPrior,
  encodeComposedPrior,
  type PriorTerm,
  type SetPrior,
} from './composed-prior';
import { PREDICTION_ROW_COLUMNS, type PredictionRow } from './prediction-columns';
import { PredictionExportReader } from './prediction-export.reader';
import { PredictionSetRepository } from './prediction-set.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import {
  deleteFixtures,
  goRelease,
  insertAnnotationSet,
  insertSnapshot,
  predictionRow,
  predictionSetFields,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';

// The prediction_row view against its TypeScript twin: a set that stores its prior once and a
// weight per (protein, aspect) reads, through every reader, exactly as the same rows stored one by one.

let db: DataSource;
let sets: PredictionSetRepository;
let reader: PredictionExportReader;
let snapshotId: string;
let terms: Map<string, TermRef>;
let annotationSetId: string;
let configId: string;

const tag = `CP${randomBytes(4).toString('hex').toUpperCase()}`;
const GO: [string, GoAspect][] = [
  ['GO:0000011', 'F'],
  ['GO:0000012', 'F'],
  ['GO:0000013', 'F'],
  ['GO:0000014', 'F'],
  ['GO:0000021', 'P'],
  ['GO:0000022', 'P'],
  ['GO:0000023', 'P'],
  ['GO:0000031', 'C'],
  ['GO:0000032', 'C'],
];

/** A deterministic generator (the same numbers every run). */
function numbers(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A calibration map as the blend fits one: isotonic over labelled scores. */
function fittedMap(random: () => number): Calibration {
  const samples = Array.from({ length: 400 }, () => {
    const score = random();
    return { score, label: random() < score * 0.8 };
  });
  return fitCalibration(samples, 12);
}

useRunDatabase(
  (opened) => {
    db = opened;
    sets = new PredictionSetRepository(db);
    reader = new PredictionExportReader(db);
  },
  { teardown: () => deleteFixtures(db, { configIds: [configId], annotationSetIds: [annotationSetId] }) },
);

beforeAll(async () => {
  ({ id: snapshotId, terms } = await insertSnapshot(db, goRelease(GO)));
  annotationSetId = await insertAnnotationSet(db, snapshotId, [], 'goa', tag);
  configId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}` });
});

const newSet = () =>
  sets.create(predictionSetFields({ configId, annotationSetId, snapshotId }, { search_backend: 'diamond' }));

describe('svc_calibrate', () => {
  it('is the domain calibrate, to the last bit, inside, on and outside the knots', async () => {
    const random = numbers(7);
    const map = fittedMap(random);
    const xs = [
      ...Array.from({ length: 500 }, () => random()),
      ...map.raw,
      -0.5,
      1.5,
      map.raw[1]! - 1e-12,
      map.raw[1]! + 1e-12,
    ];
    const rows = await db.query<{ i: number; y: number }[]>(
      `SELECT i::int, svc_calibrate(x, $2::float8[], $3::float8[]) AS y
         FROM unnest($1::float8[]) WITH ORDINALITY AS u(x, i)`,
      [xs, map.raw, map.calibrated],
    );
    for (const { i, y } of rows) expect(y).toBe(calibrate(map, xs[i - 1]!));
    const [plain] = await db.query<{ y: number }[]>(`SELECT svc_calibrate(0.123, NULL, NULL) AS y`);
    expect(plain!.y).toBe(0.123);
  });
});

describe('a set whose prior-only rows are composed at read', () => {
  let composedSet: string;
  let storedSet: string;
  let expectedRows: number;
  let storedRows: number;

  beforeAll(async () => {
    const random = numbers(42);
    const maps = [fittedMap(random), fittedMap(random), null];
    const priorTerms: PriorTerm[] = GO.map(([goId, aspect], i) => {
      const proteins = 1000 + Math.floor(random() * 5000);
      const count = 1 + Math.floor(random() * proteins * 0.6);
      return {
        aspect,
        goTermId: terms.get(goId)!.id,
        goId,
        frequency: count / proteins,
        termFrequency: count,
        calibration: maps[i % 3]!,
      };
    });
    const prior: SetPrior = { digest: 'ab'.repeat(16), minScore: 0.01, terms: priorTerms };
    const stored: PredictionRow[] = [];
    const composedRows: PredictionRow[] = [];
    const pairs: ComposedPrior[] = [];
    for (let p = 0; p < 30; p++) {
      const accession = `${tag}-${String(p).padStart(2, '0')}`;
      for (const aspect of ['F', 'P', 'C'] as const) {
        const weight = p % 7 === 0 ? 0 : random();
        // A query the reference knows: its prior informed by association (unassociated terms scaled).
        const associationWeight = p % 4 === 1 ? random() : 0;
        const shape = {
          accession,
          queryTaxonomyId: p % 2 === 0 ? '9606' : null,
          neighbourhood: p % 3 !== 0,
        };
        // A term carried by a homolog is a stored row; the prior composes the others.
        const homology = priorTerms.filter((t) => t.aspect === aspect && random() < 0.3);
        for (const t of homology)
          stored.push(
            predictionRow(terms, accession, t.goId, Math.fround(random()), {
              features: { source: 'homology', identity: 0.5 },
            }),
          );
        const rows: PredictionRow[] = [];
        const associated: [number, number][] = [];
        for (const t of priorTerms.filter((t) => t.aspect === aspect && !homology.includes(t))) {
          // Some terms of an informed prior have an association of their own.
          const association = associationWeight > 0 && random() < 0.5 ? random() : undefined;
          const weights =
            association === undefined
              ? { weight, associationWeight }
              : { weight, associationWeight, association };
          const row = composedPriorRow(t, weights, prior.minScore, shape);
          if (row === null) continue;
          rows.push(row);
          if (association !== undefined) associated.push([t.goTermId, association]);
        }
        if (rows.length === 0) continue;
        composedRows.push(...rows);
        pairs.push({
          ...shape,
          aspect,
          weight,
          associationWeight,
          associatedTerms: associated.map(([t]) => t),
          associations: associated.map(([, v]) => v),
          composedRows: rows.length,
          storedTerms: homology.map((t) => t.goTermId).sort((a, b) => a - b),
        });
      }
    }
    expectedRows = stored.length + composedRows.length;
    storedRows = stored.length;
    expect(composedRows.length).toBeGreaterThan(100);
    composedSet = await newSet();
    storedSet = await newSet();
    await sets.writeRows(composedSet, stored);
    // Through a write message, as the batch step sends it.
    const decoded = decodeComposedPrior(encodeComposedPrior({ prior, pairs }));
    if ('error' in decoded) throw new Error(decoded.error);
    expect(await sets.writeComposedPrior(composedSet, decoded.value)).toBe(composedRows.length);
    // A redelivered write adds nothing.
    expect(await sets.writeComposedPrior(composedSet, decoded.value)).toBe(0);
    await sets.writeRows(storedSet, [...stored, ...composedRows]);
  });

  const rowsOf = async (id: string) => {
    const out: Record<string, unknown>[] = [];
    for await (const chunk of sets.streamRows(id, {}, 50)) out.push(...chunk);
    return out.map(({ row_id: _id, ...rest }) => rest);
  };

  it('reads every row the TypeScript composition gives, column for column', async () => {
    const composed = await rowsOf(composedSet);
    expect(composed).toHaveLength(expectedRows);
    expect(composed).toEqual(await rowsOf(storedSet));
    const prior = composed.filter((r) => (r['features'] as { source?: string }).source === 'prior');
    expect(prior.length).toBeGreaterThan(100);
    expect(prior.filter((r) => 'association' in (r['features'] as object)).length).toBeGreaterThan(10);
    expect(Object.keys(prior[0]!).sort()).toEqual(
      expect.arrayContaining(PREDICTION_ROW_COLUMNS.map((c) => c.name).filter((n) => n !== 'aspect')),
    );
  });

  it('gives the same downloads, protein pages, counts and term distribution as the stored rows', async () => {
    const text = async (id: string) => {
      const tsv: string[] = [];
      for await (const chunk of reader.tsvRows(id, {}, 37)) tsv.push(...chunk.map((r) => r.join('\t')));
      const filtered: string[] = [];
      for await (const chunk of reader.tsvRows(id, { aspect: 'P', maxDistance: 0.9 }, 11))
        filtered.push(...chunk.map((r) => r.join('\t')));
      const training: string[] = [];
      for await (const chunk of reader.trainingRows(id, 23)) training.push(...chunk.map((r) => r.join('\t')));
      const best: string[] = [];
      for await (const p of reader.bestTerms(id, {}, 29)) best.push(JSON.stringify(p));
      return { tsv, filtered, training, best };
    };
    const composed = await text(composedSet);
    expect(composed.tsv).toHaveLength(expectedRows);
    expect(composed).toEqual(await text(storedSet));

    const detail = async (id: string) => {
      const { proteins, prediction_count, protein_count } = await sets.detail(id);
      return { proteins, prediction_count, protein_count };
    };
    expect(await detail(composedSet)).toEqual(await detail(storedSet));
    expect((await detail(composedSet)).prediction_count).toBe(expectedRows);
    expect(await sets.proteins(composedSet, { limit: 7, offset: 5 })).toEqual(
      await sets.proteins(storedSet, { limit: 7, offset: 5 }),
    );
    expect(await sets.proteins(composedSet, { search: `${tag}-1`, limit: 50, offset: 0 })).toEqual(
      await sets.proteins(storedSet, { search: `${tag}-1`, limit: 50, offset: 0 }),
    );
    expect(await sets.proteinPredictions(composedSet, `${tag}-03`)).toEqual(
      await sets.proteinPredictions(storedSet, `${tag}-03`),
    );
    for (const homologyOnly of [false, true]) {
      const options = { limit: 5, minScore: 0.05, homologyOnly };
      expect(await sets.goTermDistribution(composedSet, options)).toEqual(
        await sets.goTermDistribution(storedSet, options),
      );
    }
  });

  it('counts its composed rows when the set is deleted, and leaves nothing behind', async () => {
    expect(await sets.storage(composedSet)).toEqual({
      stored: storedRows,
      composed: expectedRows - storedRows,
      associations: expect.any(Number),
      priorTerms: GO.length,
    });
    expect(await sets.delete(composedSet)).toEqual({ deleted: true, predictions_deleted: expectedRows });
    const left = await db.query<{ n: number }[]>(
      `SELECT ((SELECT count(*) FROM prediction_prior_weight WHERE prediction_set_id = $1)
             + (SELECT count(*) FROM prediction_set_prior WHERE prediction_set_id = $1))::int AS n`,
      [composedSet],
    );
    expect(left[0]!.n).toBe(0);
  });
});
