import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppProcess,
  createSuiteWorld,
  HttpClient,
  mutated,
  runJobToSuccess,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob,
  tinySequence,
  waitForJobEnd,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { blendModelFor, defaultBlendModel } from '@svc/go-transfer';
import { createGateway, Gateway } from '../app.factory';

/** Two reference proteins of the tiny holdout, each with one annotation of its own. */
const IEA_DONOR = 'O15297';
const EXP_DONOR = 'O43548';
/** glycoside catabolic process (P): the IEA donor's only term. */
const IEA_TERM = 'GO:0016139';
/** protein binding (F): the EXP donor's only term. */
const EXP_TERM = 'GO:0005515';

interface AnnotateBody {
  query_set_id: string;
  prediction_job_id: string;
  reference: { donor_evidence: string; blend_donor_evidence: string | null };
  warnings: string[];
  warning_codes: string[];
}

interface Problem {
  type: string;
  status: number;
  errors?: { path: string; message: string }[];
}

const QUERIES = [
  `>IEA_HOMOLOG`,
  mutated(tinySequence(IEA_DONOR)),
  `>EXP_HOMOLOG`,
  mutated(tinySequence(EXP_DONOR)),
  '',
].join('\n');

function gafLine(accession: string, goId: string, evidence: string, aspect: string): string {
  const reference = evidence === 'IEA' ? 'GO_REF:0000002' : 'PMID:1';
  return [
    'UniProtKB',
    accession,
    accession,
    '',
    goId,
    reference,
    evidence,
    '',
    aspect,
    '',
    '',
    'protein',
    'taxon:9606',
    '20220912',
    'UniProt',
    '',
    '',
  ].join('\t');
}

describe('one-click annotation: which annotations donate (donor_evidence)', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let api: HttpClient;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-donors-'));
    world = await createSuiteWorld('annotate-donors');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    // No embedding worker: a one-click run embeds nothing.
    workers = await Promise.all(
      ['ingestion-worker', 'prediction-worker'].map((name) => spawnApp(name, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const snapshot = await runJobToSuccess<TestJob>(api, '/v1/annotations/snapshots/load', {
      obo_url: join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    const fasta = join(dir, 'donors.fasta');
    writeFileSync(
      fasta,
      [IEA_DONOR, EXP_DONOR].map((accession) => `>${accession}\n${tinySequence(accession)}\n`).join(''),
    );
    await runJobToSuccess<TestJob>(api, '/v1/proteins/insert', { source_url: fasta });
    // One donor whose only annotation is electronic (IEA), one whose only annotation is experimental.
    const gaf = join(dir, 'donors.gaf');
    writeFileSync(
      gaf,
      [
        '!gaf-version: 2.1',
        gafLine(IEA_DONOR, IEA_TERM, 'IEA', 'P'),
        gafLine(EXP_DONOR, EXP_TERM, 'EXP', 'F'),
        '',
      ].join('\n'),
    );
    await runJobToSuccess<TestJob>(api, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshot.result!['ontology_snapshot_id'],
      gaf_url: gaf,
      source_version: `donors-${randomUUID()}`,
    });
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** POSTs the queries to /v1/annotate with the given donor_evidence field (omitted when undefined). */
  async function annotate(donorEvidence: string | undefined): Promise<Response> {
    const form = new FormData();
    form.set('name', `donors ${donorEvidence ?? 'default'}`);
    if (donorEvidence !== undefined) form.set('donor_evidence', donorEvidence);
    form.set('file', new Blob([QUERIES], { type: 'text/plain' }), 'queries.fasta');
    return fetch(`${api.baseUrl}/v1/annotate`, { method: 'POST', body: form });
  }

  /** Runs one annotation to its prediction set; returns the answer, the set and each query's terms by donor. */
  async function annotated(donorEvidence: string | undefined) {
    const response = await annotate(donorEvidence);
    expect(response.status).toBe(201);
    const body = (await response.json()) as AnnotateBody;
    const job = await waitForJobEnd<TestJob>(api, body.prediction_job_id);
    expect({ status: job.status, error: job.error_message }).toEqual({ status: 'SUCCEEDED', error: null });
    const setId = job.result!['prediction_set_id'] as string;
    const termsOf = async (accession: string) =>
      (
        await api.get<{ go_id: string; ref_protein_accession: string | null }[]>(
          `/v1/embeddings/prediction-sets/${setId}/proteins/${accession}`,
        )
      ).body;
    return { body, job, setId, iea: await termsOf('IEA_HOMOLOG'), exp: await termsOf('EXP_HOMOLOG') };
  }

  it("donor_evidence=all: the IEA-only donor's term is transferred to its homolog, scored by the blend fitted for every evidence code, which the answer, the set and its exports name; no donor-policy warning", async () => {
    const run = await annotated('all');
    expect(run.iea).toContainEqual(
      expect.objectContaining({ go_id: IEA_TERM, ref_protein_accession: IEA_DONOR }),
    );
    expect(run.exp).toContainEqual(
      expect.objectContaining({ go_id: EXP_TERM, ref_protein_accession: EXP_DONOR }),
    );
    // The policy reaches the job and the reference the answer names before the run.
    const queued = await api.get<{ payload: Record<string, unknown> }>(
      `/v1/jobs/${run.body.prediction_job_id}`,
    );
    expect(queued.body.payload['donor_evidence']).toBe('all');
    const allBlend = blendModelFor('all');
    expect(allBlend.version).not.toBe(defaultBlendModel().version);
    const named = { donor_evidence: 'all', blend_donor_evidence: 'all', blend_version: allBlend.version };
    expect(run.body.reference).toMatchObject(named);
    expect(run.body.warning_codes).not.toContain('donor_policy_differs_from_calibration');
    // The job's result, the set's detail and its downloads name the same blend.
    expect(run.job.result).toMatchObject({ reference: run.body.reference });
    expect(run.job.result!['warning_codes']).not.toContain('donor_policy_differs_from_calibration');
    const detail = await api.get<{
      reference: Record<string, unknown>;
      warning_codes: string[];
      options: Record<string, unknown>;
    }>(`/v1/embeddings/prediction-sets/${run.setId}`);
    expect(detail.body.reference).toMatchObject(named);
    expect(detail.body.warning_codes).not.toContain('donor_policy_differs_from_calibration');
    expect(detail.body.options['blend_model']).toBe(allBlend.version);
    const gaf = await api.get(`/v1/embeddings/prediction-sets/${run.setId}/predictions.gaf`);
    expect(gaf.text).toContain(`!blend-version: ${allBlend.version}\n`);
    expect(gaf.text).toContain(
      '!blend-calibration: fitted transferring annotations of every evidence code, electronic (IEA) included\n',
    );
    expect(gaf.text).not.toMatch(/^!warnings: .*donor_policy_differs_from_calibration/m);
    const json = await api.get<{ warning_codes: string[]; reference: Record<string, unknown> }>(
      `/v1/embeddings/prediction-sets/${run.setId}/predictions.json`,
    );
    expect(json.body.reference).toMatchObject(named);
    expect(json.body.warning_codes).not.toContain('donor_policy_differs_from_calibration');
  });

  it("by default (no reference installed: experimental) and with donor_evidence=experimental the IEA-only donor's term is not transferred; the EXP donor's is; no donor-policy warning", async () => {
    for (const donorEvidence of [undefined, 'experimental']) {
      const run = await annotated(donorEvidence);
      expect(run.iea.map((t) => t.go_id)).not.toContain(IEA_TERM);
      expect(run.iea.map((t) => t.ref_protein_accession)).not.toContain(IEA_DONOR);
      expect(run.exp).toContainEqual(
        expect.objectContaining({ go_id: EXP_TERM, ref_protein_accession: EXP_DONOR }),
      );
      const queued = await api.get<{ payload: Record<string, unknown> }>(
        `/v1/jobs/${run.body.prediction_job_id}`,
      );
      expect(queued.body.payload['donor_evidence']).toBe('experimental');
      expect(run.body.reference).toMatchObject({
        donor_evidence: 'experimental',
        blend_donor_evidence: 'experimental',
      });
      expect(run.body.warning_codes).not.toContain('donor_policy_differs_from_calibration');
      expect(run.job.result!['warning_codes']).not.toContain('donor_policy_differs_from_calibration');
    }
  });

  it('any other donor_evidence is a 422 problem naming the field; nothing is stored', async () => {
    const sets = async () => (await api.get<unknown[]>('/v1/query-sets')).body.length;
    const jobs = async () =>
      (await gateway.infra.db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM job`))[0]!.n;
    const [setsBefore, jobsBefore] = [await sets(), await jobs()];
    for (const bad of ['IEA', 'ALL', 'experimental,all']) {
      const response = await annotate(bad);
      expect({ bad, status: response.status }).toEqual({ bad, status: 422 });
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await response.json()) as Problem;
      expect(problem).toMatchObject({ type: '/problems/validation-error', status: 422 });
      expect(problem.errors).toEqual([
        { path: 'donor_evidence', message: expect.stringMatching(/experimental or all/) },
      ]);
    }
    expect([await sets(), await jobs()]).toEqual([setsBefore, jobsBefore]);
  });

  it('a set with no donor under the rule: /annotate is a 409 saying to use "all", and a prediction job fails empty_reference_pool', async () => {
    // A payload of an earlier run, for the embedding config and snapshot it names.
    const earlier = await annotated('all');
    const { payload } = (
      await api.get<{ payload: Record<string, unknown> }>(`/v1/jobs/${earlier.body.prediction_job_id}`)
    ).body;
    // The newest set, which /annotate picks: only the electronic annotation.
    const gaf = join(dir, 'electronic-only.gaf');
    writeFileSync(gaf, ['!gaf-version: 2.1', gafLine(IEA_DONOR, IEA_TERM, 'IEA', 'P'), ''].join('\n'));
    const electronic = await runJobToSuccess<TestJob>(api, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: payload['ontology_snapshot_id'],
      gaf_url: gaf,
      source_version: `electronic-${randomUUID()}`,
    });
    const setId = electronic.result!['annotation_set_id'] as string;
    const jobs = async () =>
      (await gateway.infra.db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM job`))[0]!.n;
    const jobsBefore = await jobs();
    const refused = await annotate(undefined);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      new RegExp(`${setId} has no donor protein under donor_evidence "experimental".*donor_evidence "all"`),
    );
    expect(await jobs()).toBe(jobsBefore);

    const queued = await api.post<{ id: string }>('/v1/jobs', {
      operation: 'predict_go_terms',
      queue_name: 'svc.predictions',
      payload: {
        embedding_config_id: payload['embedding_config_id'],
        annotation_set_id: setId,
        ontology_snapshot_id: payload['ontology_snapshot_id'],
        query_set_id: payload['query_set_id'],
        exclude_self: false,
        donor_evidence: 'experimental',
      },
    });
    const failed = await waitForJobEnd<TestJob>(api, queued.body.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error_code).toBe('empty_reference_pool');
    expect(failed.error_message).toMatch(/donor_evidence "all"/);
    // With "all" the same set answers, from the electronic donor.
    const all = await annotated('all');
    expect(all.iea).toContainEqual(
      expect.objectContaining({ go_id: IEA_TERM, ref_protein_accession: IEA_DONOR }),
    );
  });
});
