import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REFERENCE_CATALOG, type ReferenceFile } from '@svc/domain';
import {
  AppProcess,
  createSuiteWorld,
  HttpClient,
  LocalHttpServer,
  mutated,
  runSvc,
  SHARED_DATA_DIR,
  spawnApp,
  startLocalHttpServer,
  SuiteWorld,
  testConfig,
  TestJob,
  waitForJobEnd,
} from '@svc/testing';
import { createGateway, Gateway } from '../../apps/gateway-api/src/app.factory';
import { buildHumanMirror } from '../data/reference-mirror';

// A real reference, installed as a site without internet would: a local HTTP mirror serves the
// shared data (the GO 2022-07-01 release, the human annotations of 2022-09-12 as a GAF, the human
// Swiss-Prot sequences) at the catalog's canonical paths, with a SHA256SUMS file; `svc reference
// install human --mirror URL` installs it, and `svc annotate` answers against it.

const EXPERIMENTAL = ['EXP', 'IDA', 'IPI', 'IMP', 'IGI', 'IEP'];

const svc = runSvc;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('a real reference from a mirror: svc reference install, then annotation against it', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let dir: string;
  let config: string;
  let mirror: LocalHttpServer;
  /** What the mirror serves, by path; a test may swap a file's bytes. */
  const served = new Map<string, Buffer>();
  const human = REFERENCE_CATALOG.find((r) => r.name === 'human')!;
  const pathOf = (role: ReferenceFile['role']): string =>
    human.files.find((f) => f.role === role)!.mirrorPath;
  let tp53: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-reference-'));
    config = join(dir, 'config.json');
    const folder = join(dir, 'mirror');
    const sums = await buildHumanMirror(SHARED_DATA_DIR, folder);
    for (const path of [...sums.keys(), 'SHA256SUMS']) served.set(path, readFileSync(join(folder, path)));
    const fasta = served.get(pathOf('sequences'))!;
    const record = gunzipSync(fasta)
      .toString('utf8')
      .split('>')
      .find((r) => r.startsWith('P04637 '))!;
    tp53 = record.slice(record.indexOf('\n') + 1).replace(/\s+/g, '');
    mirror = await startLocalHttpServer((req, res) => {
      const body = served.get(decodeURIComponent((req.url ?? '/').slice(1).split('?')[0]!));
      if (body === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    world = await createSuiteWorld('reference_install');
    world.env['SVC_SOURCE_ALLOWED_HOSTS'] = '127.0.0.1';
    gateway = await createGateway(testConfig(world.env));
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker'].map((name) => spawnApp(name, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const login = await svc(['login', '--url', gateway.url], config);
    expect(login.code).toBe(0);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
    await mirror?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs the human reference from the mirror, checked against its SHA256SUMS, and a rerun reuses it', async () => {
    const install = await svc(['reference', 'install', 'human', '--mirror', `${mirror.url}/`], config);
    expect({ code: install.code, stderr: install.code === 0 ? '' : install.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    expect(install.stdout).toMatch(
      /^human: GO releases\/2022-07-01, \d+ annotations \(goa human goa_human\.gaf\.gz@[0-9a-f]{12}\), 17857 proteins; [\d.]+ s$/m,
    );
    for (const role of ['ontology', 'annotations', 'sequences'])
      expect(install.stdout).toContain(
        `  ${role}\tsha256 ${sha256(served.get(pathOf(role as ReferenceFile['role']))!)}\tmirror`,
      );

    const list = await svc(['reference', 'list'], config);
    expect(list.stdout).toMatch(
      /^human \(default\)\tGO releases\/2022-07-01; \d+ annotations; 17857 proteins; installed /m,
    );
    expect(list.stdout).toMatch(/^mouse\tnot installed\t/m);

    const again = await svc(['reference', 'install', 'human', '--mirror', `${mirror.url}/`], config);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('(already installed: reused)');
    const shown = JSON.parse((await svc(['reference', 'show', 'human'], config)).stdout) as {
      installed: { files: { source: string | null; checked: string }[] }[];
    };
    expect(shown.installed).toHaveLength(1);
    expect(shown.installed[0]!.files.map((f) => f.checked)).toEqual(['mirror', 'mirror', 'mirror']);
  }, 600_000);

  it('annotates real human proteins against it: the reference named, known terms as known, a paralogue by homology', async () => {
    const fasta = join(dir, 'queries.fasta');
    writeFileSync(
      fasta,
      `>sp|P04637|P53_HUMAN Cellular tumor antigen p53 OS=Homo sapiens OX=9606 GN=TP53\n${tp53}\n>PARALOGUE close homolog of p53\n${mutated(tp53)}\n`,
    );
    const out = join(dir, 'results');
    const run = await svc(['annotate', fasta, '--out', out, '--format', 'tsv,gaf,json,cafa'], config);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stderr).toMatch(
      /^reference: human — GO releases\/2022-07-01; annotations goa human goa_human\.gaf\.gz@/m,
    );
    expect(run.stderr).toMatch(
      /^proteins: 2 — 1 with homology, 1 known \(reference proteins\), 0 on the prior alone/m,
    );
    expect(run.stderr).not.toContain('warning: The reference is small');

    const json = JSON.parse(readFileSync(join(out, 'predictions.json'), 'utf8')) as {
      reference: { reference_name: string; donor_proteins: number };
      proteins: {
        protein: string;
        basis: string;
        terms: {
          go_id: string;
          score: number;
          source: string;
          donor: string | null;
          evidence_code: string | null;
        }[];
      }[];
    };
    expect(json.reference.reference_name).toBe('human');
    expect(json.reference.donor_proteins).toBeGreaterThan(1000);
    const known = json.proteins.find((p) => p.protein === 'P04637')!;
    expect(known.basis).toBe('known');
    const own = known.terms.filter((t) => t.source === 'known');
    expect(own.length).toBeGreaterThan(20);
    for (const t of own) {
      expect(t.score).toBe(1);
      expect(EXPERIMENTAL).toContain(t.evidence_code);
    }
    // The paralogue gets p53's terms by homology, from p53, scored below 1.
    const paralogue = json.proteins.find((p) => p.protein === 'PARALOGUE')!;
    expect(paralogue.basis).toBe('homology');
    const fromP53 = paralogue.terms.filter((t) => t.source === 'homology' && t.donor === 'P04637');
    expect(fromP53.length).toBeGreaterThan(10);
    expect(fromP53.every((t) => t.score < 1)).toBe(true);
    expect(new Set(fromP53.map((t) => t.go_id))).toContain('GO:0003700'); // DNA-binding transcription factor activity

    const tsv = readFileSync(join(out, 'predictions.tsv'), 'utf8').split('\n');
    expect(tsv[1]).toMatch(/^# reference: human; go-version: releases\/2022-07-01; /);
    expect(readFileSync(join(out, 'predictions.gaf'), 'utf8')).toContain('!reference: human\n');

    // The prediction job's events name the reference before the run and the coverage after it.
    const api = new HttpClient(gateway.url);
    // The dashboard link names the prediction job.
    const predictionJob = /#\/annotate\/([0-9a-f-]{36})/.exec(run.stderr)![1]!;
    const events = (
      await api.get<{ event: string; fields: Record<string, unknown> }[]>(`/v1/jobs/${predictionJob}/events`)
    ).body;
    expect(events.find((e) => e.event === 'predict_go_terms.reference')?.fields).toMatchObject({
      reference_name: 'human',
      ontology_version: 'releases/2022-07-01',
      donor_evidence: 'experimental',
      search_backend: 'diamond',
    });
    expect(events.find((e) => e.event === 'predict_go_terms.coverage')?.fields).toEqual({
      queries: 2,
      with_homolog: 2,
      without_homolog: 0,
      without_homolog_share: 0,
      known: 1,
    });
  }, 600_000);

  it('refuses a mirror outside the source policy, a changed file, a truncated annotation file, and an unknown name', async () => {
    const api = new HttpClient(gateway.url);
    const run = async (body: Record<string, unknown>): Promise<TestJob> => {
      const queued = await api.post<{ id: string }>('/v1/references/install', body);
      expect(queued.status).toBe(201);
      return waitForJobEnd<TestJob>(api, queued.body.id, 300_000);
    };
    // A mirror on an address the policy does not allow.
    expect(await run({ name: 'human', mirror: 'http://10.1.2.3/' })).toMatchObject({
      status: 'FAILED',
      error_code: 'source_not_allowed',
    });
    // A file whose bytes are not the mirror's published digest.
    const original = served.get(pathOf('sequences'))!;
    served.set(pathOf('sequences'), Buffer.concat([original, Buffer.from('>X\nMKV\n')]));
    const tampered = await run({ name: 'human', mirror: `${mirror.url}/` });
    expect(tampered).toMatchObject({ status: 'FAILED', error_code: 'checksum_mismatch' });
    expect(tampered.error_message).toMatch(
      /^the sequences file http:\/\/127\.0\.0\.1:\d+\/rest\.uniprot\.org\/uniprotkb\/human-swissprot\.fasta\.gz has SHA-256 [0-9a-f]{64}, not the mirror's SHA256SUMS [0-9a-f]{64}/,
    );
    served.set(pathOf('sequences'), original);
    // A GAF download cut short (its gzip stream ends early), published with its own digest: the load
    // fails cleanly and nothing is recorded.
    const gaf = served.get(pathOf('annotations'))!;
    const cut = gaf.subarray(0, Math.floor(gaf.length / 2));
    served.set(pathOf('annotations'), cut);
    const sums = served.get('SHA256SUMS')!.toString();
    served.set('SHA256SUMS', Buffer.from(sums.replace(sha256(gaf), sha256(cut))));
    const truncated = await run({ name: 'human', mirror: `${mirror.url}/` });
    expect(truncated).toMatchObject({ status: 'FAILED', error_code: 'corrupt_source' });
    expect(truncated.error_message).not.toMatch(/at .*\.ts:\d+|SELECT|INSERT/);
    served.set(pathOf('annotations'), gaf);
    served.set('SHA256SUMS', Buffer.from(sums));
    // Unknown names are refused before anything is queued.
    const unknown = await api.post<{ status: number; detail: string }>('/v1/references/install', {
      name: 'martian',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(
      /^Reference not found: martian is not in the catalog \(human, mouse, yeast\)/,
    );
  }, 600_000);
});
