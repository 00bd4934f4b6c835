import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  AppProcess,
  createSuiteWorld,
  embedProteinsWithKmer,
  HttpClient,
  runJobToSuccess,
  spawnApp,
  SuiteWorld,
  testConfig,
  waitFor,
  waitForJobEnd,
} from '@svc/testing';
import { JobRepository } from '@svc/persistence';
import { createGateway, Gateway } from '../app.factory';

const ROOT = resolve(__dirname, '../../../..');
const DATA = resolve(ROOT, '../shared/data');
const K = 3;

/** NCBI nodes.dmp rows (tax id, parent, rank) of the human and house mouse lineages, root included. */
const HUMAN_AND_MOUSE: [number, number, string][] = [
  [1, 1, 'no rank'],
  [131567, 1, 'no rank'],
  [2759, 131567, 'superkingdom'],
  [33154, 2759, 'clade'],
  [33208, 33154, 'kingdom'],
  [6072, 33208, 'clade'],
  [33213, 6072, 'clade'],
  [33511, 33213, 'clade'],
  [7711, 33511, 'phylum'],
  [89593, 7711, 'subphylum'],
  [7742, 89593, 'clade'],
  [7776, 7742, 'clade'],
  [117570, 7776, 'clade'],
  [117571, 117570, 'clade'],
  [8287, 117571, 'superclass'],
  [1338369, 8287, 'clade'],
  [32523, 1338369, 'clade'],
  [32524, 32523, 'clade'],
  [40674, 32524, 'class'],
  [32525, 40674, 'clade'],
  [9347, 32525, 'clade'],
  [1437010, 9347, 'clade'],
  [314146, 1437010, 'superorder'],
  [9443, 314146, 'order'],
  [376913, 9443, 'suborder'],
  [314293, 376913, 'infraorder'],
  [9526, 314293, 'parvorder'],
  [314295, 9526, 'superfamily'],
  [9604, 314295, 'family'],
  [207598, 9604, 'subfamily'],
  [9605, 207598, 'genus'],
  [9606, 9605, 'species'],
  [314147, 314146, 'clade'],
  [9989, 314147, 'order'],
  [1963758, 9989, 'suborder'],
  [337687, 1963758, 'clade'],
  [10066, 337687, 'family'],
  [39107, 10066, 'subfamily'],
  [10088, 39107, 'genus'],
  [862507, 10088, 'subgenus'],
  [10090, 862507, 'species'],
];

interface Job {
  id: string;
  status: string;
  progress_current: number | null;
  progress_total: number | null;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}

function parseTsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  // The comment line after the header (what the rows stand on) is not a row.
  const [head = '', ...lines] = text.split('\n').filter((l) => l.length > 0 && !l.startsWith('# '));
  const header = head.split('\t');
  return {
    header,
    rows: lines.map((l) => {
      const cells = l.split('\t');
      return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
    }),
  };
}

/** Reads a bytea float32 vector written little-endian. */
function toVector(bytes: Buffer, dimension: number): number[] {
  return Array.from({ length: dimension }, (_, i) => bytes.readFloatLE(i * 4));
}

function unit(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((a, b) => a + b * b, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}

describe('predict_go_terms on the tiny holdout, end to end through the real queues', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let snapshotId: string;
  let annotationSetId: string;
  let configId: string;
  let predictionSetId: string;

  const runJob = (path: string, body: unknown): Promise<Job> => runJobToSuccess<Job>(api, path, body);

  beforeAll(async () => {
    world = await createSuiteWorld('predictions');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker'].map((name) => spawnApp(name, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const snapshot = await runJob('/v1/annotations/snapshots/load', {
      obo_url: join(ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const set = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshotId,
      gaf_url: join(ROOT, 'fixtures/tiny-t0.2022-09-12.gaf'),
      source_version: `tiny-t0-${randomUUID()}`,
    });
    annotationSetId = set.result!['annotation_set_id'] as string;
    configId = await embedProteinsWithKmer(api, join(DATA, 'tiny/sequences.fasta'));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
  });

  it('validates the request up front: 422 for a bad UUID, 404 for a missing reference', async () => {
    const bad = await api.post<{ errors: { message: string }[] }>('/v1/embeddings/predict', {
      embedding_config_id: 'nope',
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
    });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body.errors.map((e) => e.message)).toContain('embedding_config_id must be a valid UUID');
    const unknownKey = await api.post('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      colour: 'red',
    });
    expect(unknownKey.status).toBe(422);
    const missing = await api.post<{ detail: string }>('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: randomUUID(),
      ontology_snapshot_id: snapshotId,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/annotation set not found/i);
  });

  it('fails a prediction whose rows are gone by the time it runs with the missing row’s code', async () => {
    // Queued around the gateway's checks (as a job whose rows were deleted after dispatch would be).
    const queue = async (payload: Record<string, string>): Promise<Job> => {
      const row = await new JobRepository(gateway.infra.db).createQueued({
        operation: 'predict_go_terms',
        queueName: 'svc.predictions',
        payload,
        meta: {},
        description: null,
        tags: [],
        dedupKey: null,
        dispatchDeadlineSeconds: 60,
      });
      await gateway.infra.broker.publishJob('svc.predictions', { job_id: row.id });
      return waitForJobEnd<Job>(api, row.id);
    };
    const goneSet = randomUUID();
    const withoutSet = await queue({
      embedding_config_id: configId,
      annotation_set_id: goneSet,
      ontology_snapshot_id: snapshotId,
    });
    expect(withoutSet).toMatchObject({
      status: 'FAILED',
      error_code: 'annotation_set_not_found',
      error_message: `annotation set ${goneSet} does not exist`,
    });
    const goneConfig = randomUUID();
    const withoutConfig = await queue({
      embedding_config_id: goneConfig,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
    });
    expect(withoutConfig).toMatchObject({
      status: 'FAILED',
      error_code: 'embedding_config_not_found',
      error_message: `embedding config ${goneConfig} does not exist`,
    });
  });

  it('predicts for every embedded protein; progress reaches the total', async () => {
    // The embedding search (the default is DIAMOND, homology-default.integration.spec.ts).
    const job = await runJob('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      limit_per_entry: K,
      batch_size: 15,
      search_backend: 'numpy',
    });
    expect(job.progress_current).toBe(40);
    expect(job.progress_total).toBe(40);
    const list = await api.get<{ id: string; job_id: string; prediction_count: number }[]>(
      '/v1/embeddings/prediction-sets',
    );
    expect(list.status).toBe(200);
    const set = list.body.find((s) => s.job_id === job.id);
    expect(set).toBeDefined();
    predictionSetId = set!.id;
    const events = await api.get<{ event: string; fields: Record<string, unknown> }[]>(
      `/v1/jobs/${job.id}/events?limit=2000`,
    );
    const batches = events.body.filter((e) => e.event === 'predict_go_terms_batch.done');
    expect(batches).toHaveLength(3);
  });

  it('predictions.tsv has the specification’s 32 columns, and the rows an independent nearest-neighbour transfer gives', async () => {
    const tsv = await api.get<string>(`/v1/embeddings/prediction-sets/${predictionSetId}/predictions.tsv`);
    expect(tsv.status).toBe(200);
    expect(tsv.headers.get('content-type')).toContain('text/tab-separated-values');
    const { header, rows } = parseTsv(tsv.text);
    expect(header).toHaveLength(32);
    expect(header[31]).toBe('neighbor_vote_fraction');
    expect(header.slice(0, 8)).toEqual([
      'protein_accession',
      'go_id',
      'go_name',
      'go_aspect',
      'distance',
      'ref_protein_accession',
      'qualifier',
      'evidence_code',
    ]);
    expect(header[31]).toBe('neighbor_vote_fraction');
    expect(rows.length).toBeGreaterThan(0);

    // Independent computation: plain cosine distances over the stored vectors, one pool per aspect.
    const db = gateway.infra.db;
    const vectors = await db.query<{ accession: string; dimension: number; vector: Buffer }[]>(
      `SELECT p.accession, e.dimension, e.vector FROM protein p JOIN embedding e ON e.sequence_id = p.sequence_id
        WHERE e.embedding_config_id = $1 AND e.chunk_index = 0`,
      [configId],
    );
    const byAccession = new Map(vectors.map((v) => [v.accession, unit(toVector(v.vector, v.dimension))]));
    const annotations = await db.query<{ protein_accession: string; go_id: string; aspect: string }[]>(
      `SELECT a.protein_accession, a.go_id, t.aspect FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id
        WHERE a.annotation_set_id = $1 AND NOT a.is_not`,
      [annotationSetId],
    );
    const expected = new Map<string, { distance: number; votes: number }>();
    for (const aspect of ['F', 'P', 'C']) {
      const terms = new Map<string, Set<string>>();
      for (const a of annotations.filter((x) => x.aspect === aspect)) {
        if (!terms.has(a.protein_accession)) terms.set(a.protein_accession, new Set());
        terms.get(a.protein_accession)!.add(a.go_id);
      }
      const pool = [...terms.keys()].filter((acc) => byAccession.has(acc));
      for (const [query, qv] of byAccession) {
        const neighbours = pool
          .filter((ref) => ref !== query)
          .map((ref) => ({ ref, distance: 1 - byAccession.get(ref)!.reduce((s, x, i) => s + x * qv[i]!, 0) }))
          .sort((a, b) => a.distance - b.distance)
          .slice(0, K);
        for (const n of neighbours) {
          for (const goId of terms.get(n.ref)!) {
            const key = `${query} ${goId}`;
            const known = expected.get(key);
            if (known === undefined) expected.set(key, { distance: n.distance, votes: 1 });
            else known.votes += 1;
          }
        }
      }
    }
    const actual = new Map(rows.map((r) => [`${r['protein_accession']} ${r['go_id']}`, r]));
    expect(actual.size).toBe(rows.length); // one row per (protein, term)
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, want] of expected) {
      const row = actual.get(key)!;
      expect(Number(row['distance'])).toBeCloseTo(want.distance, 4);
      expect(Number(row['vote_count'])).toBe(want.votes);
      expect(Number(row['neighbor_vote_fraction'])).toBeCloseTo(want.votes / K, 6);
      expect(row['protein_accession']).not.toBe(row['ref_protein_accession']);
      // Alignment features are present and in range (an unrelated pair may align with identity 0).
      for (const column of ['identity_nw', 'similarity_nw', 'identity_sw', 'similarity_sw']) {
        expect(row[column]).not.toBe('');
        expect(Number(row[column])).toBeGreaterThanOrEqual(0);
        expect(Number(row[column])).toBeLessThanOrEqual(1);
      }
      expect(Number(row['alignment_length_nw'])).toBeGreaterThanOrEqual(
        Math.max(Number(row['length_query']), Number(row['length_ref'])),
      );
    }
    // Ordered by accession, then distance.
    const order = rows.map((r) => [r['protein_accession']!, Number(r['distance'])] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
    expect(order).toEqual(sorted);

    const filtered = parseTsv(
      (
        await api.get<string>(
          `/v1/embeddings/prediction-sets/${predictionSetId}/predictions.tsv?aspect=F&max_distance=0.5`,
        )
      ).text,
    );
    expect(filtered.rows.every((r) => r['go_aspect'] === 'F' && Number(r['distance']) <= 0.5)).toBe(true);
    expect(filtered.rows.length).toBe(
      rows.filter((r) => r['go_aspect'] === 'F' && Number(r['distance']) <= 0.5).length,
    );
  });

  it('the CAFA download keeps the best score per pair, the specification’s max(0, 1 - distance)', async () => {
    const tsv = await api.get<string>(
      `/v1/embeddings/prediction-sets/${predictionSetId}/predictions-cafa.tsv`,
    );
    expect(tsv.status).toBe(200);
    const lines = tsv.text
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => l.split('\t'));
    const full = parseTsv(
      (await api.get<string>(`/v1/embeddings/prediction-sets/${predictionSetId}/predictions.tsv`)).text,
    );
    const best = new Map<string, number>();
    for (const r of full.rows) {
      const key = `${r['protein_accession']} ${r['go_id']}`;
      best.set(key, Math.max(best.get(key) ?? 0, Math.max(0, 1 - Number(r['distance']))));
    }
    expect(lines).toHaveLength(best.size);
    for (const [protein, goId, score] of lines) {
      expect(Number(score)).toBeCloseTo(best.get(`${protein} ${goId}`)!, 5);
    }
    expect(
      (
        await api.get(
          `/v1/embeddings/prediction-sets/${predictionSetId}/predictions-cafa.tsv?eval_id=${randomUUID()}`,
        )
      ).status,
    ).toBe(404);
  });

  it('detail, proteins, one protein, GO term distribution; 404 for unknown sets', async () => {
    const detail = await api.get<{ prediction_count: number; proteins: { go_count: number }[] }>(
      `/v1/embeddings/prediction-sets/${predictionSetId}`,
    );
    expect(detail.status).toBe(200);
    expect(detail.body.prediction_count).toBe(detail.body.proteins.reduce((n, p) => n + p.go_count, 0));
    const proteins = await api.get<{
      items: {
        protein_accession: string;
        go_count: number;
        min_distance: number;
        annotation_count: number;
        match_count: number;
      }[];
      total: number;
    }>(`/v1/embeddings/prediction-sets/${predictionSetId}/proteins?limit=5&offset=0`);
    expect(proteins.status).toBe(200);
    expect(proteins.body.items).toHaveLength(5);
    expect(proteins.body.total).toBe(detail.body.proteins.length);
    const first = proteins.body.items[0]!;
    expect(first.match_count).toBeLessThanOrEqual(first.go_count);
    const one = await api.get<{ distance: number; go_id: string }[]>(
      `/v1/embeddings/prediction-sets/${predictionSetId}/proteins/${first.protein_accession}`,
    );
    expect(one.body).toHaveLength(first.go_count);
    expect(one.body[0]!.distance).toBeCloseTo(first.min_distance, 5);
    const none = await api.get<unknown[]>(
      `/v1/embeddings/prediction-sets/${predictionSetId}/proteins/NOPE00`,
    );
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    const terms = await api.get<{
      terms: Record<string, { go_id: string; prediction_count: number }[]>;
      totals: Record<string, { predictions: number }>;
    }>(`/v1/embeddings/prediction-sets/${predictionSetId}/go-terms?limit=3`);
    expect(terms.status).toBe(200);
    expect(terms.body.terms['P']!.length).toBeLessThanOrEqual(3);
    const totalPredictions = Object.values(terms.body.totals).reduce((n, t) => n + t.predictions, 0);
    expect(totalPredictions).toBe(detail.body.prediction_count);
    for (const path of ['', '/proteins', '/go-terms', '/predictions.tsv', '/predictions-cafa.tsv']) {
      expect((await api.get(`/v1/embeddings/prediction-sets/${randomUUID()}${path}`)).status).toBe(404);
    }
    expect((await api.get(`/embeddings/prediction-sets/not-a-uuid`)).status).toBe(404);
    expect((await api.get(`/v1/embeddings/prediction-sets/${predictionSetId}/proteins?limit=0`)).status).toBe(
      422,
    );
  });

  it('predicts for a query set, resolves it, and refuses to delete the annotation set it uses', async () => {
    const fasta = readFileSync(join(DATA, 'tiny/sequences.fasta'), 'utf8')
      .split('>')
      .slice(1, 4)
      .map((r) => `>${r}`)
      .join('');
    const form = new FormData();
    form.set('name', 'three');
    form.set('file', new Blob([fasta], { type: 'text/plain' }), 'three.fasta');
    const upload = await fetch(`${api.baseUrl}/v1/query-sets`, { method: 'POST', body: form });
    const querySet = (await upload.json()) as { id: string };
    await runJob('/v1/embeddings/compute', { embedding_config_id: configId, query_set_id: querySet.id });
    const job = await runJob('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: querySet.id,
      limit_per_entry: 2,
      compute_alignments: false,
      search_backend: 'hnsw',
    });
    expect(job.progress_total).toBe(3);
    const resolved = await api.get<{ id: string; job_id: string; query_set_id: string }>(
      `/v1/embeddings/resolve?query_set_id=${querySet.id}&embedding_config_id=${configId}`,
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.job_id).toBe(job.id);
    const tsv = parseTsv(
      (await api.get<string>(`/v1/embeddings/prediction-sets/${resolved.body.id}/predictions.tsv`)).text,
    );
    expect(tsv.rows.length).toBeGreaterThan(0);
    expect(tsv.rows.every((r) => r['identity_nw'] === '' && Number(r['k_position']) <= 2)).toBe(true);
    expect(
      (await api.get(`/v1/embeddings/resolve?query_set_id=${randomUUID()}&embedding_config_id=${configId}`))
        .status,
    ).toBe(404);
    expect(
      (await api.get(`/v1/embeddings/resolve?query_set_id=x&embedding_config_id=${configId}`)).status,
    ).toBe(422);

    expect((await api.delete(`/v1/annotations/sets/${annotationSetId}`)).status).toBe(409);
    const deleted = await api.delete<{ deleted: boolean; predictions_deleted: number }>(
      `/v1/embeddings/prediction-sets/${resolved.body.id}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, predictions_deleted: tsv.rows.length });
    expect((await api.get(`/v1/embeddings/prediction-sets/${resolved.body.id}`)).status).toBe(404);
  });

  it('scoring configs: unknown weight keys 422, presets, and score.tsv', async () => {
    const bad = await api.post<{ errors: { path: string }[] }>('/v1/scoring/configs', {
      name: 'bad',
      weights: { embedding_similarity: 1, colour: 2 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.path)).toContain('weights.colour');
    const created = await api.post<{ id: string; weights: Record<string, number> }>('/v1/scoring/configs', {
      name: `sim-${randomUUID()}`,
      weights: { embedding_similarity: 1 },
    });
    expect(created.status).toBe(201);
    expect(created.body.weights).toEqual({
      embedding_similarity: 1,
      identity_nw: 0,
      identity_sw: 0,
      evidence_weight: 0,
      taxonomic_proximity: 0,
      neighbor_vote_fraction: 0,
      prediction_score: 0,
    });
    // The presets are registered when the gateway starts: asking again creates nothing.
    const listed = await api.get<{ name: string; weights: Record<string, number> }[]>('/v1/scoring/configs');
    expect(listed.body.find((c) => c.name === 'default')?.weights).toMatchObject({ prediction_score: 1 });
    const presets = await api.post<{ created: string[]; presets: { name: string }[] }>(
      '/v1/scoring/configs/presets',
    );
    expect(presets.status).toBe(201);
    expect(presets.body.created).toEqual([]);
    expect(presets.body.presets.map((p) => p.name)).toEqual([
      'default',
      'embedding_only',
      'balanced',
      'alignment_weighted',
      'vote_fraction',
    ]);
    const score = parseTsv(
      (
        await api.get<string>(
          `/v1/scoring/prediction-sets/${predictionSetId}/score.tsv?scoring_config_id=${created.body.id}`,
        )
      ).text,
    );
    expect(score.header.slice(0, 4)).toEqual(['protein_accession', 'go_id', 'go_aspect', 'score']);
    for (const r of score.rows) expect(Number(r['score'])).toBeCloseTo(1 - Number(r['distance']) / 2, 5);
    expect((await api.get(`/v1/scoring/configs/${created.body.id}`)).status).toBe(200);
    expect((await api.delete(`/v1/scoring/configs/${created.body.id}`)).status).toBe(200);
    expect((await api.get(`/v1/scoring/configs/${created.body.id}`)).status).toBe(404);
    expect((await api.post('/v1/scoring/configs', { name: 'x', weights: {} })).status).toBe(422);
  });

  it('POST /annotate: FASTA in, the prediction queued at once (no embedding job)', async () => {
    const fasta = readFileSync(join(DATA, 'tiny/sequences.fasta'), 'utf8')
      .split('>')
      .slice(5, 7)
      .map((r) => `>${r}`)
      .join('');
    const form = new FormData();
    form.set('name', 'two proteins');
    form.set('file', new Blob([fasta], { type: 'text/plain' }), 'two.fasta');
    const response = await fetch(`${api.baseUrl}/v1/annotate?save_history=true`, {
      method: 'POST',
      body: form,
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, string | null>;
    expect(Object.keys(body).sort()).toEqual([
      'annotation_set_id',
      'embedding_config_id',
      'embedding_job_id',
      'links',
      'ontology_snapshot_id',
      'prediction_job_id',
      'query_set_id',
      'reference',
      'warning_codes',
      'warnings',
    ]);
    expect(body['embedding_config_id']).toBe(configId);
    expect(body['embedding_job_id']).toBeNull();
    const predictionJobId = body['prediction_job_id']!;
    expect(predictionJobId).toMatch(/^[0-9a-f-]{36}$/);
    const prediction = await waitForJobEnd<Job>(api, predictionJobId, 120_000);
    expect(prediction.error_message).toBeNull();
    expect(prediction.status).toBe('SUCCEEDED');
    expect(prediction.progress_total).toBe(2);
    const resolved = await api.get<{ job_id: string }>(
      `/v1/embeddings/resolve?query_set_id=${body['query_set_id']}&embedding_config_id=${configId}`,
    );
    expect(resolved.body.job_id).toBe(predictionJobId);

    const empty = new FormData();
    empty.set('file', new Blob(['not a fasta file'], { type: 'text/plain' }), 'bad.fasta');
    const bad = await fetch(`${api.baseUrl}/v1/annotate`, { method: 'POST', body: empty });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
  });

  it('taxonomy features from a loaded nodes.dmp: mouse queries against human references', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tax-'));
    try {
      const nodes = join(dir, 'nodes.dmp');
      writeFileSync(
        nodes,
        HUMAN_AND_MOUSE.map(([id, parent, rank]) => `${id}\t|\t${parent}\t|\t${rank}\t|\t\t|\n`).join(''),
      );
      const loaded = await runJob('/v1/jobs', {
        operation: 'load_ncbi_taxonomy',
        queue_name: 'svc.jobs',
        payload: { nodes_url: nodes, source_version: 'excerpt' },
      });
      expect(loaded.result).toMatchObject({ nodes: HUMAN_AND_MOUSE.length, malformed_lines: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await gateway.infra.db.query(`UPDATE protein SET taxonomy_id = '9606'`);
    const fasta = readFileSync(join(DATA, 'tiny/sequences.fasta'), 'utf8')
      .split('>')
      .slice(8, 10)
      .map((r) => `>${r.replace(/^(\S+)/, '$1 OS=Mus musculus OX=10090')}`)
      .join('');
    const form = new FormData();
    form.set('name', 'mouse');
    form.set('file', new Blob([fasta], { type: 'text/plain' }), 'mouse.fasta');
    const querySet = (await (
      await fetch(`${api.baseUrl}/v1/query-sets`, { method: 'POST', body: form })
    ).json()) as {
      id: string;
    };
    await runJob('/v1/embeddings/compute', { embedding_config_id: configId, query_set_id: querySet.id });
    await runJob('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: querySet.id,
      compute_alignments: false,
      // Every row has a donor (a DIAMOND set also has prior-only rows, which have no donor taxon).
      search_backend: 'numpy',
    });
    const resolved = await api.get<{ id: string }>(
      `/v1/embeddings/resolve?query_set_id=${querySet.id}&embedding_config_id=${configId}`,
    );
    const { rows } = parseTsv(
      (await api.get<string>(`/v1/embeddings/prediction-sets/${resolved.body.id}/predictions.tsv`)).text,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      // Human and mouse meet in Euarchontoglires (NCBI taxon 314146).
      expect(r).toMatchObject({
        query_taxonomy_id: '10090',
        ref_taxonomy_id: '9606',
        taxonomic_lca: '314146',
        taxonomic_relation: 'related',
      });
      expect(Number(r['taxonomic_distance'])).toBeGreaterThan(10);
    }
  });

  it('optional features: self prior, association after co-occurrence, IA and v6 warnings, ancestor votes', async () => {
    const base = {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      limit_per_entry: K,
      compute_alignments: false,
      compute_self_prior: true,
      compute_association: true,
      compute_ia: true,
      compute_v6_features: true,
    };
    const before = await runJob('/v1/embeddings/predict', base);
    const warnings = (await api.get<{ event: string }[]>(`/v1/jobs/${before.id}/events?limit=2000`)).body.map(
      (e) => e.event,
    );
    expect(warnings).toEqual(
      expect.arrayContaining([
        'predict_go_terms.cooccurrence_missing',
        'predict_go_terms.ia_missing',
        'predict_go_terms.v6_unavailable',
      ]),
    );
    await runJob(`/v1/annotations/sets/${annotationSetId}/cooccurrence`, {});
    const job = await runJob('/v1/embeddings/predict', { ...base, expand_votes_to_ancestors: true });
    const [set] = await gateway.infra.db.query<{ id: string }[]>(
      `SELECT id FROM prediction_set WHERE job_id = $1`,
      [job.id],
    );
    const rows = await gateway.infra.db.query<
      { features: Record<string, unknown>; go_term_frequency: number; vote_count: number }[]
    >(`SELECT features, go_term_frequency, vote_count FROM prediction_row WHERE prediction_set_id = $1`, [
      set!.id,
    ]);
    const [count] = await gateway.infra.db.query<{ n: number }[]>(
      `SELECT count(DISTINCT protein_accession)::int AS n FROM protein_go_annotation WHERE annotation_set_id = $1 AND NOT is_not`,
      [annotationSetId],
    );
    expect(rows.some((r) => r.features['via_descendant'] === true)).toBe(true);
    for (const r of rows) {
      if (r.features['via_descendant'] !== true)
        expect(r.features['self_prior']).toBeCloseTo(r.go_term_frequency / count!.n, 6);
      expect(typeof r.features['association_max']).toBe('number');
      expect(r.features['association_max'] as number).toBeGreaterThanOrEqual(0);
      expect(r.features['association_max'] as number).toBeLessThanOrEqual(1);
      expect(r.vote_count).toBeLessThanOrEqual(K);
    }
    // The same query and term count once per neighbour even when reached through several descendants.
    const pairs = await gateway.infra.db.query<{ dup: number }[]>(
      `SELECT count(*)::int AS dup FROM (SELECT protein_accession, go_id FROM prediction_row WHERE prediction_set_id = $1
         GROUP BY 1, 2 HAVING count(*) > 1) d`,
      [set!.id],
    );
    expect(pairs[0]!.dup).toBe(0);
  });

  it('with accounts on: guests predict under the daily sequence quota of their address; save_history needs an account', async () => {
    const guarded = await createGateway(testConfig({ ...world.env, SVC_AUTHN_REQUIRED: 'true' }));
    try {
      const anonymous = new HttpClient(guarded.url);
      await waitFor(async () => ((await anonymous.get('/health/ready')).status === 200 ? true : undefined), {
        what: 'the second gateway to reach the broker',
      });
      const fasta = readFileSync(join(DATA, 'tiny/sequences.fasta'), 'utf8')
        .split('>')
        .slice(20, 24)
        .map((r) => `>${r}`)
        .join('');
      const form = new FormData();
      form.set('name', 'four');
      form.set('file', new Blob([fasta], { type: 'text/plain' }), 'four.fasta');
      const querySet = (await (
        await fetch(`${api.baseUrl}/v1/query-sets`, { method: 'POST', body: form })
      ).json()) as {
        id: string;
      };
      // A guest predicts over the sets it holds the id of: its one-click uploads, which are unlisted.
      await gateway.infra.db.query(`UPDATE query_set SET visibility = 'unlisted' WHERE id = $1`, [
        querySet.id,
      ]);
      const predict = (k: number) =>
        anonymous.post<{ id?: string; status: number }>('/v1/embeddings/predict', {
          embedding_config_id: configId,
          annotation_set_id: annotationSetId,
          ontology_snapshot_id: snapshotId,
          query_set_id: querySet.id,
          limit_per_entry: k,
        });
      // Four sequences a request against ten a day: the third request would make twelve.
      expect((await predict(1)).status).toBe(201);
      expect((await predict(2)).status).toBe(201);
      const refused = await predict(3);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

      const annotate = new FormData();
      annotate.set('file', new Blob([fasta], { type: 'text/plain' }), 'four.fasta');
      const saved = await fetch(`${guarded.url}/v1/annotate?save_history=true`, {
        method: 'POST',
        body: annotate,
      });
      expect(saved.status).toBe(401);
      expect((await anonymous.delete(`/v1/embeddings/prediction-sets/${randomUUID()}`)).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});
