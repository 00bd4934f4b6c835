import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import {
  calibrate,
  type GoAspect,
  GoGraph,
  md5Hex,
  parseGafLine,
  parseObo,
  termCalibration,
  termPriorOf,
} from '@svc/domain';
import { defaultBlendModel } from '@svc/go-transfer';
import { QuerySetRepository } from '@svc/persistence';
import {
  AppProcess,
  createSuiteWorld,
  embedProteinsWithKmer,
  HttpClient,
  mutated,
  runJobToSuccess,
  SHARED_DATA_DIR,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob,
  tinySequence,
  waitForJobEnd,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const EXPERIMENTAL = ['EXP', 'IDA', 'IPI', 'IMP', 'IGI', 'IEP', 'HTP', 'HDA', 'HMP', 'HGI', 'HEP'];
const OBO = join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo');

interface PredictedTerm {
  go_id: string;
  go_aspect: GoAspect;
  distance: number;
  ref_protein_accession: string | null;
  score: number;
}

/** A sequence with no homolog anywhere: residues drawn by a seeded generator. */
function unrelated(length: number, seed: number): string {
  const residues = 'ACDEFGHIKLMNPQRSTVWY';
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += residues[state % residues.length];
  }
  return out;
}

describe('the default prediction: DIAMOND homology blended with the term prior', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let setId: string;
  let annotationSetId: string;
  let snapshotId: string;
  let reference: { accession: string; terms: string[] };
  let graph: GoGraph;
  let configId: string;

  beforeAll(async () => {
    world = await createSuiteWorld('homology-default');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker'].map((name) => spawnApp(name, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    graph = new GoGraph(parseObo(readFileSync(OBO, 'utf8')));
    const snapshot = await runJobToSuccess<TestJob>(api, '/v1/annotations/snapshots/load', { obo_url: OBO });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const set = await runJobToSuccess<TestJob>(api, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshotId,
      gaf_url: join(WORKSPACE_ROOT, 'fixtures/tiny-t0.2022-09-12.gaf'),
      source_version: `tiny-t0-${randomUUID()}`,
    });
    annotationSetId = set.result!['annotation_set_id'] as string;
    configId = await embedProteinsWithKmer(api, join(SHARED_DATA_DIR, 'tiny/sequences.fasta'));
    const [top] = await gateway.infra.db.query<{ accession: string; terms: string[] }[]>(
      `SELECT a.protein_accession AS accession, array_agg(DISTINCT t.go_id ORDER BY t.go_id) AS terms
         FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id
        WHERE a.annotation_set_id = $1 AND NOT a.is_not AND t.aspect IS NOT NULL AND a.evidence_code = ANY($2::text[])
        GROUP BY a.protein_accession ORDER BY count(DISTINCT t.go_id) DESC, a.protein_accession LIMIT 1`,
      [annotationSetId, EXPERIMENTAL],
    );
    reference = top!;

    const fasta = [
      `>CLOSE_HOMOLOG`,
      mutated(tinySequence(reference.accession)),
      `>NO_HOMOLOG`,
      unrelated(260, 7),
    ].join('\n');
    const form = new FormData();
    form.append('name', 'homology default');
    form.append('file', new Blob([fasta], { type: 'text/plain' }), 'queries.fasta');
    const uploaded = await fetch(`${gateway.url}/v1/query-sets`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const querySet = (await uploaded.json()) as { id: string };

    // No search_backend, no flags: what a user gets by default.
    const job = await runJobToSuccess<TestJob>(api, '/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: querySet.id,
    });
    setId = job.result!['prediction_set_id'] as string;
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
  });

  it('a query set DIAMOND refuses (nucleotide sequences, stored before uploads refused them) fails with search_input_rejected', async () => {
    const cds = 'ATGGAGGAGCCGCAGTCAGATCCTAGCGTCGAGCCCCCTCTGAGTCAGGAAACATTTTCAGACC';
    const stored = (await new QuerySetRepository(gateway.infra.db).create({
      name: 'transcripts',
      description: null,
      entries: ['NM_1', 'NM_2'].map((accession, i) => ({
        accession,
        sequence: cds.slice(i * 3),
        hash: md5Hex(cds.slice(i * 3)),
        species: null,
        taxonomyId: null,
        geneName: null,
      })),
      ownership: { owner_user_id: null, visibility: 'public', expiresInDays: null },
    })) as { id: string };
    const queued = await api.post<{ id: string }>('/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: stored.id,
    });
    expect(queued.status).toBe(201);
    const job = await waitForJobEnd<TestJob>(api, queued.body.id);
    expect(job).toMatchObject({
      status: 'FAILED',
      error_code: 'search_input_rejected',
      error_message: expect.stringMatching(
        /DIAMOND refused the query sequences: they hold only nucleotide letters/,
      ),
    });
    // Written for whoever reads the job: no path of the worker's files, no sequence.
    expect(job.error_message).not.toMatch(/\/|ATGGAGGAG/);
  });

  const termsOf = async (accession: string): Promise<PredictedTerm[]> => {
    const res = await api.get<PredictedTerm[]>(
      `/v1/embeddings/prediction-sets/${setId}/proteins/${accession}`,
    );
    expect(res.status).toBe(200);
    return res.body;
  };

  it('records the DIAMOND backend, experimental donors and the blend model on the set', async () => {
    const detail = await api.get<Record<string, unknown>>(`/v1/embeddings/prediction-sets/${setId}`);
    expect(detail.body).toMatchObject({ search_backend: 'diamond' });
    const [row] = await gateway.infra.db.query<{ options: Record<string, unknown> }[]>(
      `SELECT options FROM prediction_set WHERE id = $1`,
      [setId],
    );
    expect(row!.options).toMatchObject({
      donor_evidence: 'experimental',
      compute_alignments: false,
      blend_model: 'homology-blend-v3',
    });
  });

  it('every answer says what backs it: the reference, the coverage, and per protein homology or the prior alone', async () => {
    const [donors] = await gateway.infra.db.query<{ total: number; f: number; p: number; c: number }[]>(
      `SELECT count(DISTINCT a.protein_accession)::int AS total,
              count(DISTINCT a.protein_accession) FILTER (WHERE a.aspect = 'F')::int AS f,
              count(DISTINCT a.protein_accession) FILTER (WHERE a.aspect = 'P')::int AS p,
              count(DISTINCT a.protein_accession) FILTER (WHERE a.aspect = 'C')::int AS c
         FROM protein_go_annotation a JOIN protein p ON p.accession = a.protein_accession
        WHERE a.annotation_set_id = $1 AND NOT a.is_not AND a.evidence_code = ANY($2::text[]) AND p.sequence_id IS NOT NULL`,
      [annotationSetId, EXPERIMENTAL],
    );
    const reference = {
      ontology_snapshot_id: snapshotId,
      ontology_version: 'releases/2022-07-01/tiny-subset',
      annotation_set_id: annotationSetId,
      donor_evidence: 'experimental',
      donor_proteins: donors!.total,
      donor_proteins_per_aspect: { F: donors!.f, P: donors!.p, C: donors!.c },
      donor_species: [{ taxon: 'taxon:9606', proteins: donors!.total }],
      search_backend: 'diamond',
      blend_version: defaultBlendModel().version,
      blend_donor_evidence: 'experimental',
      self_transfer: false,
    };
    const coverage = {
      queries: 2,
      with_homolog: 1,
      without_homolog: 1,
      without_homolog_share: 0.5,
      known: 0,
    };
    const detail = await api.get<Record<string, unknown>>(`/v1/embeddings/prediction-sets/${setId}`);
    expect(detail.body).toMatchObject({ reference, coverage });
    // A tiny reference is named as such, in plain words.
    expect(detail.body['warnings']).toEqual([
      expect.stringMatching(/^The reference is small: \d+ donor proteins/),
    ]);
    // The donors are those the blend was calibrated with: no donor-policy warning.
    expect(detail.body['warning_codes']).toEqual(['small_reference']);
    const job = await api.get<{ result: Record<string, unknown> }>(
      `/v1/jobs/${String(detail.body['job_id'])}`,
    );
    expect(job.body.result).toMatchObject({
      reference,
      coverage,
      warnings: detail.body['warnings'],
      warning_codes: ['small_reference'],
    });
    const events = await api.get<{ event: string; fields: Record<string, unknown> }[]>(
      `/v1/jobs/${String(detail.body['job_id'])}/events`,
    );
    expect(events.body.find((e) => e.event === 'predict_go_terms.coverage')?.fields).toEqual(coverage);

    const proteins = await api.get<{ items: Record<string, unknown>[] }>(
      `/v1/embeddings/prediction-sets/${setId}/proteins`,
    );
    const byAccession = new Map(proteins.body.items.map((p) => [p['protein_accession'], p]));
    expect(byAccession.get('NO_HOMOLOG')).toMatchObject({ homologs: 0, best_identity: null, basis: 'prior' });
    const close = byAccession.get('CLOSE_HOMOLOG')!;
    expect(close).toMatchObject({ basis: 'homology' });
    expect(close['homologs']).toBeGreaterThanOrEqual(1);
    expect(close['best_identity']).toBeGreaterThan(0.9);

    // Every export names it: a comment line after the TSV's header, GAF header lines, a JSON object.
    const tsv = await api.get(`/v1/embeddings/prediction-sets/${setId}/predictions.tsv`);
    const [header, comment] = tsv.text.split('\n');
    expect(header!.split('\t')[0]).toBe('protein_accession');
    expect(comment).toMatch(
      /^# go-version: releases\/2022-07-01\/tiny-subset; reference-annotations: goa tiny-t0-/,
    );
    expect(comment).toContain(
      `reference-donors: ${donors!.total} proteins (F ${donors!.f}, P ${donors!.p}, C ${donors!.c})`,
    );
    expect(comment).toContain('search-backend: diamond');
    expect(comment).toContain(
      'blend-calibration: fitted transferring annotations of experimental evidence codes only',
    );
    expect(comment).toMatch(/; warnings: small_reference$/);
    expect(comment).toContain(
      'coverage: 1 of 2 proteins with a homolog, 1 on the prior alone, 0 with known terms',
    );
    const gaf = await api.get(`/v1/embeddings/prediction-sets/${setId}/predictions.gaf`);
    expect(gaf.text).toContain('!go-version: releases/2022-07-01/tiny-subset\n');
    expect(gaf.text).toContain(`!blend-version: ${defaultBlendModel().version}\n`);
    expect(gaf.text).toContain('!warnings: small_reference\n');
    const json = await api.get<Record<string, unknown>>(
      `/v1/embeddings/prediction-sets/${setId}/predictions.json`,
    );
    expect(json.body).toMatchObject({
      prediction_set_id: setId,
      reference,
      coverage,
      warnings: detail.body['warnings'],
      warning_codes: ['small_reference'],
      min_score: 0,
    });
    const entries = json.body['proteins'] as Record<string, unknown>[];
    expect(entries.find((e) => e['protein'] === 'NO_HOMOLOG')).toMatchObject({ homologs: 0, basis: 'prior' });
    expect(entries.find((e) => e['protein'] === 'CLOSE_HOMOLOG')).toMatchObject({ basis: 'homology' });
  });

  it('the term distribution can leave out prior-only rows and rows under a score, and says which terms remain', async () => {
    type Distribution = {
      terms: Record<string, { go_id: string; protein_count: number }[]>;
      totals: Record<string, { predictions: number; proteins: number }>;
    };
    const base = `/v1/embeddings/prediction-sets/${setId}/go-terms?limit=1000`;
    const every = (await api.get<Distribution>(base)).body;
    const backed = (await api.get<Distribution>(`${base}&basis=homology`)).body;
    // Every row of NO_HOMOLOG rests on the prior: with it, every aspect counts both proteins; without, one.
    for (const aspect of ['F', 'P', 'C']) {
      expect(every.totals[aspect]?.proteins).toBe(2);
      expect(backed.totals[aspect]?.proteins ?? 0).toBeLessThanOrEqual(1);
      for (const term of backed.terms[aspect] ?? []) expect(term.protein_count).toBe(1);
    }
    const predictions = (d: Distribution) => Object.values(d.totals).reduce((n, t) => n + t.predictions, 0);
    const high = (await api.get<Distribution>(`${base}&basis=homology&min_score=0.5`)).body;
    expect(predictions(high)).toBeLessThan(predictions(backed));
    expect(predictions(backed)).toBeLessThan(predictions(every));
    expect((await api.get(`${base}&basis=prior`)).status).toBe(422);
    expect((await api.get(`${base}&min_score=1.5`)).status).toBe(422);
  });

  /**
   * The reference protein with the most experimental molecular functions and no process (LK for BP),
   * with its experimental terms.
   */
  const lkProtein = async (): Promise<{ accession: string; terms: string[] } | undefined> => {
    const [lk] = await gateway.infra.db.query<{ accession: string; terms: string[] }[]>(
      `SELECT a.protein_accession AS accession, array_agg(DISTINCT t.go_id ORDER BY t.go_id) AS terms
         FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id
        WHERE a.annotation_set_id = $1 AND NOT a.is_not AND a.evidence_code = ANY($2::text[])
        GROUP BY a.protein_accession
       HAVING bool_or(t.aspect = 'F') AND NOT bool_or(t.aspect = 'P')
        ORDER BY count(*) FILTER (WHERE t.aspect = 'F') DESC, a.protein_accession LIMIT 1`,
      [annotationSetId, EXPERIMENTAL],
    );
    return lk;
  };

  it('what the reference knows of a query informs its prior: a protein known only by its functions gets the processes of proteins with those functions (LK)', async () => {
    // A reference protein with experimental molecular functions and no process: LK for BP.
    const lk = await lkProtein();
    expect(lk).toBeDefined();
    // The same sequence, found by nothing, under the known accession and under an unknown one: only
    // what is known of the first tells them apart.
    const sequence = unrelated(260, 11);
    const form = new FormData();
    form.append('name', 'known by its functions');
    form.append(
      'file',
      new Blob([`>${lk!.accession}\n${sequence}\n>UNKNOWN_ONE\n${sequence}\n`], { type: 'text/plain' }),
      'queries.fasta',
    );
    const uploaded = await fetch(`${gateway.url}/v1/query-sets`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const job = await runJobToSuccess<TestJob>(api, '/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: ((await uploaded.json()) as { id: string }).id,
    });
    const rows = async (accession: string) =>
      new Map(
        (
          await gateway.infra.db.query<{ go_id: string; score: number; features: Record<string, unknown> }[]>(
            `SELECT go_id, 1 - distance::float8 AS score, features FROM prediction_row
              WHERE prediction_set_id = $1 AND protein_accession = $2 AND aspect = 'P'`,
            [job.result!['prediction_set_id'], accession],
          )
        ).map((r) => [r.go_id, r]),
      );
    const known = await rows(lk!.accession);
    const unknown = await rows('UNKNOWN_ONE');
    // The unknown query rests on the plain prior; the known one names the association it used.
    expect([...unknown.values()].some((r) => 'association' in r.features)).toBe(false);
    const associated = [...known.values()].filter((r) => typeof r.features['association'] === 'number');
    expect(associated.length).toBeGreaterThan(0);
    // Where the proteins sharing its functions carry a process more often than all proteins do, it
    // scores at least as high as for the unknown query, and some strictly higher.
    const raised = associated.filter(
      (r) => (r.features['association'] as number) > (r.features['prior'] as number),
    );
    expect(raised.length).toBeGreaterThan(0);
    for (const r of raised) expect(r.score).toBeGreaterThanOrEqual((unknown.get(r.go_id)?.score ?? 0) - 1e-6);
    expect(raised.some((r) => r.score > (unknown.get(r.go_id)?.score ?? 0) + 1e-6)).toBe(true);
    // The plain prior behind both is the same.
    for (const r of associated)
      if (unknown.has(r.go_id))
        expect(r.features['prior']).toBeCloseTo(unknown.get(r.go_id)!.features['prior'] as number, 9);
  });

  it("known terms listed at upload (GO=) inform a new protein as a reference protein's own do, and come back as submitted, never predicted", async () => {
    // The molecular functions of a reference protein known only by them (LK for BP), given for a new
    // protein the reference has never seen, beside an unknown id and an alternate-free obsolete-free
    // id the snapshot does not hold.
    const lk = await lkProtein();
    const functions = lk!.terms.filter((id) => graph.aspect(id) === 'F');
    expect(functions.length).toBeGreaterThan(0);
    const sequence = unrelated(260, 13);
    const upload = async (fasta: string) => {
      const form = new FormData();
      form.append('name', 'known terms at upload');
      form.append('file', new Blob([fasta], { type: 'text/plain' }), 'queries.fasta');
      return fetch(`${gateway.url}/v1/query-sets`, { method: 'POST', body: form });
    };
    // A malformed list is refused as a whole, naming its line; nothing is stored.
    const refused = await upload(`>A\n${sequence}\n>B GO=GO:0005634,nucleus\n${sequence}\n`);
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(await refused.json())).toContain('line 3: GO= holds 1 item(s) that are not GO ids');

    // A live function that no reference protein carries, nor any of its ancestors but the root: a
    // list of it alone matches no protein and leaves the prior as it was, which the batch counts.
    const carried = new Set(
      (
        await gateway.infra.db.query<{ go_id: string }[]>(
          `SELECT DISTINCT t.go_id FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id
            WHERE a.annotation_set_id = $1 AND NOT a.is_not AND a.evidence_code = ANY($2::text[])`,
          [annotationSetId, EXPERIMENTAL],
        )
      ).flatMap((r) => [r.go_id, ...graph.ancestors(r.go_id)]),
    );
    const lonely = parseObo(readFileSync(OBO, 'utf8'))
      .terms.map((t) => t.id)
      .find(
        (id) =>
          graph.aspect(id) === 'F' &&
          !graph.isObsolete(id) &&
          graph.ancestors(id).length > 0 &&
          [id, ...graph.ancestors(id)].every((a) => !carried.has(a) || graph.ancestors(a).length === 0),
      );
    expect(lonely).toBeDefined();
    const uploaded = await upload(
      `>NEW_ONE OS=Homo sapiens GO=${[...functions, 'GO:9999999'].join(',')}\n${sequence}\n>NEW_TWO\n${sequence}\n` +
        `>NEW_THREE GO=${lonely!}\n${sequence}\n`,
    );
    expect(uploaded.status).toBe(201);
    const querySet = (await uploaded.json()) as { id: string; entries_with_known_terms: number };
    expect(querySet.entries_with_known_terms).toBe(2);
    const detail = await api.get<{ entries: { accession: string; known_go_ids: string[] | null }[] }>(
      `/v1/query-sets/${querySet.id}`,
    );
    expect(detail.body.entries.map((e) => [e.accession, e.known_go_ids])).toEqual([
      ['NEW_ONE', [...functions, 'GO:9999999']],
      ['NEW_TWO', null],
      ['NEW_THREE', [lonely]],
    ]);
    const job = await runJobToSuccess<TestJob>(api, '/v1/embeddings/predict', {
      embedding_config_id: configId,
      annotation_set_id: annotationSetId,
      ontology_snapshot_id: snapshotId,
      query_set_id: querySet.id,
    });
    const predictionSetId = job.result!['prediction_set_id'] as string;
    const rows = async (accession: string, aspect: GoAspect) =>
      new Map(
        (
          await gateway.infra.db.query<
            { go_id: string; score: number; ref: string | null; features: Record<string, unknown> }[]
          >(
            `SELECT go_id, 1 - distance::float8 AS score, ref_protein_accession AS ref, features FROM prediction_row
              WHERE prediction_set_id = $1 AND protein_accession = $2 AND aspect = $3`,
            [predictionSetId, accession, aspect],
          )
        ).map((r) => [r.go_id, r]),
      );

    // BP: the functions match it to proteins with those functions, whose processes its prior takes up.
    const given = await rows('NEW_ONE', 'P');
    const plain = await rows('NEW_TWO', 'P');
    expect([...plain.values()].some((r) => 'association' in r.features)).toBe(false);
    const raised = [...given.values()].filter((r) => {
      const association = r.features['association'];
      return typeof association === 'number' && association > (r.features['prior'] as number);
    });
    expect(raised.length).toBeGreaterThan(0);
    for (const r of raised) expect(r.score).toBeGreaterThanOrEqual((plain.get(r.go_id)?.score ?? 0) - 1e-6);
    expect(raised.some((r) => r.score > (plain.get(r.go_id)?.score ?? 0) + 1e-6)).toBe(true);

    // MF: each listed function and every ancestor it implies is submitted (score 1, no donor), once, and
    // never also predicted; the unknown id is no row.
    const implied = new Set(
      functions
        .flatMap((id) => [id, ...graph.ancestors(id)])
        .filter((id) => graph.aspect(id) === 'F' && graph.ancestors(id).length > 0),
    );
    const mf = await rows('NEW_ONE', 'F');
    const submitted = [...mf.values()].filter((r) => r.features['source'] === 'submitted');
    expect(new Set(submitted.map((r) => r.go_id))).toEqual(implied);
    for (const r of submitted) {
      expect(r.score).toBe(1);
      expect(r.ref).toBeNull();
      expect(r.features['via_descendant'] === true).toBe(!functions.includes(r.go_id));
    }
    const counted = await gateway.infra.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM prediction_row WHERE prediction_set_id = $1 AND protein_accession = 'NEW_ONE'
          AND go_id = ANY($2::text[])`,
      [predictionSetId, [...implied, 'GO:9999999']],
    );
    expect(counted[0]!.n).toBe(implied.size);
    expect((await rows('NEW_TWO', 'F')).size).toBeGreaterThan(0);
    expect([...(await rows('NEW_TWO', 'F')).values()].some((r) => r.features['source'] === 'submitted')).toBe(
      false,
    );

    // NEW_THREE's list is reported as submitted, and its processes are NEW_TWO's: nothing matched.
    expect(
      [...(await rows('NEW_THREE', 'F')).values()].some(
        (r) => r.go_id === lonely && r.features['source'] === 'submitted',
      ),
    ).toBe(true);
    expect([...(await rows('NEW_THREE', 'P')).values()].some((r) => 'association' in r.features)).toBe(false);

    // The batch says how many ids it was given and which it could not place, never a silent drop.
    const events = await api.get<{ event: string; fields: Record<string, unknown> }[]>(
      `/v1/jobs/${job.id}/events?limit=2000`,
    );
    const done = events.body.filter((e) => e.event === 'predict_go_terms_batch.done');
    expect(done.map((e) => e.fields['submitted_known'])).toEqual([
      {
        queries: 2,
        ids: functions.length + 2,
        unknown_ids: 1,
        unknown_sample: ['GO:9999999'],
        queries_unmatched: 1,
      },
    ]);

    // Downloads: submitted terms are in the JSON as such, and in neither the CAFA file nor the GAF.
    const download = async (file: string) => {
      const res = await api.get<string>(`/v1/embeddings/prediction-sets/${predictionSetId}/${file}`);
      expect(res.status).toBe(200);
      return res.text;
    };
    const cafa = (await download('predictions-cafa.tsv'))
      .split('\n')
      .filter((l) => l.startsWith('NEW_ONE\t'));
    for (const id of implied) expect(cafa.some((l) => l.split('\t')[1] === id)).toBe(false);
    const gaf = (await download('predictions.gaf')).split('\n').filter((l) => l.includes('\tNEW_ONE\t'));
    expect(gaf.length).toBeGreaterThan(0);
    for (const id of implied) expect(gaf.some((l) => l.split('\t')[4] === id)).toBe(false);
    const json = JSON.parse(await download('predictions.json')) as {
      proteins: {
        protein: string;
        terms: { go_id: string; source: string; score: number; donor: string | null }[];
      }[];
    };
    const newOne = json.proteins.find((p) => p.protein === 'NEW_ONE')!;
    expect(new Set(newOne.terms.filter((t) => t.source === 'submitted').map((t) => t.go_id))).toEqual(
      implied,
    );
  });

  it('a query with no homolog gets the prior: every term at its (calibrated) frequency among the reference proteins of its aspect', async () => {
    // The prior, computed here from the stored annotations and the OBO file.
    const annotations = await gateway.infra.db.query<{ accession: string; go_id: string }[]>(
      `SELECT a.protein_accession AS accession, t.go_id FROM protein_go_annotation a
         JOIN go_term t ON t.id = a.go_term_id JOIN protein p ON p.accession = a.protein_accession
        WHERE a.annotation_set_id = $1 AND NOT a.is_not AND a.evidence_code = ANY($2::text[]) AND p.sequence_id IS NOT NULL`,
      [annotationSetId, EXPERIMENTAL],
    );
    const byAspect: Record<GoAspect, Map<string, Set<string>>> = { F: new Map(), P: new Map(), C: new Map() };
    for (const { accession, go_id } of annotations) {
      const aspect = graph.aspect(go_id)!;
      for (const id of [go_id, ...graph.ancestors(go_id)]) {
        if (graph.aspect(id) !== aspect || graph.ancestors(id).length === 0) continue;
        let terms = byAspect[aspect].get(accession);
        if (terms === undefined) byAspect[aspect].set(accession, (terms = new Set()));
        terms.add(id);
      }
    }
    // Frequency among the proteins annotated in the aspect, through the shipped calibration (the map
    // of the term's band of specificity where the aspect has one per band); a term never below a
    // descendant that is emitted.
    const model = defaultBlendModel();
    const expected = new Map<string, number>();
    for (const aspect of ['F', 'P', 'C'] as const) {
      const counts = new Map<string, number>();
      for (const terms of byAspect[aspect].values())
        for (const id of terms) counts.set(id, (counts.get(id) ?? 0) + 1);
      const prior = termPriorOf(counts, byAspect[aspect].size);
      const mapOf = termCalibration(model.aspects[aspect], prior);
      const own = new Map<string, number>();
      for (const [goId, count] of counts)
        own.set(goId, calibrate(mapOf(goId), count / byAspect[aspect].size));
      const final = new Map<string, number>();
      for (const [goId, score] of own) {
        if (score < model.min_score) continue;
        for (const id of [goId, ...graph.ancestors(goId)])
          if (own.has(id)) final.set(id, Math.max(final.get(id) ?? own.get(id)!, score));
      }
      for (const [goId, score] of final) expected.set(goId, score);
    }

    const terms = await termsOf('NO_HOMOLOG');
    expect(terms.length).toBe(expected.size);
    for (const term of terms) {
      expect(term.ref_protein_accession).toBeNull();
      expect(term.score).toBeCloseTo(expected.get(term.go_id)!, 5);
    }
    // Best first: the most frequent term of the pool leads.
    const best = Math.max(...expected.values());
    expect(terms[0]!.score).toBeCloseTo(best, 5);
  });

  it('a query with a close homolog gets the homolog’s terms, from it, above every prior-only term', async () => {
    const terms = await termsOf('CLOSE_HOMOLOG');
    const priorOnly = terms.filter((t) => t.ref_protein_accession === null);
    const ceiling = Math.max(0, ...priorOnly.map((t) => t.score));
    for (const goId of reference.terms) {
      const term = terms.find((t) => t.go_id === goId);
      expect(term).toBeDefined();
      expect(term!.ref_protein_accession).toBe(reference.accession);
      expect(term!.score).toBeGreaterThan(ceiling);
      // The row carries its score in its distance (the blend's distance, 1 - score).
      expect(term!.distance).toBeCloseTo(1 - term!.score, 6);
    }
    expect(terms[0]!.ref_protein_accession).toBe(reference.accession);
  });

  it('every export carries the same score, and a parent never scores below its child', async () => {
    const cafa = await api.get(`/v1/embeddings/prediction-sets/${setId}/predictions-cafa.tsv`);
    expect(cafa.status).toBe(200);
    const scores = new Map<string, number>();
    for (const line of cafa.text.trim().split('\n')) {
      const [protein, goId, score] = line.split('\t');
      scores.set(`${protein} ${goId}`, Number(score));
    }
    for (const accession of ['CLOSE_HOMOLOG', 'NO_HOMOLOG']) {
      for (const term of await termsOf(accession)) {
        const exported = scores.get(`${accession} ${term.go_id}`);
        expect(exported).toBeCloseTo(term.score, 5);
        for (const parent of graph
          .parents(term.go_id)
          .filter((p) => p.relation === 'is_a' || p.relation === 'part_of')) {
          const parentScore = scores.get(`${accession} ${parent.id}`);
          if (parentScore !== undefined) expect(parentScore).toBeGreaterThanOrEqual(exported! - 1e-6);
          else if (graph.aspect(parent.id) === term.go_aspect && graph.ancestors(parent.id).length > 0) {
            throw new Error(`${accession}: ${term.go_id} is predicted without its parent ${parent.id}`);
          }
        }
      }
    }
  });

  it('GAF 2.2 and JSON downloads: the same terms and scores, cut at min_score, best first, read back by the GAF parser and loaded back by the GAF loader', async () => {
    const detail = new Map<string, PredictedTerm[]>();
    for (const accession of ['CLOSE_HOMOLOG', 'NO_HOMOLOG']) detail.set(accession, await termsOf(accession));
    const minScore = 0.05;

    const gaf = await api.get(
      `/v1/embeddings/prediction-sets/${setId}/predictions.gaf?min_score=${minScore}`,
    );
    expect(gaf.status).toBe(200);
    const lines = gaf.text.trim().split('\n');
    expect(parseGafLine(lines[0]!, 1)).toEqual({ kind: 'header', key: 'gaf-version', value: '2.2' });
    const records = lines
      .map((line, i) => parseGafLine(line, i + 1))
      .filter((l) => l.kind !== 'header' && l.kind !== 'comment');
    for (const record of records) expect(record.kind).toBe('record');
    const gafTerms = records.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
    for (const [accession, terms] of detail) {
      const kept = terms.filter((t) => t.score >= minScore);
      const mine = gafTerms.filter((r) => r.dbObjectId === accession);
      expect(mine.map((r) => r.goId).sort()).toEqual(kept.map((t) => t.go_id).sort());
      for (const r of mine) {
        const term = kept.find((t) => t.go_id === r.goId)!;
        expect(r.evidenceCode).toBe('IEA');
        expect(r.aspect).toBe(term.go_aspect);
        expect(r.withFrom).toBe(
          term.ref_protein_accession === null ? null : `UniProtKB:${term.ref_protein_accession}`,
        );
      }
    }

    // The service's own loader takes the file back: every line becomes an annotation.
    const file = join(mkdtempSync(join(tmpdir(), 'svc-gaf-')), 'predictions.gaf');
    writeFileSync(file, gaf.text);
    const loaded = await runJobToSuccess<TestJob>(api, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshotId,
      gaf_url: file,
      source_version: `predicted-${randomUUID()}`,
    });
    const [count] = await gateway.infra.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM protein_go_annotation WHERE annotation_set_id = $1`,
      [loaded.result!['annotation_set_id']],
    );
    expect(count!.n).toBe(gafTerms.length);

    const json = await api.get<{
      proteins: { protein: string; terms: { go_id: string; score: number; donor: string | null }[] }[];
    }>(`/v1/embeddings/prediction-sets/${setId}/predictions.json?min_score=${minScore}`);
    expect(json.status).toBe(200);
    expect(json.body.proteins.map((p) => p.protein).sort()).toEqual(['CLOSE_HOMOLOG', 'NO_HOMOLOG']);
    for (const entry of json.body.proteins) {
      const kept = detail.get(entry.protein)!.filter((t) => t.score >= minScore);
      expect(entry.terms).toHaveLength(kept.length);
      const scores = entry.terms.map((t) => t.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      for (const t of entry.terms) {
        const term = kept.find((k) => k.go_id === t.go_id)!;
        expect(t.score).toBeCloseTo(term.score, 5);
        expect(t.donor).toBe(term.ref_protein_accession);
      }
    }
    expect(
      (await api.get(`/v1/embeddings/prediction-sets/${setId}/predictions.json?min_score=2`)).status,
    ).toBe(422);
  });

  it('the ZIP holds every format, each entry the same text as its own download at the same threshold', async () => {
    const zip = await fetch(
      `${gateway.url}/v1/embeddings/prediction-sets/${setId}/predictions.zip?min_score=0.05`,
    );
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toContain('application/zip');
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual([
      'predictions-cafa.tsv',
      'predictions.gaf',
      'predictions.json',
      'predictions.tsv',
    ]);
    // The threshold cuts every entry, as it cuts each file downloaded alone.
    for (const [name, path] of [
      ['predictions.tsv', 'predictions.tsv?min_score=0.05'],
      ['predictions-cafa.tsv', 'predictions-cafa.tsv?min_score=0.05'],
      ['predictions.gaf', 'predictions.gaf?min_score=0.05'],
      ['predictions.json', 'predictions.json?min_score=0.05'],
    ] as const) {
      const single = await api.get(`/v1/embeddings/prediction-sets/${setId}/${path}`);
      expect({ name, text: strFromU8(entries[name]!) }).toEqual({ name, text: single.text });
    }
  });
});
