import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  AppProcess,
  createSuiteWorld,
  freePort,
  HttpClient,
  HttpResult,
  LocalHttpServer,
  spawnApp,
  startLocalHttpServer,
  SuiteWorld,
  testConfig,
  waitFor,
} from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';
import { ReferenceService } from './reference.service';

const DATA = resolve(__dirname, '../../../../../shared/data');

// ---------------------------------------------------------------------------------------------
// Fixture: the 40 sequences of the tiny data set, dressed up as UniProt entries.
// ---------------------------------------------------------------------------------------------

interface Species {
  /** The 'Organism' column of a TSV answer. */
  display: string;
  /** The OS= tag of a FASTA header. */
  scientific: string;
  taxonomyId: string;
}

const HUMAN: Species = { display: 'Homo sapiens (Human)', scientific: 'Homo sapiens', taxonomyId: '9606' };
const MOUSE: Species = { display: 'Mus musculus (Mouse)', scientific: 'Mus musculus', taxonomyId: '10090' };
const CHIMP: Species = {
  display: 'Pan troglodytes (Chimpanzee)',
  scientific: 'Pan troglodytes',
  taxonomyId: '9598',
};

interface Entry {
  accession: string;
  canonicalAccession: string;
  isoformIndex: number | null;
  entryName: string;
  reviewed: boolean;
  proteinName: string;
  gene: string;
  species: Species;
  sequence: string;
  /** By UniProt return field ('cc_function', 'ec', ...). */
  metadata: Record<string, string>;
}

/** UniProt REST return fields and the labels of their `format=tsv` columns. */
const CORE_COLUMNS: Record<string, { label: string; value: (e: Entry) => string }> = {
  accession: { label: 'Entry', value: (e) => e.accession },
  id: { label: 'Entry Name', value: (e) => e.entryName },
  reviewed: { label: 'Reviewed', value: (e) => (e.reviewed ? 'reviewed' : 'unreviewed') },
  protein_name: { label: 'Protein names', value: (e) => e.proteinName },
  gene_primary: { label: 'Gene Names (primary)', value: (e) => e.gene },
  organism_name: { label: 'Organism', value: (e) => e.species.display },
  organism_id: { label: 'Organism (ID)', value: (e) => e.species.taxonomyId },
  length: { label: 'Length', value: (e) => String(e.sequence.length) },
  sequence: { label: 'Sequence', value: (e) => e.sequence },
};
const METADATA_LABELS: Record<string, string> = {
  absorption: 'Absorption',
  ft_act_site: 'Active site',
  cc_activity_regulation: 'Activity regulation',
  ft_binding: 'Binding site',
  cc_catalytic_activity: 'Catalytic activity',
  cc_cofactor: 'Cofactor',
  ft_dna_bind: 'DNA binding',
  ec: 'EC number',
  cc_function: 'Function [CC]',
  keyword: 'Keywords',
  kinetics: 'Kinetics',
  cc_pathway: 'Pathway',
  ph_dependence: 'pH dependence',
  redox_potential: 'Redox potential',
  rhea: 'Rhea ID',
  ft_site: 'Site',
  temp_dependence: 'Temperature dependence',
  ft_region: 'Region',
};
const SEARCH_FIELDS =
  'accession,id,reviewed,protein_name,gene_primary,organism_name,organism_id,length,sequence';
const CORE_FIELDS = 'id,reviewed,gene_primary,organism_name,organism_id,length';

function readFixture(): Entry[] {
  const roles = new Map(
    readFileSync(join(DATA, 'tiny', 'proteins.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter((line) => line.trim() !== '')
      .map((line) => line.split('\t') as [string, string]),
  );
  const records = readFileSync(join(DATA, 'tiny', 'sequences.fasta'), 'utf8')
    .split('>')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [header = '', ...lines] = chunk.split('\n');
      return { accession: header.trim().split(/\s+/)[0] ?? '', sequence: lines.join('').replace(/\s+/g, '') };
    });
  return records.map(({ accession, sequence }, i) => {
    const species = i % 6 === 5 ? MOUSE : HUMAN;
    const reviewed = roles.get(accession) === 'train';
    const gene = `G${String(i).padStart(2, '0')}X`;
    const suffix = species === MOUSE ? 'MOUSE' : 'HUMAN';
    return {
      accession,
      canonicalAccession: accession,
      isoformIndex: null,
      // Swiss-Prot names entries after the gene, TrEMBL after the accession.
      entryName: reviewed ? `${gene}_${suffix}` : `${accession}_${suffix}`,
      reviewed,
      proteinName: `Test protein ${i}`,
      gene,
      species,
      sequence,
      metadata: {},
    };
  });
}

function isoform(canonical: Entry, index: number, sequence: string): Entry {
  return {
    ...canonical,
    accession: `${canonical.accession}-${index}`,
    isoformIndex: index,
    proteinName: `Isoform ${index} of ${canonical.proteinName}`,
    sequence,
    metadata: {},
  };
}

const ALL = readFixture();
// Two entries with the same amino-acid string (on the same result page) share one sequence row.
ALL[1]!.sequence = ALL[0]!.sequence;
ALL[0]!.metadata = {
  cc_function: 'FUNCTION: Catalyzes the test reaction; essential for "fixtures".',
  cc_catalytic_activity:
    'CATALYTIC ACTIVITY: Reaction=ATP + H2O = ADP + H(+) + phosphate; Xref=Rhea:RHEA:13065;',
  ec: '3.6.4.12',
  keyword: 'ATP-binding;Hydrolase;Nucleotide-binding',
  rhea: 'RHEA:13065',
};
ALL[2]!.metadata = { cc_function: 'FUNCTION: Binds DNA.', cc_cofactor: 'COFACTOR: Name=Mg(2+)' };
ALL[5]!.metadata = { cc_function: 'FUNCTION: Mouse-only function.' };

/** What the search endpoint holds: the first 34 entries; the last six arrive as exported files. */
const SERVED_CANONICAL = ALL.slice(0, 34);
const SEQ0 = ALL[0]!.sequence;
const SEQ2 = ALL[2]!.sequence;
const ISOFORMS: Entry[] = [
  isoform(ALL[0]!, 2, SEQ0.slice(0, 30) + SEQ0.slice(60)),
  isoform(ALL[0]!, 3, `${SEQ0.slice(0, -10)}GSGSGS`),
  isoform(ALL[2]!, 2, SEQ2.slice(0, 20) + SEQ2.slice(45)),
];
/** Result order of the search endpoint: each canonical entry followed by its isoforms. */
const SERVED = SERVED_CANONICAL.flatMap((e) => [
  e,
  ...ISOFORMS.filter((i) => i.canonicalAccession === e.accession),
]);
const FASTA_ENTRIES = ALL.slice(34, 37);
const FASTA_ISOFORM = isoform(ALL[34]!, 2, ALL[34]!.sequence.slice(10));
const TSV_ENTRIES = ALL.slice(37, 40);
const TSV_ISOFORM = isoform(ALL[37]!, 2, ALL[37]!.sequence.slice(15));

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
const distinct = (entries: Entry[]): number => new Set(entries.map((e) => e.sequence)).size;
const pages = (rows: number, size: number): number => Math.ceil(rows / size);

// ---------------------------------------------------------------------------------------------
// A local server speaking the UniProt REST search protocol.
// ---------------------------------------------------------------------------------------------

interface Fault {
  status: number;
  headers?: Record<string, string>;
  when: (url: URL) => boolean;
}

interface Recorded {
  url: URL;
  status: number;
  at: number;
}

class FakeUniProt {
  readonly requests: Recorded[] = [];
  /** Injected failures, each used once, by the first request it matches. */
  readonly faults: Fault[] = [];
  private server: LocalHttpServer | null = null;
  private baseUrl = '';

  async start(port: number): Promise<string> {
    this.server = await startLocalHttpServer((req, res) => this.handle(req, res), port);
    this.baseUrl = this.server.url;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = null;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const send = (status: number, body: string, headers: Record<string, string> = {}): void => {
      this.requests.push({ url, status, at: Date.now() });
      res.writeHead(status, headers).end(body);
    };
    const error = (status: number, message: string, headers: Record<string, string> = {}): void =>
      send(status, JSON.stringify({ url: url.href, messages: [message] }), {
        'content-type': 'application/json',
        ...headers,
      });

    const fault = this.faults.findIndex((f) => f.when(url));
    if (fault >= 0) {
      const [{ status, headers }] = this.faults.splice(fault, 1) as [Fault];
      return error(status, status === 429 ? 'Too many requests' : 'Service temporarily unavailable', headers);
    }
    if (req.method !== 'GET' || url.pathname !== '/uniprotkb/search') return error(404, 'Resource not found');
    const params = url.searchParams;
    if (params.get('format') !== 'tsv')
      return error(400, `Invalid format requested: '${params.get('format')}'`);
    const size = Number(params.get('size') ?? '25');
    if (!Number.isInteger(size) || size < 1 || size > 500)
      return error(400, "'size' must be between 1 and 500");
    const fields = (params.get('fields') ?? 'accession').split(',').map((f) => f.trim());
    const unknown = fields.filter((f) => CORE_COLUMNS[f] === undefined && METADATA_LABELS[f] === undefined);
    if (unknown.length > 0) return error(400, `Invalid fields parameter value '${unknown[0]}'`);
    const terms = (params.get('query') ?? '').split(/\s+AND\s+/i).map((t) => t.trim());
    if (terms.some((t) => t !== '*' && !/^(organism_id|accession|reviewed):[\w-]+$/.test(t))) {
      return error(400, 'query parameter has an invalid syntax');
    }
    const includeIsoforms = params.get('includeIsoform') === 'true';
    const rows = SERVED.filter(
      (e) => (includeIsoforms || e.isoformIndex === null) && terms.every((t) => FakeUniProt.matches(e, t)),
    );
    const cursor = params.get('cursor');
    const offset = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString().slice(1));
    const page = rows.slice(offset, offset + size);
    const cell = (e: Entry, f: string): string => CORE_COLUMNS[f]?.value(e) ?? e.metadata[f] ?? '';
    const text = [
      fields.map((f) => CORE_COLUMNS[f]?.label ?? METADATA_LABELS[f]).join('\t'),
      ...page.map((e) => fields.map((f) => cell(e, f)).join('\t')),
      '',
    ].join('\n');
    const headers: Record<string, string> = {
      'content-type': 'text/plain;format=tsv',
      'x-total-results': String(rows.length),
    };
    if (offset + size < rows.length) {
      const next = new URL(url.href);
      next.searchParams.set('cursor', Buffer.from(`o${offset + size}`).toString('base64url'));
      headers['link'] = `<${next.href}>; rel="next"`;
    }
    send(200, text, headers);
  }

  private static matches(e: Entry, term: string): boolean {
    if (term === '*') return true;
    const [field, value] = term.split(':') as [string, string];
    if (field === 'organism_id') return e.species.taxonomyId === value;
    if (field === 'accession') return e.canonicalAccession === value;
    return String(e.reviewed) === value;
  }
}

// ---------------------------------------------------------------------------------------------

interface Job {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
  progress_current: number | null;
  progress_total: number | null;
}
interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: { path: string; message: string }[];
}
interface ProteinRow {
  accession: string;
  canonical_accession: string;
  is_canonical: boolean;
  isoform_index: number | null;
  entry_name: string | null;
  protein_name: string | null;
  gene_name: string | null;
  organism: string | null;
  taxonomy_id: string | null;
  length: number | null;
  reviewed: boolean | null;
}
interface ProteinList {
  items: (ProteinRow & { sequence_id: number | null; created_at: string; updated_at: string })[];
  total: number;
  limit: number;
  offset: number;
}

function expectProblem(res: HttpResult<unknown>, status: number, type?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = res.body as Problem;
  expect(body.status).toBe(status);
  if (type !== undefined) expect(body.type).toBe(type);
}

/** The protein row the loaders should store for an entry, as read back with `proteinRows`. */
function expectedRow(
  e: Entry,
  organism: 'display' | 'scientific' = 'display',
): ProteinRow & { sequence_hash: string } {
  return {
    accession: e.accession,
    canonical_accession: e.canonicalAccession,
    is_canonical: e.isoformIndex === null,
    isoform_index: e.isoformIndex,
    entry_name: e.entryName,
    protein_name: e.proteinName,
    gene_name: e.gene,
    organism: e.species[organism],
    taxonomy_id: e.species.taxonomyId,
    length: e.sequence.length,
    reviewed: e.reviewed,
    sequence_hash: md5(e.sequence),
  };
}

function fastaOf(entries: Entry[]): string {
  return entries
    .map((e) => {
      const header = `>${e.reviewed ? 'sp' : 'tr'}|${e.accession}|${e.entryName} ${e.proteinName} OS=${e.species.scientific} OX=${e.species.taxonomyId} GN=${e.gene} PE=1 SV=1`;
      return [header, ...(e.sequence.match(/.{1,60}/g) ?? [])].join('\n');
    })
    .join('\n')
    .concat('\n');
}

function tsvOf(entries: Entry[]): string {
  const fields = SEARCH_FIELDS.split(',');
  return [
    fields.map((f) => CORE_COLUMNS[f]!.label).join('\t'),
    ...entries.map((e) => fields.map((f) => CORE_COLUMNS[f]!.value(e)).join('\t')),
    '',
  ].join('\n');
}

describe('Proteins: insert_proteins and fetch_uniprot_metadata against a UniProt REST stand-in, and /proteins', () => {
  const uniprot = new FakeUniProt();
  let gateway: Gateway;
  let worker: AppProcess;
  let api: HttpClient;
  let workDir: string;

  const sql = <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    gateway.infra.db.query<T[]>(text, params);
  const count = async (text: string, params: unknown[] = []): Promise<number> =>
    (await sql<{ n: number }>(text, params))[0]!.n;
  const proteinRows = (where = 'TRUE', params: unknown[] = []) =>
    sql<ProteinRow & { sequence_hash: string | null; sequence_id: number | null; sequence: string | null }>(
      `SELECT p.accession, p.canonical_accession, p.is_canonical, p.isoform_index, p.entry_name, p.protein_name,
              p.gene_name, p.organism, p.taxonomy_id, p.length, p.reviewed, p.sequence_id, s.sequence_hash, s.sequence
         FROM protein p LEFT JOIN sequence s ON s.id = p.sequence_id
        WHERE ${where} ORDER BY p.accession`,
      params,
    );
  const totals = async () => ({
    proteins: await count('SELECT count(*)::int AS n FROM protein'),
    sequences: await count('SELECT count(*)::int AS n FROM sequence'),
    metadata: await count('SELECT count(*)::int AS n FROM protein_uniprot_metadata'),
  });

  const runJob = async (path: string, body: unknown): Promise<Job> => {
    const queued = await api.post<{ id: string; status: string }>(path, body);
    expect(queued.status).toBe(201);
    expect(queued.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'queued' });
    return waitFor(
      async () => {
        const job = (await api.get<Job>(`/v1/jobs/${queued.body.id}`)).body;
        return ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(job.status) ? job : undefined;
      },
      { timeoutMs: 50_000, intervalMs: 100, what: `job ${queued.body.id}` },
    );
  };
  /** The requests the stand-in received since `from`. */
  const requestsSince = (from: number): Recorded[] => uniprot.requests.slice(from);

  let world: SuiteWorld | undefined;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'proteins-it-'));
    const base = await uniprot.start(await freePort());
    // The first request of the run is refused once, and the first follow-up page is throttled once.
    uniprot.faults.push(
      { status: 503, when: () => true },
      { status: 429, headers: { 'retry-after': '1' }, when: (url) => url.searchParams.has('cursor') },
    );
    // A database of its own: the tests count every protein row, which other suites also write.
    world = await createSuiteWorld('proteins');
    gateway = await createGateway(testConfig(world.env));
    api = new HttpClient(gateway.url);
    worker = await spawnApp('ingestion-worker', { ...world.env, SVC_UNIPROT_BASE_URL: base });
    await worker.waitForLog('worker started');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
    await uniprot.stop();
    await world?.dispose();
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  describe('insert_proteins', () => {
    const human = SERVED_CANONICAL.filter((e) => e.species === HUMAN);

    it('by search: pages with size/query/fields, retries 503 and 429, stores proteins and MD5-deduplicated sequences', async () => {
      expect(pages(human.length, 7)).toBeGreaterThan(2);
      const job = await runJob('/v1/proteins/insert', { search_criteria: 'organism_id:9606', page_size: 7 });
      expect(job.error_message).toBeNull();
      expect(job.status).toBe('SUCCEEDED');
      expect(job.result).toEqual({
        proteins: human.length,
        sequences: distinct(human),
        skipped: 0,
        pages: pages(human.length, 7),
        problems: 0,
        problem_samples: [],
      });
      expect(job).toMatchObject({ progress_current: human.length, progress_total: human.length });

      const requests = uniprot.requests;
      expect(requests.map((r) => r.status)).toEqual([
        503,
        200,
        429,
        ...Array<number>(pages(human.length, 7) - 1).fill(200),
      ]);
      // The retried requests repeat the URL; the 429 retry waits for Retry-After (1 s).
      expect(requests[1]!.url.href).toBe(requests[0]!.url.href);
      expect(requests[3]!.url.href).toBe(requests[2]!.url.href);
      expect(requests[3]!.at - requests[2]!.at).toBeGreaterThanOrEqual(900);
      for (const { url } of requests) {
        expect(url.pathname).toBe('/uniprotkb/search');
        expect(url.searchParams.get('query')).toBe('organism_id:9606');
        expect(url.searchParams.get('format')).toBe('tsv');
        expect(url.searchParams.get('fields')).toBe(SEARCH_FIELDS);
        expect(url.searchParams.get('size')).toBe('7');
        expect(url.searchParams.has('includeIsoform')).toBe(false);
      }
      // Every follow-up page is the Link target of the page before it.
      const cursors = requests.filter((r) => r.status === 200).map((r) => r.url.searchParams.get('cursor'));
      expect(cursors[0]).toBeNull();
      expect(new Set(cursors.slice(1)).size).toBe(cursors.length - 1);

      const rows = await proteinRows();
      expect(rows.map(({ sequence_id: _id, sequence: _s, ...row }) => row)).toEqual(
        [...human].sort((a, b) => a.accession.localeCompare(b.accession)).map((e) => expectedRow(e)),
      );
      for (const row of rows) expect(row.sequence_hash).toBe(md5(row.sequence!));
      expect(await totals()).toEqual({ proteins: human.length, sequences: distinct(human), metadata: 0 });
      const [first, second] = [ALL[0]!, ALL[1]!].map((e) => rows.find((r) => r.accession === e.accession)!);
      expect(first!.sequence_id).not.toBeNull();
      expect(second!.sequence_id).toBe(first!.sequence_id);

      const events = await api.get<{ event: string }[]>(`/v1/jobs/${job.id}/events`);
      expect(events.body.filter((e) => e.event === 'insert_proteins.page')).toHaveLength(
        pages(human.length, 7),
      );
      expect(events.body.map((e) => e.event)).toContain('insert_proteins.done');
    });

    it('running the same search again changes nothing', async () => {
      const before = await proteinRows();
      const from = uniprot.requests.length;
      const job = await runJob('/v1/proteins/insert', { search_criteria: 'organism_id:9606', page_size: 7 });
      expect(job.status).toBe('SUCCEEDED');
      expect(job.result).toMatchObject({
        proteins: human.length,
        sequences: distinct(human),
        pages: pages(human.length, 7),
      });
      expect(requestsSince(from).every((r) => r.status === 200)).toBe(true);
      expect(await proteinRows()).toEqual(before);
      expect(await totals()).toEqual({ proteins: human.length, sequences: distinct(human), metadata: 0 });
    });

    it('with include_isoforms asks for isoforms and stores them under their canonical entry', async () => {
      const from = uniprot.requests.length;
      const served = SERVED.filter((e) => e.species === HUMAN);
      expect(served.length).toBe(human.length + ISOFORMS.length);
      const job = await runJob('/v1/proteins/insert', {
        search_criteria: 'organism_id:9606',
        page_size: 7,
        include_isoforms: true,
      });
      expect(job.status).toBe('SUCCEEDED');
      expect(job.result).toMatchObject({
        proteins: served.length,
        sequences: distinct(served),
        skipped: 0,
        pages: pages(served.length, 7),
      });
      for (const { url } of requestsSince(from)) expect(url.searchParams.get('includeIsoform')).toBe('true');
      const isoforms = await proteinRows('NOT p.is_canonical');
      expect(isoforms.map(({ sequence_id: _id, sequence: _s, ...row }) => row)).toEqual(
        ISOFORMS.map((e) => expectedRow(e)),
      );
      expect(isoforms.map((r) => r.canonical_accession)).toEqual(
        [ALL[0]!, ALL[0]!, ALL[2]!].map((e) => e.accession),
      );
      expect(await totals()).toEqual({ proteins: served.length, sequences: distinct(served), metadata: 0 });
    });

    it('from a UniProt FASTA file (file:// URL): headers give the fields, isoforms skipped unless asked', async () => {
      const path = join(workDir, 'uniprot-export.fasta');
      writeFileSync(path, fastaOf([FASTA_ENTRIES[0]!, FASTA_ISOFORM, ...FASTA_ENTRIES.slice(1)]));
      const before = await totals();
      const statsBefore = await api.get<{ proteins: number }>('/v1/proteins/stats');
      const job = await runJob('/v1/proteins/insert', { source_url: pathToFileURL(path).href });
      expect(job.error_message).toBeNull();
      // The cached statistics follow the finished load at once, not after their 5-minute lifetime.
      await waitFor(
        async () => {
          const stats = await api.get<{ proteins: number }>('/v1/proteins/stats');
          return stats.body.proteins === statsBefore.body.proteins + FASTA_ENTRIES.length ? true : undefined;
        },
        { timeoutMs: 5000, what: 'the protein statistics to count the loaded proteins' },
      );
      expect(job.result).toEqual({
        proteins: FASTA_ENTRIES.length,
        sequences: FASTA_ENTRIES.length,
        skipped: 1,
        pages: 1,
        problems: 0,
        problem_samples: [],
      });
      const rows = await proteinRows('p.accession = ANY($1)', [FASTA_ENTRIES.map((e) => e.accession)]);
      expect(rows.map(({ sequence_id: _id, sequence: _s, ...row }) => row)).toEqual(
        FASTA_ENTRIES.map((e) => expectedRow(e, 'scientific')),
      );
      expect(FASTA_ENTRIES.some((e) => !e.reviewed)).toBe(true);
      // What the dashboards show: the list and the detail carry the header's fields, the protein name
      // ('Test protein 34', the text before OS=) beside the entry name.
      for (const e of FASTA_ENTRIES) {
        const shown = {
          accession: e.accession,
          entry_name: e.entryName,
          protein_name: e.proteinName,
          gene_name: e.gene,
          organism: e.species.scientific,
          taxonomy_id: e.species.taxonomyId,
          reviewed: e.reviewed,
        };
        const listed = await api.get<ProteinList>(`/v1/proteins?search=${e.accession}`);
        expect(listed.body.items).toEqual([expect.objectContaining(shown)]);
        const detail = await api.get<Record<string, unknown>>(`/v1/proteins/${e.accession}`);
        expect(detail.status).toBe(200);
        expect(detail.body).toMatchObject(shown);
      }
      expect(
        await count('SELECT count(*)::int AS n FROM protein WHERE accession = $1', [FASTA_ISOFORM.accession]),
      ).toBe(0);
      expect(await totals()).toEqual({
        ...before,
        proteins: before.proteins + FASTA_ENTRIES.length,
        sequences: before.sequences + FASTA_ENTRIES.length,
      });
    });

    it('a large FASTA export is stored in chunks of 5,000 entries as it is read, duplicates still found across chunks', async () => {
      const n = 12_345;
      const accession = (i: number): string => `P9${i.toString(36).toUpperCase().padStart(3, '0')}9`;
      const residues = 'ACDEFGHIKLMNPQRSTVWY';
      const sequence = (i: number): string =>
        `M${[...i.toString(20).padStart(4, '0')].map((d) => residues[parseInt(d, 20)]).join('')}KLV`;
      const records = Array.from(
        { length: n },
        (_, i) => `>sp|${accession(i)}|T${i}_HUMAN Test OX=9606\n${sequence(i)}`,
      );
      records.push(`>sp|${accession(3)}|AGAIN_HUMAN Test OX=9606\n${sequence(3)}`);
      const path = join(workDir, 'large-export.fasta');
      writeFileSync(path, `${records.join('\n')}\n`);
      const before = await totals();
      const accessions = Array.from({ length: n }, (_, i) => accession(i));
      try {
        const job = await runJob('/v1/proteins/insert', { source_url: path });
        expect(job.error_message).toBeNull();
        expect(job.result).toMatchObject({ proteins: n, sequences: n, skipped: 0, pages: 3, problems: 1 });
        expect(JSON.stringify(job.result!['problem_samples'])).toContain('duplicate');
        expect(await totals()).toMatchObject({
          proteins: before.proteins + n,
          sequences: before.sequences + n,
        });
      } finally {
        // The other cases list and count the proteins: these go again.
        const ids = await sql<{ sequence_id: number }>(
          'DELETE FROM protein WHERE accession = ANY($1) RETURNING sequence_id',
          [accessions],
        );
        await sql('DELETE FROM sequence WHERE id = ANY($1)', [ids.map((r) => r.sequence_id)]);
      }
    });

    it('from a gzip-compressed UniProt TSV export (plain path), isoforms included', async () => {
      const path = join(workDir, 'uniprot-export.tsv.gz');
      const entries = [TSV_ENTRIES[0]!, TSV_ISOFORM, ...TSV_ENTRIES.slice(1)];
      writeFileSync(path, gzipSync(tsvOf(entries)));
      const before = await totals();
      const job = await runJob('/v1/proteins/insert', { source_url: path, include_isoforms: true });
      expect(job.error_message).toBeNull();
      expect(job.result).toEqual({
        proteins: entries.length,
        sequences: entries.length,
        skipped: 0,
        pages: 1,
        problems: 0,
        problem_samples: [],
      });
      const rows = await proteinRows('p.canonical_accession = ANY($1)', [
        TSV_ENTRIES.map((e) => e.accession),
      ]);
      expect(rows.map(({ sequence_id: _id, sequence: _s, ...row }) => row)).toEqual(
        [...entries].sort((a, b) => a.accession.localeCompare(b.accession)).map((e) => expectedRow(e)),
      );
      // The "Protein names" column, as the list and the detail show it.
      for (const e of entries) {
        const shown = { accession: e.accession, entry_name: e.entryName, protein_name: e.proteinName };
        const listed = await api.get<ProteinList>(`/v1/proteins?search=${e.accession}&canonical_only=false`);
        expect(listed.body.items).toContainEqual(expect.objectContaining(shown));
        expect((await api.get<Record<string, unknown>>(`/v1/proteins/${e.accession}`)).body).toMatchObject(
          shown,
        );
      }
      expect(await totals()).toEqual({
        ...before,
        proteins: before.proteins + entries.length,
        sequences: before.sequences + entries.length,
      });
    });

    it('re-loading TSV-loaded proteins from a FASTA never blanks their fields: plain headers, hostile values', async () => {
      const [plain, tagged, hostile] = TSV_ENTRIES as [Entry, Entry, Entry];
      const reloaded = () =>
        proteinRows('p.canonical_accession = ANY($1)', [TSV_ENTRIES.map((e) => e.accession)]);
      const before = await reloaded();
      expect(
        before.every((r) => r.entry_name && r.protein_name && r.gene_name && r.organism && r.taxonomy_id),
      ).toBe(true);
      const wrap = (sequence: string): string => (sequence.match(/.{1,60}/g) ?? []).join('\n');
      const db = (e: Entry): string => (e.reviewed ? 'sp' : 'tr');
      const headers = [
        // As the shared data set's FASTA: the accession and a note, no tags.
        `>${plain.accession} source=metastudent-data/dataset_201401 (UniProtKB/Swiss-Prot ~2014-01)`,
        // As the Swiss-Prot 2014 conversion writes (docs/reference.md): no entry name, no tags.
        `>${db(tagged)}|${tagged.accession}| Test protein`,
        // Every value unusable: too long, no taxon id, no entry-name token, hidden characters only.
        `>${db(hostile)}|${hostile.accession}|${'E'.repeat(40)} ${'N'.repeat(600)} OS=${'O'.repeat(600)} OX=99999999999 GN=\u200b\u0085`,
      ];
      const path = join(workDir, 'reload.fasta');
      writeFileSync(
        path,
        `${[plain, tagged, hostile].map((e, i) => `${headers[i]}\n${wrap(e.sequence)}`).join('\n')}\n`,
      );
      const job = await runJob('/v1/proteins/insert', { source_url: path });
      expect(job.error_message).toBeNull();
      expect(job.result).toMatchObject({ proteins: 3, sequences: 3, skipped: 0, problems: 0 });
      // A description the header does state is a protein name, and replaces the stored one (as an OS=
      // does the organism); the 600-character one is dropped, so the TSV's name stays.
      const renamed = (r: (typeof before)[number]) =>
        r.accession === tagged.accession ? { ...r, protein_name: 'Test protein' } : r;
      expect(await reloaded()).toEqual(before.map(renamed));
      for (const e of [plain, tagged, hostile]) {
        const detail = await api.get<Record<string, unknown>>(`/v1/proteins/${e.accession}`);
        expect(detail.body).toMatchObject({
          entry_name: e.entryName,
          protein_name: e === tagged ? 'Test protein' : e.proteinName,
          gene_name: e.gene,
          organism: e.species.display,
          taxonomy_id: e.species.taxonomyId,
          reviewed: e.reviewed,
        });
      }
    });

    it('a query UniProt rejects (400) fails with invalid_search and stores nothing', async () => {
      const before = await totals();
      const from = uniprot.requests.length;
      const job = await runJob('/v1/proteins/insert', {
        search_criteria: 'organism_id:9606 AND (reviewed:true',
      });
      expect(job).toMatchObject({ status: 'FAILED', error_code: 'invalid_search' });
      expect(job.error_message).toContain('invalid syntax');
      // A 400 is final: no retries.
      expect(requestsSince(from).map((r) => r.status)).toEqual([400]);
      expect(requestsSince(from)[0]!.url.searchParams.get('size')).toBe('500');
      expect(await totals()).toEqual(before);
    });

    it('rejects bad bodies with 422 problem+json', async () => {
      const cases: [unknown, string][] = [
        [{}, 'search_criteria'],
        [{ search_criteria: '' }, 'search_criteria'],
        [{ search_criteria: '*', page_size: 501 }, 'page_size'],
        [{ search_criteria: '*', page_size: 0 }, 'page_size'],
        [{ search_criteria: '*', page_size: 2.5 }, 'page_size'],
        [{ search_criteria: '*', include_isoforms: 'yes' }, 'include_isoforms'],
        [{ search_criteria: '*', surprise: 1 }, 'surprise'],
      ];
      for (const [body, path] of cases) {
        const res = await api.post<Problem>('/v1/proteins/insert', body);
        expectProblem(res, 422, '/problems/validation-error');
        expect(res.body.errors?.map((e) => e.path)).toContain(path);
      }
      for (const body of [
        {},
        { search_criteria: '*', page_size: 1000 },
        { search_criteria: '*', update_protein_core: 1 },
        { search_criteria: '*', max_pages: 0 },
        // Within the schema, over the operators' page cap (SVC_UNIPROT_PAGE_CAP_OPERATOR).
        { search_criteria: '*', max_pages: 10_001 },
      ]) {
        expectProblem(await api.post('/v1/proteins/fetch-metadata', body), 422, '/problems/validation-error');
      }
    });
  });

  describe('fetch_uniprot_metadata', () => {
    const metadataFields = ['accession', ...Object.keys(METADATA_LABELS)];

    it('upserts metadata by canonical accession for the entries of a search; GET /proteins/{acc} shows it', async () => {
      const human = SERVED_CANONICAL.filter((e) => e.species === HUMAN);
      const before = await totals();
      const from = uniprot.requests.length;
      const job = await runJob('/v1/proteins/fetch-metadata', {
        search_criteria: 'organism_id:9606',
        page_size: 10,
      });
      expect(job.error_message).toBeNull();
      // Within the operators' caps (the credential gate is off: every caller is staff).
      expect(job.result).toEqual({
        pages: pages(human.length, 10),
        entries: human.length,
        proteins_updated: 0,
        problems: 0,
        max_rows: 1_000_000,
        max_pages: 10_000,
        stopped_at_cap: false,
      });
      for (const { url } of requestsSince(from)) {
        expect(url.searchParams.get('query')).toBe('organism_id:9606');
        expect(url.searchParams.get('size')).toBe('10');
        expect(url.searchParams.get('format')).toBe('tsv');
        expect(url.searchParams.get('fields')?.split(',').sort()).toEqual([...metadataFields].sort());
      }
      expect(await totals()).toEqual({ ...before, metadata: human.length });
      const stored = await sql<{ canonical_accession: string }>(
        'SELECT canonical_accession FROM protein_uniprot_metadata ORDER BY 1',
      );
      expect(stored.map((r) => r.canonical_accession)).toEqual(human.map((e) => e.accession).sort());

      const detail = await api.get<
        Record<string, unknown> & { metadata: Record<string, string | null> | null }
      >(`/v1/proteins/${ALL[0]!.accession}`);
      expect(detail.status).toBe(200);
      expect(detail.body.metadata).toEqual({
        absorption: null,
        active_site: null,
        activity_regulation: null,
        binding_site: null,
        catalytic_activity: ALL[0]!.metadata['cc_catalytic_activity'],
        cofactor: null,
        dna_binding: null,
        ec_number: '3.6.4.12',
        features: null,
        function_cc: ALL[0]!.metadata['cc_function'],
        keywords: 'ATP-binding;Hydrolase;Nucleotide-binding',
        kinetics: null,
        pathway: null,
        ph_dependence: null,
        redox_potential: null,
        rhea_id: 'RHEA:13065',
        site: null,
        temperature_dependence: null,
      });
      // An isoform shows the metadata of its canonical entry.
      const isoformDetail = await api.get<{ metadata: Record<string, string | null> }>(
        `/v1/proteins/${ISOFORMS[2]!.accession}`,
      );
      expect(isoformDetail.body.metadata).toMatchObject({
        function_cc: 'FUNCTION: Binds DNA.',
        cofactor: 'COFACTOR: Name=Mg(2+)',
      });
      // A protein loaded from a file, not covered by the search, has none.
      expect(
        (await api.get<{ metadata: unknown }>(`/v1/proteins/${FASTA_ENTRIES[0]!.accession}`)).body.metadata,
      ).toBeNull();
    });

    it('stops at max_pages without asking for the next page, and says so in its result', async () => {
      const human = SERVED_CANONICAL.filter((e) => e.species === HUMAN);
      expect(human.length).toBeGreaterThan(10);
      const before = await totals();
      const from = uniprot.requests.length;
      const job = await runJob('/v1/proteins/fetch-metadata', {
        search_criteria: 'organism_id:9606',
        page_size: 5,
        max_pages: 2,
      });
      expect(job.error_message).toBeNull();
      expect(job.result).toEqual({
        pages: 2,
        entries: 10,
        proteins_updated: 0,
        problems: 0,
        max_rows: 10,
        max_pages: 2,
        stopped_at_cap: true,
      });
      expect(job).toMatchObject({ progress_current: 10, progress_total: 10 });
      expect(requestsSince(from).map((r) => r.status)).toEqual([200, 200]);
      const events = await api.get<{ event: string; message: string | null }[]>(`/v1/jobs/${job.id}/events`);
      const capped = events.body.find((e) => e.event === 'fetch_uniprot_metadata.capped');
      expect(capped?.message).toBe(
        `stopped at the cap of 10 rows or 2 pages; the search has ${human.length} results`,
      );
      // The rows it read were stored before (the search above): nothing new.
      expect(await totals()).toEqual(before);
    });

    it('with update_protein_core refreshes the names and organism of loaded proteins only; running again is safe', async () => {
      // UniProt has revised two entries since they were loaded.
      const renamed = ALL[3]!;
      const moved = ALL[6]!;
      renamed.gene = 'NEWGENE3';
      moved.species = CHIMP;
      const before = await totals();
      const loaded = SERVED_CANONICAL.filter((e) => e.species !== MOUSE);
      const body = { search_criteria: '*', page_size: 10, update_protein_core: true };
      const from = uniprot.requests.length;
      const job = await runJob('/v1/proteins/fetch-metadata', body);
      expect(job.error_message).toBeNull();
      const expected = {
        pages: pages(SERVED_CANONICAL.length, 10),
        entries: SERVED_CANONICAL.length,
        proteins_updated: loaded.length,
        problems: 0,
        max_rows: 1_000_000,
        max_pages: 10_000,
        stopped_at_cap: false,
      };
      expect(job.result).toEqual(expected);
      for (const { url } of requestsSince(from)) {
        expect(url.searchParams.get('fields')?.split(',').sort()).toEqual(
          [...metadataFields, ...CORE_FIELDS.split(',')].sort(),
        );
      }
      const [renamedRow] = await proteinRows('p.accession = $1', [renamed.accession]);
      expect(renamedRow).toMatchObject({ gene_name: 'NEWGENE3', organism: HUMAN.display });
      const [movedRow] = await proteinRows('p.accession = $1', [moved.accession]);
      expect(movedRow).toMatchObject({
        organism: CHIMP.display,
        taxonomy_id: CHIMP.taxonomyId,
        gene_name: moved.gene,
      });
      expect(movedRow!.sequence_hash).toBe(md5(moved.sequence));
      // Entries that were never loaded get metadata but no protein row.
      const mouse = SERVED_CANONICAL.filter((e) => e.species === MOUSE);
      expect(
        await count('SELECT count(*)::int AS n FROM protein WHERE accession = ANY($1)', [
          mouse.map((e) => e.accession),
        ]),
      ).toBe(0);
      expect(await totals()).toEqual({ ...before, metadata: SERVED_CANONICAL.length });
      const [mouseMetadata] = await sql<{ function_cc: string }>(
        'SELECT function_cc FROM protein_uniprot_metadata WHERE canonical_accession = $1',
        [ALL[5]!.accession],
      );
      expect(mouseMetadata).toEqual({ function_cc: 'FUNCTION: Mouse-only function.' });

      const rows = await proteinRows();
      const again = await runJob('/proteins/fetch-metadata', body);
      expect(again.result).toEqual(expected);
      expect(await totals()).toEqual({ ...before, metadata: SERVED_CANONICAL.length });
      expect(await proteinRows()).toEqual(rows);
    });
  });

  describe('GET /proteins', () => {
    type Row = ProteinRow & { sequence_id: number | null };
    let all: Row[];
    const canonical = (): Row[] => all.filter((r) => r.is_canonical);
    const matching = (term: string, rows: Row[] = canonical()): string[] =>
      rows
        .filter((r) =>
          [r.accession, r.entry_name, r.protein_name, r.gene_name, r.organism].some((v) =>
            v?.toLowerCase().includes(term.toLowerCase()),
          ),
        )
        .map((r) => r.accession);
    const list = (query: string, prefix = '/v1') => api.get<ProteinList>(`${prefix}/proteins${query}`);

    beforeAll(async () => {
      all = await sql<Row>(
        `SELECT accession, canonical_accession, is_canonical, isoform_index, entry_name, protein_name, gene_name,
                organism, taxonomy_id, length, reviewed, sequence_id FROM protein ORDER BY accession`,
      );
    });

    it('lists canonical proteins by accession, 50 at most, by default', async () => {
      expect(all.length).toBeGreaterThan(canonical().length);
      const res = await list('');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: canonical().length, limit: 50, offset: 0 });
      expect(res.body.items.map((p) => p.accession)).toEqual(
        canonical()
          .map((r) => r.accession)
          .slice(0, 50),
      );
      expect(res.body.items[0]).toEqual({
        ...all.find((r) => r.accession === res.body.items[0]!.accession),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const everything = await list('?canonical_only=false&limit=1000');
      expect(everything.body.total).toBe(all.length);
      expect(everything.body.items.map((p) => p.accession)).toEqual(all.map((r) => r.accession));
    });

    it('searches accession, entry name, protein name, gene and organism, ignoring case', async () => {
      const searches = [
        ALL[7]!.accession.toLowerCase(),
        ALL[7]!.accession.slice(0, 3),
        `${ALL[0]!.gene}_hum`,
        '_MOUSE',
        'newgene3',
        'g1',
        'pan TROGLODYTES',
        'mus musculus',
        'homo sapiens',
        'TEST PROTEIN 3',
        `protein ${ALL.length - 1}`,
        '%',
        'nothing-like-this',
      ];
      for (const search of searches) {
        const res = await list(`?search=${encodeURIComponent(search)}&limit=1000`);
        expect(res.status).toBe(200);
        const expected = matching(search);
        expect({ search, found: res.body.items.map((p) => p.accession) }).toEqual({
          search,
          found: expected,
        });
        expect(res.body.total).toBe(expected.length);
      }
      expect(matching('mus musculus')).toEqual([FASTA_ENTRIES[1]!.accession]);
      expect(matching('_hum').length).toBeGreaterThan(0);
      // Only the protein name holds it.
      expect(matching(`protein ${ALL.length - 1}`)).toEqual([ALL[ALL.length - 1]!.accession]);
      // Isoforms appear once canonical_only is off.
      const withIsoforms = await list(`?search=${ALL[0]!.accession}&canonical_only=false`);
      expect(withIsoforms.body.items.map((p) => p.accession)).toEqual([
        ALL[0]!.accession,
        ISOFORMS[0]!.accession,
        ISOFORMS[1]!.accession,
      ]);
    });

    it('filters on reviewed, combined with a search', async () => {
      for (const reviewed of [true, false]) {
        const res = await list(`?reviewed=${reviewed}&limit=1000`);
        const expected = canonical().filter((r) => r.reviewed === reviewed);
        expect(expected.length).toBeGreaterThan(0);
        expect(res.body.total).toBe(expected.length);
        expect(res.body.items.map((p) => p.accession)).toEqual(expected.map((r) => r.accession));
      }
      const combined = await list('?reviewed=1&search=homo&limit=1000');
      const expected = canonical().filter(
        (r) => r.reviewed === true && r.organism?.toLowerCase().includes('homo'),
      );
      expect(combined.body.items.map((p) => p.accession)).toEqual(expected.map((r) => r.accession));
    });

    it('pages with limit and offset, the total unchanged', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < canonical().length + 7; offset += 7) {
        const res = await list(`?limit=7&offset=${offset}`);
        expect(res.body).toMatchObject({ total: canonical().length, limit: 7, offset });
        seen.push(...res.body.items.map((p) => p.accession));
      }
      expect(seen).toEqual(canonical().map((r) => r.accession));
      const past = await list(`?offset=${canonical().length}`);
      expect(past.body.items).toEqual([]);
      expect(past.body.total).toBe(canonical().length);
    });

    it('rejects bad parameters with 422 problem+json', async () => {
      const cases: [string, string][] = [
        ['limit=0', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=1.5', 'limit'],
        ['offset=-1', 'offset'],
        ['reviewed=maybe', 'reviewed'],
        ['canonical_only=sometimes', 'canonical_only'],
        [`search=${'x'.repeat(201)}`, 'search'],
      ];
      for (const [query, path] of cases) {
        const res = await list(`?${query}`);
        expectProblem(res, 422, '/problems/validation-error');
        expect((res.body as unknown as Problem).errors?.map((e) => e.path)).toContain(path);
      }
    });

    it('GET /proteins/{accession}: core fields, counts and isoforms; 404 problem for unknown accessions', async () => {
      const res = await api.get<Record<string, unknown>>(`/v1/proteins/${ALL[0]!.accession}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ...all.find((r) => r.accession === ALL[0]!.accession),
        embedding_count: 0,
        go_annotation_count: 0,
        isoform_accessions: [ISOFORMS[0]!.accession, ISOFORMS[1]!.accession],
      });
      const iso = await api.get<Record<string, unknown>>(`/v1/proteins/${ISOFORMS[0]!.accession}`);
      expect(iso.body).toMatchObject({
        accession: ISOFORMS[0]!.accession,
        canonical_accession: ALL[0]!.accession,
        is_canonical: false,
        isoform_index: 2,
        isoform_accessions: [],
      });
      const plain = await api.get<Record<string, unknown>>(`/v1/proteins/${ALL[10]!.accession}`);
      expect(plain.body['isoform_accessions']).toEqual([]);
      for (const accession of [
        'P99999',
        ALL[0]!.accession.toLowerCase(),
        `${ALL[0]!.accession}-9`,
        'not an accession',
      ]) {
        const missing = await api.get<Problem>(`/v1/proteins/${encodeURIComponent(accession)}`);
        expectProblem(missing, 404, '/problems/not-found');
        expect(missing.body.detail).toBe('Protein not found');
      }
    });

    it('GET /proteins/stats: cached with cached_at and stale; totals match the database once recomputed', async () => {
      const first = await api.get<Record<string, unknown>>('/v1/proteins/stats');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        cached_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        stale: false,
      });
      const second = await api.get<Record<string, unknown>>('/v1/proteins/stats');
      expect(second.body['cached_at']).toBe(first.body['cached_at']);

      gateway.app.get(ReferenceService, { strict: false }).proteinStats.invalidate();
      const fresh = await api.get<Record<string, unknown>>('/v1/proteins/stats');
      expect(Date.parse(fresh.body['cached_at'] as string)).toBeGreaterThanOrEqual(
        Date.parse(first.body['cached_at'] as string),
      );
      const withMetadata = new Set(
        (await sql<{ a: string }>('SELECT canonical_accession AS a FROM protein_uniprot_metadata')).map(
          (r) => r.a,
        ),
      );
      expect(fresh.body).toEqual({
        proteins: all.length,
        canonical: canonical().length,
        isoforms: all.length - canonical().length,
        reviewed: all.filter((r) => r.reviewed === true).length,
        with_metadata: all.filter((r) => withMetadata.has(r.canonical_accession)).length,
        with_go_annotations: 0,
        with_embeddings: 0,
        // The proteins' sequences: the public statistics leave out what only query sets uploaded.
        sequences: await count('SELECT count(DISTINCT sequence_id)::int AS n FROM protein'),
        cached_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        stale: false,
      });
      expect(fresh.body['sequences']).toBe(new Set(all.map((r) => r.sequence_id)).size);
      const legacy = await api.get<Record<string, unknown>>('/proteins/stats');
      expect(legacy.body).toEqual(fresh.body);
    });

    it('GET /proteins/{accession}/annotations: [] without annotations; 404 and 422 problems', async () => {
      const empty = await api.get<unknown[]>(`/v1/proteins/${ALL[0]!.accession}/annotations`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual([]);
      expectProblem(await api.get('/v1/proteins/P99999/annotations'), 404, '/problems/not-found');
      const malformed = await api.get<Problem>(
        `/v1/proteins/${ALL[0]!.accession}/annotations?annotation_set_id=42`,
      );
      expectProblem(malformed, 422, '/problems/validation-error');
      expect(malformed.body.errors?.map((e) => e.path)).toContain('annotation_set_id');
      const unknown = await api.get<Problem>(
        `/v1/proteins/${ALL[0]!.accession}/annotations?annotation_set_id=${randomUUID()}`,
      );
      expectProblem(unknown, 404, '/problems/not-found');
      expect(unknown.body.detail).toBe('Annotation set not found');
    });

    it('answers the same under the legacy root path', async () => {
      const search = `?search=${ALL[0]!.gene}&canonical_only=false`;
      const [v1, legacy] = await Promise.all([list(search), list(search, '')]);
      expect(legacy.status).toBe(200);
      expect(legacy.body).toEqual(v1.body);
      const detail = await api.get(`/proteins/${ALL[0]!.accession}`);
      expect(detail.body).toEqual((await api.get(`/v1/proteins/${ALL[0]!.accession}`)).body);
      expectProblem(await api.get('/proteins/P99999'), 404, '/problems/not-found');
      expectProblem(await api.get('/proteins?limit=0'), 422, '/problems/validation-error');
      expect((await api.get(`/proteins/${ALL[0]!.accession}/annotations`)).body).toEqual([]);
    });
  });

  // Last: it stops the stand-in server.
  describe('when UniProt is unreachable', () => {
    it('insert_proteins fails with source_unreachable after the retries', async () => {
      await uniprot.stop();
      const before = await totals();
      const started = Date.now();
      const job = await runJob('/v1/proteins/insert', { search_criteria: 'organism_id:9606', page_size: 7 });
      expect(job).toMatchObject({ status: 'FAILED', error_code: 'source_unreachable' });
      expect(job.error_message).toMatch(/UniProt did not answer/);
      // Four retries with backoff from 500 ms: at least 0.5 + 1 + 2 + 4 s.
      expect(Date.now() - started).toBeGreaterThanOrEqual(7_000);
      expect(await totals()).toEqual(before);
    });
  });
});
