import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppProcess, freePort, HttpClient, spawnApp, testConfig, waitForJobEnd } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const ROOT = resolve(__dirname, '../../../..');
const DATA = resolve(ROOT, '../shared/data');
const TINY_OBO = join(ROOT, 'fixtures/go-subset.2022-07-01.obo');
const TINY_GAF = join(ROOT, 'fixtures/tiny-t0.2022-09-12.gaf');
const FULL_2022 = join(DATA, 'go/go-basic.godb-3.16.0.2022-07-01.obo.gz');

interface Job {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}

/** Live ids and alt ids of an OBO text, read independently of the service's parser. */
function liveIdsOf(text: string): Set<string> {
  const live = new Set<string>();
  for (const stanza of text.split(/\n(?=\[)/)) {
    if (!stanza.startsWith('[Term]')) continue;
    if (/^is_obsolete: true/m.test(stanza)) continue;
    const id = /^id: (GO:\d{7})/m.exec(stanza)?.[1];
    if (id === undefined) continue;
    live.add(id);
    for (const alt of stanza.matchAll(/^alt_id: (GO:\d{7})/gm)) live.add(alt[1]!);
  }
  return live;
}

describe('annotation sets: GAF and QuickGO loads, co-occurrence, InterPro mapping', () => {
  let gateway: Gateway;
  let worker: AppProcess;
  let api: HttpClient;
  let quickgo: Server;
  let quickgoRequests: string[] = [];
  let tinySnapshot = '';
  let fullSnapshot = '';

  const runJob = async (path: string, body: unknown): Promise<Job> => {
    const queued = await api.post<{ id: string }>(path, body);
    expect(queued.status).toBe(201);
    return waitForJobEnd<Job>(api, queued.body.id);
  };
  const setCount = async (): Promise<number> =>
    (await gateway.infra.db.query('SELECT count(*)::int AS n FROM annotation_set'))[0].n as number;

  beforeAll(async () => {
    // A QuickGO stand-in: annotation/search answers two pages built from the tiny holdout.
    const rows = readFileSync(join(DATA, 'tiny/annotations.t0.gene2go-2022-09-12.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1, 41)
      .map((line, i) => {
        const [acc, , goId, aspect, evidence] = line.split('\t');
        return {
          id: `UniProtKB:${acc}!${i}`,
          geneProductId: `UniProtKB:${acc}`,
          qualifier: i === 0 ? 'NOT|enables' : 'enables',
          goId,
          goEvidence: evidence,
          evidenceCode: 'ECO:0000314',
          goAspect: { F: 'molecular_function', P: 'biological_process', C: 'cellular_component' }[
            aspect as 'F' | 'P' | 'C'
          ],
          reference: 'PMID:1',
          withFrom: i === 1 ? [{ connectedXrefs: [{ db: 'UniProtKB', id: 'P00001' }] }] : null,
          taxonId: 9606,
          assignedBy: 'UniProt',
          date: '20220101',
          symbol: acc,
        };
      });
    const port = await freePort();
    quickgo = createServer((req, res) => {
      quickgoRequests.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      if (!url.pathname.endsWith('/annotation/search')) {
        res.writeHead(404).end();
        return;
      }
      const limit = Number(url.searchParams.get('limit'));
      const page = Number(url.searchParams.get('page'));
      const total = Math.ceil(rows.length / limit);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          numberOfHits: rows.length,
          results: rows.slice((page - 1) * limit, page * limit),
          pageInfo: { resultsPerPage: limit, current: page, total },
        }),
      );
    });
    await new Promise<void>((done) => quickgo.listen(port, '127.0.0.1', done));
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
    worker = await spawnApp('ingestion-worker', {
      SVC_QUICKGO_BASE_URL: `http://127.0.0.1:${port}/QuickGO/services`,
    });
    await worker.waitForLog('worker started');
    const tiny = await runJob('/v1/annotations/snapshots/load', { obo_url: TINY_OBO });
    expect(tiny.status).toBe('SUCCEEDED');
    tinySnapshot = tiny.result!['ontology_snapshot_id'] as string;
    const full = await runJob('/v1/annotations/snapshots/load', { obo_url: FULL_2022 });
    fullSnapshot = full.result!['ontology_snapshot_id'] as string;
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
    await new Promise((done) => quickgo?.close(done));
  });

  it('loads the tiny GAF: every row with a live or alt id of the snapshot is stored; others are counted', async () => {
    const live = liveIdsOf(readFileSync(TINY_OBO, 'utf8'));
    const lines = readFileSync(TINY_GAF, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('!'));
    const expected = lines.filter((l) => live.has(l.split('\t')[4]!)).length;
    const job = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: tinySnapshot,
      gaf_url: TINY_GAF,
      source_version: 'gene2go-2022-09-12',
    });
    expect(job.error_message).toBeNull();
    expect(job.result).toMatchObject({
      annotation_count: expected,
      records: lines.length,
      malformed_lines: 0,
      gaf_version: '2.1',
    });
    expect((job.result!['unknown_go_ids'] as number) + (job.result!['obsolete_go_ids'] as number)).toBe(
      lines.length - expected,
    );
    const set = await api.get<{ annotation_count: number; source: string; obo_version: string }>(
      `/v1/annotations/sets/${job.result!['annotation_set_id'] as string}`,
    );
    expect(set.body).toMatchObject({
      annotation_count: expected,
      source: 'goa',
      obo_version: 'releases/2022-07-01/tiny-subset',
    });
    // Alt ids are stored under their canonical term.
    const [{ n }] = await gateway.infra.db.query(
      `SELECT count(*)::int AS n FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id WHERE a.go_id <> t.go_id`,
    );
    expect(n).toBe(0);

    // With the proteins loaded, the per-protein route lists that protein's annotations with term details.
    const proteins = await runJob('/v1/proteins/insert', { source_url: join(DATA, 'tiny/sequences.fasta') });
    expect(proteins.status).toBe('SUCCEEDED');
    const protein = lines[0]!.split('\t')[1]!;
    const mine = lines.filter((l) => l.split('\t')[1] === protein && live.has(l.split('\t')[4]!));
    const annotations = await api.get<
      { go_id: string; go_name: string; evidence_code: string; source: string }[]
    >(`/v1/proteins/${protein}/annotations?annotation_set_id=${job.result!['annotation_set_id'] as string}`);
    expect(annotations.status).toBe(200);
    expect(annotations.body).toHaveLength(mine.length);
    expect(
      annotations.body.every(
        (a) => a.source === 'goa' && typeof a.go_name === 'string' && a.evidence_code !== '',
      ),
    ).toBe(true);
    const detail = await api.get<{ go_annotation_count: number }>(`/v1/proteins/${protein}`);
    expect(detail.body.go_annotation_count).toBe(mine.length);
  });

  it('fails ontology_mismatch when a file names too many GO ids the snapshot lacks, naming the release it needs', async () => {
    // The tiny GAF with one record in ten naming a term the 2022 subset lacks (GO:0140999, created
    // later), as a file made with a later release would.
    const dir = mkdtempSync(join(tmpdir(), 'svc-mismatch-'));
    const gaf = join(dir, 'mini-t1.gaf');
    const body = readFileSync(TINY_GAF, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('!'));
    const edited = body.map((l, i) => {
      if (i % 10 !== 0) return l;
      const cols = l.split('\t');
      cols[4] = 'GO:0140999';
      return cols.join('\t');
    });
    writeFileSync(gaf, ['!gaf-version: 2.1', '!date-generated: 2024-09-20', ...edited, ''].join('\n'));
    const before = await setCount();
    const unresolved = Math.ceil(body.length / 10);
    const refused = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: tinySnapshot,
      gaf_url: gaf,
      source_version: `mismatch-${randomUUID()}`,
    });
    expect(refused).toMatchObject({ status: 'FAILED', error_code: 'ontology_mismatch', result: null });
    expect(refused.error_message).toContain(
      `${unresolved} of ${body.length} records (${((100 * unresolved) / body.length).toFixed(1)} %)`,
    );
    expect(refused.error_message).toContain('ontology snapshot releases/2022-07-01/tiny-subset');
    expect(refused.error_message).toContain('first unknown: GO:0140999');
    expect(refused.error_message).toContain('the load tolerates 5.0 % (max_unresolved_ratio)');
    expect(refused.error_message).toContain('mostly unknown ids: the file is newer than this release');
    expect(refused.error_message).toContain('The file was generated on 2024-09-20: load the GO release');
    expect(await setCount()).toBe(before);

    // Under an explicit tolerance it loads, and the set and the job say what was left out.
    const tolerated = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: tinySnapshot,
      gaf_url: gaf,
      source_version: `mismatch-${randomUUID()}`,
      max_unresolved_ratio: 0.2,
    });
    expect(tolerated.status).toBe('SUCCEEDED');
    expect(tolerated.result).toMatchObject({
      records: body.length,
      unknown_go_ids: unresolved,
      unresolved_share: Number((unresolved / body.length).toFixed(4)),
      annotation_count: body.length - unresolved,
      malformed_lines: 0,
    });
    const set = await api.get<{ stats: Record<string, unknown> }>(
      `/v1/annotations/sets/${tolerated.result!['annotation_set_id'] as string}`,
    );
    expect(set.body.stats).toMatchObject({ unknown_go_ids: unresolved, obsolete_go_ids: 0 });
  });

  it('reports malformed lines with line numbers; fails above the error ratio and leaves nothing behind', async () => {
    const before = await setCount();
    const errors = join(DATA, 'fixtures/ontobio/errors.gaf');
    const failed = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: fullSnapshot,
      gaf_url: errors,
      source_version: 'errors',
    });
    expect(failed).toMatchObject({ status: 'FAILED', error_code: 'too_many_malformed_lines' });
    expect(failed.error_message).toMatch(/line 7/);
    expect(await setCount()).toBe(before);

    const tolerant = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: fullSnapshot,
      gaf_url: errors,
      source_version: 'errors-tolerated',
      max_error_ratio: 1,
      // The fixture's made-up GO ids are not in the release either.
      max_unresolved_ratio: 1,
    });
    expect(tolerant.status).toBe('SUCCEEDED');
    const samples = tolerant.result!['malformed_line_samples'] as { line: number }[];
    expect(samples.map((s) => s.line)).toEqual([7, 9, 13, 25, 27, 29]);

    const illegal = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: fullSnapshot,
      gaf_url: join(DATA, 'fixtures/goatools/goa_human_illegal.gaf'),
      source_version: 'goatools',
    });
    expect(illegal.error_message).toBeNull();
    expect((illegal.result!['malformed_line_samples'] as { line: number }[]).map((s) => s.line)).toEqual([
      60, 79,
    ]);
    expect(illegal.result!['records']).toBe(66);

    for (const file of [
      'fixtures/ontobio/mgi.gaf',
      'fixtures/ontobio/truncated-pombase.gaf',
      'fixtures/goatools/fig1a.gaf',
    ]) {
      const job = await runJob('/v1/annotations/sets/load-goa', {
        ontology_snapshot_id: fullSnapshot,
        gaf_url: join(DATA, file),
        source_version: file,
        // Files of other years: fig1a.gaf (2019) names 20 ids the 2022 release made obsolete.
        max_unresolved_ratio: 1,
      });
      expect({ file, error: job.error_message, malformed: job.result?.['malformed_lines'] }).toEqual({
        file,
        error: null,
        malformed: 0,
      });
    }
  });

  it('loads a gzip GAF with NOT annotations and keeps the qualifier verbatim', async () => {
    const job = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: fullSnapshot,
      gaf_url: join(DATA, 'fixtures/cafabeyond/goa_uniprot_all.EXP.NOT.198.gz'),
      source_version: 'goa-198-not',
    });
    expect(job.status).toBe('SUCCEEDED');
    expect(job.result!['records']).toBe(4432);
    const setId = job.result!['annotation_set_id'] as string;
    const [row] = await gateway.infra.db.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE is_not)::int AS negated,
              count(*) FILTER (WHERE qualifier LIKE 'NOT%')::int AS verbatim FROM protein_go_annotation WHERE annotation_set_id = $1`,
      [setId],
    );
    expect(row.total).toBe(job.result!['annotation_count']);
    expect(row.negated).toBe(row.total);
    expect(row.verbatim).toBe(row.total);
  });

  it('fails clearly: unknown snapshot, missing file, not gzip/GAF, bad bodies', async () => {
    // An unknown snapshot is refused before anything is queued.
    const noSnapshot = await api.post<{ status: number; detail: string }>('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: randomUUID(),
      gaf_url: TINY_GAF,
      source_version: 'x',
    });
    expect(noSnapshot.status).toBe(404);
    expect(noSnapshot.body.detail).toBe('Ontology snapshot not found');
    const missing = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: tinySnapshot,
      gaf_url: join(tmpdir(), 'svc-no-such.gaf'),
      source_version: 'x',
    });
    expect(missing.error_code).toBe('source_not_found');
    const dir = mkdtempSync(join(tmpdir(), 'svc-gaf-'));
    writeFileSync(join(dir, 'broken.gaf.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5]));
    const corrupt = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: tinySnapshot,
      gaf_url: join(dir, 'broken.gaf.gz'),
      source_version: 'x',
    });
    expect(corrupt.error_code).toBe('corrupt_source');
    writeFileSync(join(dir, 'empty.gaf'), '!gaf-version: 2.2\n');
    const empty = await runJob('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: tinySnapshot,
      gaf_url: join(dir, 'empty.gaf'),
      source_version: 'x',
    });
    expect(empty.error_code).toBe('empty_source');
    for (const body of [
      {},
      { ontology_snapshot_id: 'nope', gaf_url: 'x', source_version: 'x' },
      { ontology_snapshot_id: tinySnapshot, gaf_url: 'x', source_version: 'x', max_error_ratio: 2 },
    ]) {
      const res = await api.post<{ type: string }>('/v1/annotations/sets/load-goa', body);
      expect(res.status).toBe(422);
      expect(res.body.type).toBe('/problems/validation-error');
    }
  });

  it('loads QuickGO pages into a set (paging, NOT qualifiers, with/from), through the REST protocol', async () => {
    quickgoRequests = [];
    const job = await runJob('/v1/annotations/sets/load-quickgo', {
      ontology_snapshot_id: tinySnapshot,
      source_version: 'quickgo-2022',
      taxon_id: '9606',
      page_size: 15,
    });
    expect(job.error_message).toBeNull();
    expect(job.result).toMatchObject({ pages: 3, received: 40 });
    expect(quickgoRequests).toHaveLength(3);
    expect(quickgoRequests[0]).toMatch(/taxonId=9606/);
    expect(quickgoRequests[0]).toMatch(/limit=15/);
    const setId = job.result!['annotation_set_id'] as string;
    const rows: {
      protein_accession: string;
      qualifier: string;
      is_not: boolean;
      with_from: string | null;
    }[] = await gateway.infra.db.query(
      `SELECT protein_accession, qualifier, is_not, with_from FROM protein_go_annotation WHERE annotation_set_id = $1 ORDER BY id`,
      [setId],
    );
    expect(rows.length).toBe(job.result!['annotation_count']);
    // The first served annotation is the only NOT one (its term is live in the tiny snapshot).
    expect(rows.filter((r) => r.is_not).map((r) => r.qualifier)).toEqual(['NOT|enables']);
    expect(rows.some((r) => r.with_from === 'UniProtKB:P00001')).toBe(true);
    const list = await api.get<{ id: string; source: string }[]>('/v1/annotations/sets?source=quickgo');
    expect(list.body.map((s) => s.id)).toContain(setId);
    expect(list.body.every((s) => s.source === 'quickgo')).toBe(true);
    expect((await api.get('/v1/annotations/sets?source=elsewhere')).status).toBe(422);
  });

  it('builds GO co-occurrence counts that match a direct count', async () => {
    const sets = (await api.get<{ id: string; source_version: string }[]>('/v1/annotations/sets?source=goa'))
      .body;
    const tinySet = sets.find((s) => s.source_version === 'gene2go-2022-09-12')!;
    const job = await runJob(`/v1/annotations/sets/${tinySet.id}/cooccurrence`, {});
    expect(job.status).toBe('SUCCEEDED');
    expect(job.result!['pairs']).toBeGreaterThan(0);
    const [check] = await gateway.infra.db.query(
      `WITH pt AS (SELECT DISTINCT protein_accession, go_term_id FROM protein_go_annotation WHERE annotation_set_id = $1 AND NOT is_not)
       SELECT (SELECT count(*)::int FROM (SELECT a.go_term_id, b.go_term_id FROM pt a JOIN pt b ON a.protein_accession = b.protein_accession
                 AND a.go_term_id < b.go_term_id GROUP BY 1, 2) x) AS pairs,
              (SELECT count(DISTINCT go_term_id)::int FROM pt) AS terms`,
      [tinySet.id],
    );
    expect(job.result).toMatchObject({ pairs: check.pairs, terms: check.terms });
    expect((await api.post(`/v1/annotations/sets/${randomUUID()}/cooccurrence`, {})).status).toBe(404);
  });

  it('annotation set reads and deletion (404 for unknown, counts returned)', async () => {
    const list =
      await api.get<{ id: string; created_at: string; annotation_count: number }[]>('/v1/annotations/sets');
    expect(list.status).toBe(200);
    const times = list.body.map((s) => s.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const victim = list.body[0]!;
    const deleted = await api.delete<{ deleted: boolean; annotations_deleted: number }>(
      `/v1/annotations/sets/${victim.id}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, annotations_deleted: victim.annotation_count });
    expect((await api.get(`/v1/annotations/sets/${victim.id}`)).status).toBe(404);
    expect((await api.delete(`/annotations/sets/${victim.id}`)).status).toBe(404);
    expect((await api.get('/v1/annotations/sets/not-a-uuid')).status).toBe(404);
  });

  it('loads the interpro2go mapping file format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ipr-'));
    const file = join(dir, 'interpro2go');
    writeFileSync(
      file,
      [
        '!date: 2024/01/10 12:00:00',
        '!Mapping of InterPro entries to GO',
        'InterPro:IPR000003 Retinoid X receptor/HNF4 > GO:DNA binding ; GO:0003677',
        'InterPro:IPR000003 Retinoid X receptor/HNF4 > GO:nuclear receptor activity ; GO:0004879',
        'InterPro:IPR000005 Helix-turn-helix, AraC type > GO:DNA-binding transcription factor activity ; GO:0003700',
        'this line is broken',
        '',
      ].join('\n'),
    );
    const job = await runJob('/v1/jobs', {
      operation: 'load_interpro_go_mapping',
      queue_name: 'svc.jobs',
      payload: { url: file },
    }).catch(() => null);
    expect(job).not.toBeNull();
    expect(job!.status).toBe('SUCCEEDED');
    expect(job!.result).toMatchObject({ mappings: 3, malformed_lines: 1 });
    const again = await runJob('/v1/jobs', {
      operation: 'load_interpro_go_mapping',
      queue_name: 'svc.jobs',
      payload: { url: `file://${file}` },
    });
    expect(again.status).toBe('SUCCEEDED');
    const [{ n }] = await gateway.infra.db.query('SELECT count(*)::int AS n FROM interpro_go_mapping');
    expect(n).toBe(3);
  });
});
