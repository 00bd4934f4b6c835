import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  AppProcess,
  createSuiteWorld,
  embedProteinsWithKmer,
  HttpClient,
  runJobToSuccess,
  SHARED_DATA_DIR,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob,
  tinySequence,
  waitFor,
  waitForJobEnd,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const EXPERIMENTAL = ['EXP', 'IDA', 'IPI', 'IMP', 'IGI', 'IEP', 'HTP', 'HDA', 'HMP', 'HGI', 'HEP'];

interface AnnotateBody {
  query_set_id: string;
  prediction_job_id: string;
  embedding_job_id: string | null;
  embedding_config_id: string;
  links: {
    query_set: string;
    prediction_job: string;
    embedding_job: string | null;
    prediction_set: string;
    dashboard: string;
  };
  reference: Record<string, unknown>;
  warnings: string[];
  warning_codes: string[];
}

interface PredictedTerm {
  go_id: string;
  distance: number;
  score: number;
  ref_protein_accession: string;
  self_hit: boolean;
}

interface SetDetail {
  id: string;
  job_id: string;
  exclude_self: boolean;
  prediction_count: number;
}

/** The FASTA record of one accession of the tiny holdout, under its UniProt header. */
function uniprotRecord(accession: string): string {
  return `>sp|${accession}|TEST_HUMAN Reference protein OS=Homo sapiens OX=9606\n${tinySequence(accession)}\n`;
}

describe('annotation mode and finding results: the query as its own donor, links, job results', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let snapshotId: string;
  let annotationSetId: string;
  let configId: string;
  /** The reference protein with the most experimental annotations, and those annotations' terms. */
  let reference: { accession: string; terms: string[] };
  let annotated: { body: AnnotateBody; predictionJob: TestJob; predictionSetId: string };

  beforeAll(async () => {
    world = await createSuiteWorld('annotation-mode');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker'].map((name) => spawnApp(name, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const snapshot = await runJobToSuccess<TestJob>(api, '/v1/annotations/snapshots/load', {
      obo_url: join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const set = await runJobToSuccess<TestJob>(api, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshotId,
      gaf_url: join(WORKSPACE_ROOT, 'fixtures/tiny-t0.2022-09-12.gaf'),
      source_version: `tiny-t0-${randomUUID()}`,
    });
    annotationSetId = set.result!['annotation_set_id'] as string;
    configId = await embedProteinsWithKmer(api, join(SHARED_DATA_DIR, 'tiny/sequences.fasta'));
    const rows = await gateway.infra.db.query<{ accession: string; terms: string[] }[]>(
      `SELECT a.protein_accession AS accession, array_agg(DISTINCT t.go_id ORDER BY t.go_id) AS terms
         FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id
        WHERE a.annotation_set_id = $1 AND NOT a.is_not AND t.aspect IS NOT NULL
          AND a.evidence_code = ANY($2::text[])
        GROUP BY a.protein_accession ORDER BY count(DISTINCT t.go_id) DESC, a.protein_accession LIMIT 1`,
      [annotationSetId, EXPERIMENTAL],
    );
    reference = rows[0]!;
    expect(reference.terms.length).toBeGreaterThan(0);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
  });

  it('POST /annotate queues the prediction itself (DIAMOND reads no embedding): it answers the prediction job and links to the query set, that job, the prediction set to be and the dashboard; no compute_embeddings job is queued; the new set is listed within 2 s of its job succeeding', async () => {
    // The cached list is filled before the run, so only a refresh on the job's success can show the set.
    const before = await api.get<{ job_id: string }[]>('/v1/embeddings/prediction-sets');
    expect(before.status).toBe(200);
    const form = new FormData();
    form.set('name', 'a known reference');
    form.set('file', new Blob([uniprotRecord(reference.accession)], { type: 'text/plain' }), 'one.fasta');
    const response = await fetch(`${api.baseUrl}/v1/annotate`, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    const body = (await response.json()) as AnnotateBody;
    // The config the prediction's contract names; nothing is embedded with it.
    expect(body.embedding_config_id).toBe(configId);
    expect(body.embedding_job_id).toBeNull();
    expect(body.links).toEqual({
      query_set: `/v1/query-sets/${body.query_set_id}`,
      prediction_job: `/v1/jobs/${body.prediction_job_id}`,
      embedding_job: null,
      prediction_set: `/v1/embeddings/resolve?query_set_id=${body.query_set_id}&embedding_config_id=${configId}`,
      dashboard: `/#/annotate/${body.prediction_job_id}`,
    });
    expect((await api.get<{ id: string }>(body.links.query_set)).body.id).toBe(body.query_set_id);

    const predictionJobId = body.prediction_job_id;
    const predictionJob = await waitForJobEnd<TestJob>(api, predictionJobId);
    expect(predictionJob.error_message).toBeNull();
    expect(predictionJob.status).toBe('SUCCEEDED');
    expect((await api.get<TestJob>(body.links.prediction_job)).body.id).toBe(predictionJobId);
    // The one-click job itself: predict_go_terms, queued through the annotate entry point, not a follow-up.
    const queued = await api.get<{
      operation: string;
      submitted_via: string;
      parent_job_id: string | null;
      payload: Record<string, unknown>;
      meta: Record<string, unknown>;
    }>(`/v1/jobs/${predictionJobId}`);
    expect(queued.body).toMatchObject({
      operation: 'predict_go_terms',
      submitted_via: 'annotate',
      parent_job_id: null,
      payload: {
        query_set_id: body.query_set_id,
        embedding_config_id: configId,
        annotation_set_id: annotationSetId,
        ontology_snapshot_id: snapshotId,
        exclude_self: false,
        // No reference installed: the donors the blend was calibrated with.
        donor_evidence: 'experimental',
      },
      meta: { annotate: { save_history: false } },
    });
    // No embedding work at all: neither in the job table nor in the jobs list.
    const embeddingJobs = await gateway.infra.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM job WHERE operation = 'compute_embeddings' AND payload->>'query_set_id' = $1`,
      [body.query_set_id],
    );
    expect(embeddingJobs[0]!.n).toBe(0);
    const listedEmbeddingJobs = await api.get<{ payload: Record<string, unknown> }[]>(
      '/v1/jobs?operation=compute_embeddings&include_children=true&limit=500',
    );
    expect(listedEmbeddingJobs.status).toBe(200);
    expect(listedEmbeddingJobs.body.filter((j) => j.payload['query_set_id'] === body.query_set_id)).toEqual(
      [],
    );

    const listed = await waitFor(
      async () => {
        const list = await api.get<{ id: string; job_id: string; prediction_count: number }[]>(
          '/v1/embeddings/prediction-sets',
        );
        return list.body.find((s) => s.job_id === predictionJobId);
      },
      { timeoutMs: 2000, intervalMs: 100, what: 'the new set in the cached list' },
    );

    // The answer's prediction job is the one that made the set.
    const resolved = await api.get<SetDetail>(body.links.prediction_set);
    expect(resolved.status).toBe(200);
    expect(resolved.body.job_id).toBe(predictionJobId);
    expect(listed.id).toBe(resolved.body.id);
    const detail = await api.get<SetDetail>(`/v1/embeddings/prediction-sets/${resolved.body.id}`);
    // The job's result names what it made, with the counts the set shows.
    expect(predictionJob.result).toEqual({
      prediction_set_id: resolved.body.id,
      queries: 1,
      batches: 1,
      prediction_count: detail.body.prediction_count,
      exclude_self: false,
      reference: body.reference,
      coverage: expect.objectContaining({ queries: 1, known: 1 }),
      warnings: body.warnings,
      warning_codes: body.warning_codes,
    });
    // The response named the reference before the run: the default annotation set, self-transfer on.
    expect(body.reference).toMatchObject({
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      search_backend: 'diamond',
      donor_evidence: 'experimental',
      blend_donor_evidence: 'experimental',
      self_transfer: true,
    });
    expect(body.warning_codes).toEqual(['small_reference']);
    expect(listed.prediction_count).toBe(detail.body.prediction_count);
    annotated = { body, predictionJob, predictionSetId: resolved.body.id };
  });

  it('annotate mode: a known reference uploaded under its UniProt header gets its own experimental annotations as known, score 1, apart from predictions', async () => {
    const detail = await api.get<SetDetail>(`/v1/embeddings/prediction-sets/${annotated.predictionSetId}`);
    expect(detail.body.exclude_self).toBe(false);
    const terms = await api.get<PredictedTerm[]>(
      `/v1/embeddings/prediction-sets/${annotated.predictionSetId}/proteins/${reference.accession}`,
    );
    expect(terms.status).toBe(200);
    const own = terms.body.filter((t) => t.ref_protein_accession === reference.accession);
    expect(own.map((t) => t.go_id).sort()).toEqual(expect.arrayContaining(reference.terms));
    for (const t of own) {
      expect(t.self_hit).toBe(true);
      // Known, not guessed: distance 0, score 1.
      expect({ go_id: t.go_id, distance: t.distance, score: t.score }).toEqual({
        go_id: t.go_id,
        distance: 0,
        score: 1,
      });
    }
    // Its other terms are predicted from other homologs (or the prior), never from itself.
    const predicted = terms.body.filter((t) => t.ref_protein_accession !== reference.accession);
    expect(predicted.every((t) => !t.self_hit && t.score < 1)).toBe(true);
    expect(predicted.filter((t) => own.some((o) => o.go_id === t.go_id))).toEqual([]);

    // The CAFA file scores them 1.0; the JSON marks them known with the recorded evidence code; the
    // GAF repeats that code under the known-annotation reference.
    const cafa = await api.get(
      `/v1/embeddings/prediction-sets/${annotated.predictionSetId}/predictions-cafa.tsv`,
    );
    const cafaScores = new Map(
      cafa.text
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .filter((c) => c[0] === reference.accession)
        .map((c) => [c[1]!, c[2]!]),
    );
    for (const goId of reference.terms) expect(cafaScores.get(goId)).toBe('1.000000');
    const json = await api.get<{
      proteins: {
        protein: string;
        basis: string;
        terms: { go_id: string; score: number; source: string; evidence_code: string | null }[];
      }[];
    }>(`/v1/embeddings/prediction-sets/${annotated.predictionSetId}/predictions.json`);
    const entry = json.body.proteins.find((p) => p.protein === reference.accession)!;
    expect(entry.basis).toBe('known');
    const knownIds = entry.terms.filter((t) => t.source === 'known').map((t) => t.go_id);
    expect(knownIds).toEqual(expect.arrayContaining(reference.terms));
    for (const t of entry.terms.filter((x) => x.source === 'known')) {
      expect(t.score).toBe(1);
      expect(EXPERIMENTAL).toContain(t.evidence_code);
    }
    const gaf = await api.get(`/v1/embeddings/prediction-sets/${annotated.predictionSetId}/predictions.gaf`);
    const knownLines = gaf.text
      .split('\n')
      .map((l) => l.split('\t'))
      .filter((c) => c[1] === reference.accession && c[5] === 'SVC_REF:0000003');
    expect(knownLines.map((c) => c[4]).sort()).toEqual([...knownIds].sort());
    for (const c of knownLines) {
      expect(EXPERIMENTAL).toContain(c[6]);
      expect(c[7]).toBe('');
    }
  });

  it('evaluation mode (exclude_self by default): the same protein predicted through /embeddings/predict gets none of its own', async () => {
    const job = await runJobToSuccess<TestJob>(api, '/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: annotated.body.query_set_id,
    });
    const resolved = await api.get<SetDetail>(
      `/v1/embeddings/resolve?query_set_id=${annotated.body.query_set_id}&embedding_config_id=${configId}`,
    );
    expect(resolved.body.job_id).toBe(job.id);
    expect(resolved.body.id).not.toBe(annotated.predictionSetId);
    expect(resolved.body.exclude_self).toBe(true);
    expect(job.result).toMatchObject({ prediction_set_id: resolved.body.id, exclude_self: true });
    const terms = await api.get<PredictedTerm[]>(
      `/v1/embeddings/prediction-sets/${resolved.body.id}/proteins/${reference.accession}`,
    );
    expect(terms.body.length).toBeGreaterThan(0);
    for (const t of terms.body) {
      expect(t.ref_protein_accession).not.toBe(reference.accession);
      expect(t.self_hit).toBe(false);
    }
  });
});
