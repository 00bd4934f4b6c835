import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GafReader } from '@svc/domain';
import {
  AppProcess,
  freePort,
  runSvc,
  createSuiteWorld,
  embedProteinsWithKmer,
  HttpClient,
  runJobToSuccess,
  SHARED_DATA_DIR,
  spawnApp,
  SuiteWorld,
  testConfig,
  TestJob,
  WORKSPACE_ROOT,
} from '@svc/testing';
import { createGateway, Gateway } from '../../apps/gateway-api/src/app.factory';

const svc = runSvc;

describe('svc, the command-line client, against the real stack', () => {
  let world: SuiteWorld;
  let gateway: Gateway;
  let workers: AppProcess[] = [];
  let dir: string;
  let config: string;
  /** The prediction job of the annotate run (its dashboard link names it). */
  let predictionJob: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
    config = join(dir, 'config.json');
    world = await createSuiteWorld('svc_cli');
    gateway = await createGateway(testConfig(world.env));
    const api = new HttpClient(gateway.url);
    workers = await Promise.all(
      ['ingestion-worker', 'embedding-worker', 'prediction-worker'].map((name) => spawnApp(name, world.env)),
    );
    await Promise.all(workers.map((w) => w.waitForLog('worker started')));
    const snapshot = await runJobToSuccess<TestJob>(api, '/v1/annotations/snapshots/load', {
      obo_url: join(WORKSPACE_ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    await runJobToSuccess<TestJob>(api, '/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshot.result!['ontology_snapshot_id'],
      gaf_url: join(WORKSPACE_ROOT, 'fixtures/tiny-t0.2022-09-12.gaf'),
      source_version: `tiny-t0-${randomUUID()}`,
    });
    await embedProteinsWithKmer(api, join(SHARED_DATA_DIR, 'tiny/sequences.fasta'));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.close();
    await world?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('login stores the service in a private config file; annotate writes TSV, GAF, JSON and CAFA', async () => {
    const login = await svc(['login', '--url', gateway.url], config);
    expect({ code: login.code, stderr: login.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(readFileSync(config, 'utf8'))).toMatchObject({ url: gateway.url });
    expect(statSync(config).mode & 0o777).toBe(0o600);

    // Two proteins of the tiny holdout under names of our own.
    const records = readFileSync(join(SHARED_DATA_DIR, 'tiny/sequences.fasta'), 'utf8')
      .split('>')
      .slice(1, 3);
    const fasta = join(dir, 'mine.fasta');
    // query_1's header names its taxon (OX=) and gene (GN=), query_2's does not: it takes --taxon,
    // and its GAF symbol is its identifier.
    const headers = ['query_1 Protein one OS=Mus musculus OX=10090 GN=Trp53', 'query_2'];
    writeFileSync(fasta, records.map((r, i) => `>${headers[i]}\n${r.slice(r.indexOf('\n') + 1)}`).join(''));
    const out = join(dir, 'results');
    const run = await svc(
      [
        'annotate',
        fasta,
        '--out',
        out,
        '--format',
        'tsv,gaf,json,cafa',
        '--threshold',
        '0.1',
        '--taxon',
        '9606',
      ],
      config,
    );
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stderr).toMatch(/prediction: SUCCEEDED/);
    // The default prediction reads no embedding: svc follows the prediction job alone.
    expect(run.stderr).not.toMatch(/embeddings:/);
    predictionJob = /#\/annotate\/([0-9a-f-]{36})/.exec(run.stderr)![1]!;
    for (const file of ['predictions.tsv', 'predictions.gaf', 'predictions.json', 'predictions-cafa.tsv']) {
      expect(existsSync(join(out, file))).toBe(true);
    }

    const tsv = readFileSync(join(out, 'predictions.tsv'), 'utf8').trim().split('\n');
    expect(tsv[0]!.split('\t')).toHaveLength(32);
    expect(tsv[0]!.split('\t')).toContain('distance');
    // The line after the header names what the rows stand on.
    expect(tsv[1]).toMatch(/^# go-version: releases\/2022-07-01\/tiny-subset; reference-annotations: /);
    expect(new Set(tsv.slice(2).map((l) => l.split('\t')[0]))).toEqual(new Set(['query_1', 'query_2']));

    const gafLines = readFileSync(join(out, 'predictions.gaf'), 'utf8').trim().split('\n');
    const reader = new GafReader();
    const parsed = gafLines.map((line) => reader.push(line));
    expect(parsed.filter((p) => p.kind === 'error')).toEqual([]);
    const gafRecords = parsed.flatMap((p) => (p.kind === 'record' ? [p.record] : []));
    expect(gafRecords.length).toBeGreaterThan(0);
    expect(reader.header.properties).toMatchObject({ 'gaf-version': '2.2', 'generated-by': 'SVC' });
    for (const r of gafRecords) {
      expect({ id: r.dbObjectId, symbol: r.dbObjectSymbol, taxa: r.taxa }).toEqual({
        id: r.dbObjectId,
        symbol: r.dbObjectId === 'query_1' ? 'Trp53' : 'query_2',
        taxa: [r.dbObjectId === 'query_1' ? '10090' : '9606'],
      });
      // A query that is a reference protein keeps its own annotations (SVC_REF:0000003) with their
      // recorded evidence; every predicted line is IEA.
      const known = r.dbReference === 'SVC_REF:0000003';
      expect({ db: r.db, assignedBy: r.assignedBy, evidence: known ? 'recorded' : r.evidenceCode }).toEqual({
        db: 'SVC',
        assignedBy: 'SVC',
        evidence: known ? 'recorded' : 'IEA',
      });
      if (known) expect(r.withFrom).toBeNull();
      else expect(r.dbReference).toBe(r.withFrom === null ? 'SVC_REF:0000002' : 'SVC_REF:0000001');
    }

    const { proteins: json } = JSON.parse(readFileSync(join(out, 'predictions.json'), 'utf8')) as {
      proteins: { protein: string; terms: { go_id: string; score: number }[] }[];
    };
    const kept = json.flatMap((p) => p.terms.map((t) => `${p.protein} ${t.go_id}`)).sort();
    expect(json.every((p) => p.terms.every((t) => t.score >= 0.1))).toBe(true);
    expect(gafRecords.map((r) => `${r.dbObjectId} ${r.goId}`).sort()).toEqual(kept);

    const cafa = readFileSync(join(out, 'predictions-cafa.tsv'), 'utf8').trim().split('\n');
    for (const line of cafa) expect(line.split('\t')).toHaveLength(3);
    expect(cafa.length).toBeGreaterThanOrEqual(kept.length);
  });

  it('--donor-evidence all lets every annotation donate, and the summary says the scores were calibrated otherwise', async () => {
    const fasta = join(dir, 'one.fasta');
    const record = readFileSync(join(SHARED_DATA_DIR, 'tiny/sequences.fasta'), 'utf8').split('>')[3]!;
    writeFileSync(fasta, `>query_all\n${record.slice(record.indexOf('\n') + 1)}`);
    const out = join(dir, 'all');
    const run = await svc(
      ['annotate', fasta, '--out', out, '--format', 'json', '--donor-evidence', 'all'],
      config,
    );
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stderr).toContain('all evidence, electronic included');
    expect(run.stderr).toContain('(calibrated with experimental evidence donors, not these)');
    expect(run.stderr).toMatch(
      /^warning: This run transfers annotations of every evidence code, electronic \(IEA\) included, but the scores of homology-blend-v1 were calibrated/m,
    );
    const json = JSON.parse(readFileSync(join(out, 'predictions.json'), 'utf8')) as {
      reference: { donor_evidence: string };
      warning_codes: string[];
    };
    expect(json.reference.donor_evidence).toBe('all');
    expect(json.warning_codes).toContain('donor_policy_differs_from_calibration');
    const bad = await svc(['annotate', fasta, '--out', out, '--donor-evidence', 'IEA'], config);
    expect({ code: bad.code, first: bad.stderr.split('\n')[0] }).toEqual({
      code: 2,
      first: 'svc: --donor-evidence must be experimental or all',
    });
  });

  it('exit codes: 2 for usage, 3 when the service refuses, 4 when it cannot be reached', async () => {
    expect((await svc(['annotate'], config)).code).toBe(2);
    expect((await svc(['annotate', 'x.fasta', '--out', dir, '--format', 'docx'], config)).code).toBe(2);
    const badTaxon = await svc(['annotate', 'x.fasta', '--out', dir, '--taxon', 'human'], config);
    expect({ code: badTaxon.code, stderr: badTaxon.stderr }).toEqual({
      code: 2,
      stderr: expect.stringContaining('--taxon must be an NCBI taxonomy id'),
    });
    const missing = await svc(['jobs', 'show', randomUUID()], config);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/404/);
    // A refused upload prints the problem's detail (here: the records that are DNA).
    const dna = join(dir, 'transcripts.fasta');
    writeFileSync(dna, `>NM_000546.6 TP53 mRNA\n${'ATGGAGGAGCCGCAGTCAGATCCTAGCGTCGAGCC'.repeat(3)}\n`);
    const nucleotides = await svc(['annotate', dna, '--out', dir], config);
    expect({ code: nucleotides.code, stderr: nucleotides.stderr }).toEqual({
      code: 3,
      stderr: expect.stringMatching(
        /^svc: 422 Validation Error on \/v1\/annotate\S*: 1 record looks like a nucleotide sequence \(DNA or RNA\), not a protein: NM_000546\.6\./,
      ),
    });
    // Usage errors exit 2 with a clear message; an unreachable service exits 4 and names the URL.
    const noFile = await svc(['annotate', join(dir, 'missing.fasta'), '--out', dir], config);
    expect({ code: noFile.code, first: noFile.stderr.split('\n')[0] }).toEqual({
      code: 2,
      first: `svc: ${join(dir, 'missing.fasta')}: no such file (annotate reads a FASTA file of protein sequences)`,
    });
    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await svc(['jobs', 'list', '--url', closed], config);
    expect({ code: unreachable.code, stderr: unreachable.stderr }).toEqual({
      code: 4,
      stderr: `svc: could not reach ${closed}/v1/jobs: ECONNREFUSED\n`,
    });
    // A guest's one-click run is unlisted: not in the list, readable by its id.
    expect((await svc(['jobs', 'list'], config)).code).toBe(0);
    const shown = await svc(['jobs', 'show', predictionJob], config);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      id: predictionJob,
      operation: 'predict_go_terms',
      status: 'SUCCEEDED',
    });
  });
});
