import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GafReader } from '@svc/domain';
import { blendModelFor } from '@svc/go-transfer';
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
    // The dashboard link is absolute, and the run ends with what it found and wrote.
    expect(run.stderr).toContain(`following ${gateway.url}/#/annotate/`);
    expect(run.stderr).toMatch(
      /^proteins: 2 — \d+ with homology, \d+ known \(reference proteins\), \d+ on the prior alone/m,
    );
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

    // --threshold cuts every file: the CAFA file holds the JSON's terms, the TSV rows scoring at least it.
    const cafa = readFileSync(join(out, 'predictions-cafa.tsv'), 'utf8').trim().split('\n');
    for (const line of cafa) expect(line.split('\t')).toHaveLength(3);
    expect(cafa.map((l) => l.split('\t').slice(0, 2).join(' ')).sort()).toEqual(kept);
    const distance = tsv[0]!.split('\t').indexOf('distance');
    expect(tsv.slice(2).every((l) => Number(l.split('\t')[distance]) <= 0.9 + 1e-6)).toBe(true);
    expect(run.stderr).toContain(
      `files: 4 in ${out}, terms scoring at least 0.1 (--threshold 0 keeps every term)`,
    );
  });

  it('--donor-evidence all lets every annotation donate, scored by the blend fitted for that policy, which the summary names', async () => {
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
    expect(run.stderr).toContain(`blend ${blendModelFor('all').version}`);
    expect(run.stderr).not.toContain('calibrated with');
    expect(run.stderr).not.toMatch(/^warning: This run transfers annotations/m);
    const json = JSON.parse(readFileSync(join(out, 'predictions.json'), 'utf8')) as {
      reference: { donor_evidence: string; blend_donor_evidence: string };
      warning_codes: string[];
    };
    expect(json.reference).toMatchObject({ donor_evidence: 'all', blend_donor_evidence: 'all' });
    expect(json.warning_codes).not.toContain('donor_policy_differs_from_calibration');
    // Without --threshold the files a person reads keep the terms scoring at least 0.3.
    expect((json as unknown as { min_score: number }).min_score).toBe(0.3);
    expect(run.stderr).toContain('terms scoring at least 0.3 (--threshold 0 keeps every term)');
    const everything = await svc(
      ['annotate', fasta, '--out', join(dir, 'every'), '--format', 'json', '--threshold', '0'],
      config,
    );
    expect(everything.code).toBe(0);
    expect(everything.stderr).toContain(`files: 1 in ${join(dir, 'every')}, every term`);
    const whole = JSON.parse(readFileSync(join(dir, 'every', 'predictions.json'), 'utf8')) as {
      min_score: number;
      proteins: { terms: { score: number }[] }[];
    };
    expect(whole.min_score).toBe(0);
    expect(whole.proteins[0]!.terms.some((t) => t.score < 0.3)).toBe(true);
    for (const threshold of ['high', '1.5', '']) {
      const refused = await svc(['annotate', fasta, '--out', out, '--threshold', threshold], config);
      expect({ code: refused.code, first: refused.stderr.split('\n')[0] }).toEqual({
        code: 2,
        first: 'svc: --threshold must be a number in [0, 1]',
      });
    }
    const bad = await svc(['annotate', fasta, '--out', out, '--donor-evidence', 'IEA'], config);
    expect({ code: bad.code, first: bad.stderr.split('\n')[0] }).toEqual({
      code: 2,
      first: 'svc: --donor-evidence must be experimental or all',
    });
  });

  it('jobs list shows every job, those another job queued too, as the web list does', async () => {
    const api = new HttpClient(gateway.url);
    const top = await api.get<{ id: string }[]>('/v1/jobs?limit=100');
    const [parent, child] = top.body.map((j) => j.id);
    // One listed job becomes a follow-up of another: the plain list hides it, svc must not.
    await gateway.infra.db.query('UPDATE job SET parent_job_id = $1 WHERE id = $2', [parent, child]);
    expect((await api.get<{ id: string }[]>('/v1/jobs?limit=100')).body.map((j) => j.id)).not.toContain(
      child,
    );
    const listed = await svc(['jobs', 'list', '--limit', '100'], config);
    expect(listed.code).toBe(0);
    const lines = listed.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines.find((l) => l[0] === child)?.[4]).toBe(`queued by ${parent}`);
    expect(lines.find((l) => l[0] === parent)?.[4]).toBe('');
    for (const args of [['--limit', 'ten'], ['--limit', '0'], ['--bogus']]) {
      const bad = await svc(['jobs', 'list', ...args], config);
      expect({ args, code: bad.code }).toEqual({ args, code: 2 });
    }
    expect((await svc(['jobs', 'list', '--limit', 'ten'], config)).stderr.split('\n')[0]).toBe(
      'svc: --limit must be a positive whole number',
    );
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
      stderr: `svc: could not reach ${closed}/v1/jobs?include_children=true: ECONNREFUSED\n`,
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
