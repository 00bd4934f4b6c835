import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { DataSource } from 'typeorm';
import { GafReader, predictionGafLine } from '@svc/domain';
import {
  createDataSource,
  PredictionExportReader,
  PredictionRow,
  PredictionSetRepository,
  PREDICTIONS_TSV_COLUMNS,
} from '@svc/persistence';
import { rowScore } from '@svc/use-cases';
import {
  AppProcess,
  createSuiteWorld,
  embedProteinsWithKmer,
  HttpClient,
  loadTsvAnnotations,
  runJobToSuccess,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';
import { tsvCell } from './tsv';

const DATA = resolve(__dirname, '../../../../../shared/data');

/**
 * The downloads read PostgreSQL text in batches of whole proteins and print it. This suite holds
 * them to the files the row-object reader (`streamRows`, every value parsed) gives for the same set,
 * written the way the downloads wrote them before: on the tiny and mini holdouts predicted with the
 * default, and on rows that test the printing (numbers PostgreSQL writes with an exponent, -0, ties,
 * tabs and newlines in text, rows without a term or a donor).
 */
describe.each(['tiny', 'mini'])('downloads of a prediction set on the %s holdout', (holdout) => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let db: DataSource;
  let dir: string;
  let setId: string;
  let evaluationSetId: string;
  let predictRequest: Record<string, unknown>;
  let predicted: TestJob;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-downloads-'));
    world = await createSuiteWorld(`downloads-${holdout}`);
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker', 'evaluation-worker'].map((n) =>
        spawnApp(n, world.env),
      ),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const data = join(DATA, holdout);
    const snapshot = await runJobToSuccess<TestJob>(api, '/v1/annotations/snapshots/load', {
      obo_url: join(data, 'go-subset.2022-07-01.obo'),
    });
    const snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const load = (file: string): Promise<string> =>
      loadTsvAnnotations(api, {
        snapshotId,
        tsv: join(data, file),
        gaf: join(dir, `${file}.gaf`),
        sourceVersion: `${file}-${randomUUID()}`,
        tolerateUnresolved: file.includes('.t1.'),
      });
    const t0 = await load('annotations.t0.gene2go-2022-09-12.tsv');
    const t1 = await load('annotations.t1.gene2go-2024-09-20.tsv');
    const configId = await embedProteinsWithKmer(api, join(data, 'sequences.fasta'));
    predictRequest = {
      embedding_config_id: configId,
      annotation_set_id: t0,
      ontology_snapshot_id: snapshotId,
    };
    predicted = await runJobToSuccess<TestJob>(api, '/v1/embeddings/predict', predictRequest, 300_000);
    setId = predicted.result!['prediction_set_id'] as string;
    const generated = await runJobToSuccess<TestJob>(api, '/v1/annotations/evaluation-sets/generate', {
      old_annotation_set_id: t0,
      new_annotation_set_id: t1,
    });
    evaluationSetId = generated.result!['evaluation_set_id'] as string;
    db = createDataSource({ url: world.env['SVC_DB_URL']!, poolSize: 2 });
    await db.initialize();
    if (holdout === 'tiny') {
      const terms = await db.query<{ go_term_id: number; go_id: string }[]>(
        'SELECT DISTINCT go_term_id, go_id FROM prediction WHERE prediction_set_id = $1 ORDER BY go_id LIMIT 5',
        [setId],
      );
      expect(terms).toHaveLength(5);
      await new PredictionSetRepository(db).writeRows(setId, printingRows(terms));
    }
  }, 600_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await db?.destroy();
    await world?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const download = async (file: string): Promise<string> => {
    const res = await api.get<string>(`/v1/embeddings/prediction-sets/${setId}/${file}`);
    expect(res.status).toBe(200);
    return res.text;
  };

  it('predictions.tsv, with and without filters, is the row-object file', async () => {
    const rows = await referenceRows(db, setId);
    expect(rows.length).toBeGreaterThan(holdout === 'tiny' ? 10 : 1000);
    // The line after the header names what the rows stand on; the rows follow it.
    const whole = (await download('predictions.tsv')).split('\n');
    expect(whole[1]).toMatch(/^# go-version: releases\/2022-07-01; reference-annotations: /);
    expect([whole[0], ...whole.slice(2)].join('\n')).toBe(referenceTsv(rows));
    const one = rows[Math.floor(rows.length / 2)]!;
    const accession = String(one['protein_accession']);
    expect(withoutComment(await download(`predictions.tsv?accession=${accession}&aspect=F`))).toBe(
      referenceTsv(rows.filter((r) => r['protein_accession'] === accession && r['go_aspect'] === 'F')),
    );
    expect(withoutComment(await download('predictions.tsv?max_distance=0.5'))).toBe(
      referenceTsv(rows.filter((r) => Number(r['distance']) <= Math.fround(0.5))),
    );
    // A score floor is a distance ceiling (a row scores max(0, 1 - distance)); the tighter one wins.
    expect(withoutComment(await download('predictions.tsv?min_score=0.25'))).toBe(
      referenceTsv(rows.filter((r) => Number(r['distance']) <= Math.fround(0.75))),
    );
    expect(withoutComment(await download('predictions.tsv?min_score=0.25&max_distance=0.5'))).toBe(
      referenceTsv(rows.filter((r) => Number(r['distance']) <= Math.fround(0.5))),
    );
    expect(withoutComment(await download('predictions.tsv?min_score=0'))).toBe(referenceTsv(rows));
  });

  it('predictions-cafa.tsv, GAF and JSON are the best row per term of the row-object reader', async () => {
    const rows = await referenceRows(db, setId);
    const proteins = referenceBest(rows);
    expect(await download('predictions-cafa.tsv')).toBe(
      proteins
        .flatMap((p) => p.terms.map((t) => `${p.protein}\t${t.goId}\t${t.score.toFixed(6)}\n`))
        .join(''),
    );
    const delta = new Set<string>();
    for (const category of ['NK', 'LK'])
      for (const line of (
        await api.get<string>(
          `/v1/annotations/evaluation-sets/${evaluationSetId}/ground-truth-${category}.tsv`,
        )
      ).text.split('\n'))
        if (line.length > 0) delta.add(line.split('\t')[0]!);
    expect(delta.size).toBeGreaterThan(0);
    expect(await download(`predictions-cafa.tsv?eval_id=${evaluationSetId}`)).toBe(
      proteins
        .filter((p) => delta.has(p.protein))
        .flatMap((p) => p.terms.map((t) => `${p.protein}\t${t.goId}\t${t.score.toFixed(6)}\n`))
        .join(''),
    );

    expect(await download('predictions-cafa.tsv?min_score=0.2')).toBe(
      proteins
        .flatMap((p) =>
          p.terms
            .filter((t) => t.score >= 0.2)
            .map((t) => `${p.protein}\t${t.goId}\t${t.score.toFixed(6)}\n`),
        )
        .join(''),
    );

    const gaf = await download('predictions.gaf?min_score=0.2');
    const date = /\tIEA\t[^\n]*?\t(\d{8})\t/.exec(gaf)?.[1] ?? '';
    const reader = new GafReader();
    const parsed = gaf
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => reader.push(line));
    expect(parsed.filter((p) => p.kind === 'error')).toEqual([]);
    expect(reader.header.properties).toMatchObject({
      'gaf-version': '2.2',
      'generated-by': 'SVC',
      'date-generated': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      'prediction-set': setId,
      'min-score': '0.2',
    });
    expect(gaf.split('\n').filter((l) => l.length > 0 && !l.startsWith('!'))).toEqual(
      proteins.flatMap((p) =>
        p.terms
          .filter((t) => t.score >= 0.2)
          .map((t) =>
            predictionGafLine({
              protein: p.protein,
              goId: t.goId,
              aspect: t.row['go_aspect'] as 'F' | 'P' | 'C',
              taxonId: (t.row['query_taxonomy_id'] as string | null) ?? null,
              donor: (t.row['ref_protein_accession'] as string | null) ?? null,
              date,
            }),
          ),
      ),
    );

    // The JSON: what the set stands on, then per protein its backing and the same best terms.
    const json = JSON.parse(await download('predictions.json')) as {
      prediction_set_id: string;
      min_score: number;
      reference: Record<string, unknown> | null;
      proteins: { protein: string; homologs: number | null; basis: string | null; terms: unknown[] }[];
    };
    expect(json).toMatchObject({ prediction_set_id: setId, min_score: 0 });
    expect(json.reference).toMatchObject({ ontology_version: 'releases/2022-07-01' });
    expect(json.proteins.map(({ protein, terms }) => ({ protein, terms }))).toEqual(
      JSON.parse(referenceJson(proteins)),
    );
    const summaries = new Map(
      (
        await db.query<{ protein_accession: string; homologs: number; known_terms: number }[]>(
          `SELECT protein_accession, homologs, known_terms FROM prediction_query_summary WHERE prediction_set_id = $1`,
          [setId],
        )
      ).map((r) => [r.protein_accession, r]),
    );
    for (const entry of json.proteins) {
      const summary = summaries.get(entry.protein);
      // Rows written straight into the table (the edge cases above) have no summary.
      const expected =
        summary === undefined
          ? { homologs: null, basis: null }
          : {
              homologs: summary.homologs,
              basis: summary.known_terms > 0 ? 'known' : summary.homologs > 0 ? 'homology' : 'prior',
            };
      expect({ protein: entry.protein, homologs: entry.homologs, basis: entry.basis }).toEqual({
        protein: entry.protein,
        ...expected,
      });
    }
  });

  it('training-data.tsv is the row-object file with labels', async () => {
    const rows = await referenceRows(db, setId);
    const res = await api.get<string>(
      `/v1/scoring/prediction-sets/${setId}/training-data.tsv?evaluation_set_id=${evaluationSetId}`,
    );
    expect(res.status).toBe(200);
    const [header, ...lines] = res.text.replace(/\n$/, '').split('\n');
    expect(header!.split('\t').slice(0, 4)).toEqual(['protein_accession', 'go_id', 'aspect', 'label']);
    expect(new Set(lines.map((l) => l.split('\t')[3]))).toEqual(new Set(['0', '1']));
    const withoutLabels = lines
      .map((l) =>
        l
          .split('\t')
          .filter((_, i) => i !== 3)
          .join('\t'),
      )
      .join('\n');
    const expected = rows
      .map((r) =>
        [
          r['protein_accession'],
          r['go_id'],
          r['go_aspect'],
          ...PREDICTIONS_TSV_COLUMNS.slice(4, 31).map((c) => r[c]),
        ]
          .map(tsvCell)
          .join('\t'),
      )
      .join('\n');
    expect(withoutLabels === expected).toBe(true);
  });

  it('predicts the same rows in three batches as in one', async () => {
    const queries = Number(predicted.result!['queries']);
    expect(predicted.result!['batches']).toBe(1);
    const batched = await runJobToSuccess<TestJob>(
      api,
      '/v1/embeddings/predict',
      { ...predictRequest, batch_size: Math.ceil(queries / 3) },
      300_000,
    );
    expect(batched.result!['batches']).toBe(3);
    // One DIAMOND run for the three batches (predictions-search.step.ts); each batch scored its hits
    // from the shared volume, then removed them.
    const events = (
      await api.get<{ event: string; fields: Record<string, unknown> }[]>(
        `/v1/jobs/${batched.id}/events?limit=2000`,
      )
    ).body;
    expect(events.filter((e) => e.event === 'predict_go_terms_search.started')).toHaveLength(1);
    const searches = events.filter((e) => e.event === 'predict_go_terms_search.done');
    expect(searches.map((e) => e.fields['batches'])).toEqual([3]);
    expect(searches[0]!.fields['queries']).toBe(queries);
    const batchEvents = events.filter((e) => e.event === 'predict_go_terms_batch.done');
    expect(batchEvents.map((e) => e.fields['searched_ahead'])).toEqual([true, true, true]);
    const leftovers = readdirSync(join(world.env['SVC_ARTIFACTS_DIR']!, 'work', 'search-ahead'), {
      recursive: true,
    }).map(String);
    expect(leftovers.filter((name) => name.endsWith('.tsv'))).toEqual([]);
    const tsv = async (id: string): Promise<string> =>
      (await api.get<string>(`/v1/embeddings/prediction-sets/${id}/predictions.tsv`)).text;
    const once = (await tsv(setId))
      .split('\n')
      .filter((line) => !line.startsWith('ZZEDGE'))
      .join('\n');
    expect((await tsv(batched.result!['prediction_set_id'] as string)) === once).toBe(true);
  });

  it('composes the prior-only rows at read: the same files and metrics as a set that stores them', async () => {
    // The same prediction twice: by the suite's worker (the prior stored once, SVC_PRIOR_ROWS's
    // default), and by a worker that stores every row.
    const composedJob = await runJobToSuccess<TestJob>(
      api,
      '/v1/embeddings/predict',
      predictRequest,
      300_000,
    );
    const prediction = 2; // workers: ingestion, embedding, prediction, evaluation
    await workers[prediction]!.stop();
    const storing = await spawnApp('prediction-worker', { ...world.env, SVC_PRIOR_ROWS: 'stored' });
    workers[prediction] = storing;
    await storing.waitForLog('worker started');
    const storedJob = await runJobToSuccess<TestJob>(api, '/v1/embeddings/predict', predictRequest, 300_000);
    const composedSet = composedJob.result!['prediction_set_id'] as string;
    const storedSet = storedJob.result!['prediction_set_id'] as string;
    const rowsStored = async (id: string) =>
      (
        await db.query<{ n: number }[]>(
          'SELECT count(*)::int AS n FROM prediction WHERE prediction_set_id = $1',
          [id],
        )
      )[0]!.n;
    // Most rows of a homology set rest on the prior alone; the composed set stores far fewer.
    expect(composedJob.result!['prediction_count']).toBe(storedJob.result!['prediction_count']);
    expect(await rowsStored(storedSet)).toBe(storedJob.result!['prediction_count']);
    expect(await rowsStored(composedSet)).toBeLessThan((await rowsStored(storedSet)) / 2);

    const file = async (id: string, name: string) => {
      const res = await api.get<string>(`/v1/embeddings/prediction-sets/${id}/${name}`);
      expect(res.status).toBe(200);
      return res.text.split(id).join('SET');
    };
    for (const name of [
      'predictions.tsv',
      'predictions.tsv?aspect=C&max_distance=0.8',
      'predictions-cafa.tsv',
      `predictions-cafa.tsv?eval_id=${evaluationSetId}`,
      'predictions.gaf?min_score=0.05',
      'predictions.json',
    ])
      expect((await file(composedSet, name)) === (await file(storedSet, name))).toBe(true);
    // The archive holds the same files (its entries' times are the download's, so the entries are compared).
    const zipped = async (id: string) => {
      const res = await fetch(`${gateway.url}/v1/embeddings/prediction-sets/${id}/predictions.zip`);
      expect(res.status).toBe(200);
      const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
      return Object.fromEntries(
        Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes).split(id).join('SET')]),
      );
    };
    const archive = await zipped(composedSet);
    expect(Object.keys(archive).length).toBeGreaterThan(1);
    expect(archive).toEqual(await zipped(storedSet));
    const training = async (id: string) =>
      (
        await api.get<string>(
          `/v1/scoring/prediction-sets/${id}/training-data.tsv?evaluation_set_id=${evaluationSetId}`,
        )
      ).text;
    expect((await training(composedSet)) === (await training(storedSet))).toBe(true);
    const view = async (id: string) => {
      const detail = await api.get<Record<string, unknown>>(`/v1/embeddings/prediction-sets/${id}`);
      const proteins = await api.get<Record<string, unknown>>(
        `/v1/embeddings/prediction-sets/${id}/proteins?limit=20&offset=3`,
      );
      const terms = await api.get<Record<string, unknown>>(`/v1/embeddings/prediction-sets/${id}/go-terms`);
      return [detail.body['prediction_count'], detail.body['proteins'], proteins.body, terms.body];
    };
    expect(await view(composedSet)).toEqual(await view(storedSet));

    const metrics = async (id: string) => {
      const job = await runJobToSuccess<TestJob>(
        api,
        `/v1/annotations/evaluation-sets/${evaluationSetId}/run`,
        {
          prediction_set_id: id,
        },
      );
      const results = await api.get<{ id: string; metrics: unknown }[]>(
        `/v1/annotations/evaluation-sets/${evaluationSetId}/results`,
      );
      return results.body.find((r) => r.id === job.result!['evaluation_result_id'])!.metrics;
    };
    const composedMetrics = await metrics(composedSet);
    expect(composedMetrics).toEqual(await metrics(storedSet));
    expect(JSON.stringify(composedMetrics)).toContain('fmax');
  }, 600_000);

  it('gives the same rows whatever the batch size', async () => {
    const reader = new PredictionExportReader(db);
    const read = async (batch: number) => {
      const out: string[] = [];
      for await (const chunk of reader.tsvRows(setId, {}, batch))
        for (const row of chunk) out.push(row.join('\t'));
      const best: string[] = [];
      for await (const p of reader.bestTerms(setId, {}, batch)) best.push(JSON.stringify(p));
      return { out, best };
    };
    const whole = await read(10_000_000);
    const small = await read(7);
    expect(small.out).toEqual(whole.out);
    expect(small.best).toEqual(whole.best);
  });
});

/** Every row of the set through the row-object reader, in its order. */
async function referenceRows(db: DataSource, setId: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const chunk of new PredictionSetRepository(db).streamRows(setId, {})) rows.push(...chunk);
  return rows;
}

/** A TSV download without its comment line (what the rows stand on). */
function withoutComment(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('# '))
    .join('\n');
}

function referenceTsv(rows: Record<string, unknown>[]): string {
  return (
    `${PREDICTIONS_TSV_COLUMNS.join('\t')}\n` +
    rows.map((r) => PREDICTIONS_TSV_COLUMNS.map((c) => tsvCell(r[c])).join('\t') + '\n').join('')
  );
}

type Best = { goId: string; score: number; row: Record<string, unknown> };

/** The best row per (protein, term) as the downloads chose it from parsed rows: first highest score. */
function referenceBest(rows: Record<string, unknown>[]): { protein: string; terms: Best[] }[] {
  const proteins: { protein: string; terms: Best[] }[] = [];
  let best = new Map<string, Best>();
  let protein: string | null = null;
  const done = () => {
    if (protein !== null)
      proteins.push({
        protein,
        terms: [...best.values()].sort((a, b) => b.score - a.score || (a.goId < b.goId ? -1 : 1)),
      });
  };
  for (const row of rows) {
    const accession = String(row['protein_accession']);
    if (accession !== protein) {
      done();
      protein = accession;
      best = new Map();
    }
    const goId = String(row['go_id']);
    const score = rowScore(row);
    if (score > (best.get(goId)?.score ?? -1)) best.set(goId, { goId, score, row });
  }
  done();
  return proteins;
}

function referenceJson(proteins: { protein: string; terms: Best[] }[]): string {
  const entries = proteins.map(({ protein, terms }) =>
    JSON.stringify({
      protein,
      terms: terms.map(({ goId, score, row }) => {
        const features = (row['features'] ?? {}) as Record<string, unknown>;
        const identity = features['identity'] ?? row['identity_sw'] ?? null;
        return {
          go_id: goId,
          go_name: row['go_name'] ?? null,
          aspect: row['go_aspect'],
          score: Number(score.toFixed(6)),
          donor: row['ref_protein_accession'] ?? null,
          identity: identity === null ? null : Number(identity),
          evidence_code: row['evidence_code'] ?? null,
          source: row['ref_protein_accession'] === null ? 'prior' : 'homology',
        };
      }),
    }),
  );
  return `[${entries.map((e, i) => `${i === 0 ? '' : ','}\n${e}`).join('')}\n]\n`;
}

/** Rows whose printing differs between PostgreSQL and JavaScript unless the reader converts it. */
function printingRows(terms: { go_term_id: number; go_id: string }[]): PredictionRow[] {
  const base = (protein: string, term: number, distance: number): PredictionRow => ({
    protein_accession: protein,
    go_term_id: terms[term]!.go_term_id,
    go_id: terms[term]!.go_id,
    aspect: 'F',
    distance,
    ref_protein_accession: null,
    qualifier: 'enables',
    vote_count: 1,
    k_position: 1,
  });
  return [
    { ...base('ZZEDGE1', 0, 0.00005), identity_nw: 0.000012, ref_protein_accession: 'P12345' },
    { ...base('ZZEDGE1', 0, 0.00001), features: { identity: 0.0000071 } },
    { ...base('ZZEDGE1', 1, 1.5e-9), qualifier: 'enables\tand\nmore', evidence_code: 'IEA' },
    { ...base('ZZEDGE1', 2, 0), alignment_score_nw: 1e16, taxonomic_lca: 'a\r\nb' },
    // Scores near 0 (distances near 1) and at 0 (a distance past 1): max(0, 1 - distance).
    { ...base('ZZEDGE2', 0, 0.99997), neighbor_distance_std: -0, vote_count: 3 },
    { ...base('ZZEDGE2', 3, 1.25), aspect: 'C', query_taxonomy_id: '9606' },
    { ...base('ZZEDGE2', 4, 0.6), aspect: 'P', features: { identity: null }, identity_sw: 0.5 },
  ];
}
