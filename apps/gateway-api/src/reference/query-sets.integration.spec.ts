import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HttpClient, HttpResult, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const TINY_FASTA = resolve(__dirname, '../../../../../shared/data/tiny/sequences.fasta');
/** The documented upload limit for a query-set FASTA file. */
const FASTA_LIMIT_BYTES = 50 * 1024 * 1024;
const STANDARD_RESIDUES = 'ACDEFGHIKLMNPQRSTVWY';

interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: { path: string; message: string }[];
}
interface Created {
  id: string;
  name: string;
  description: string | null;
  entry_count: number;
  unique_sequences: number;
}
interface Listed {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  entry_count: number;
}
interface Entry {
  id: number;
  accession: string;
  sequence_id: number;
  species: string | null;
  taxonomy_id: number | null;
  gene_name: string | null;
  length: number;
  sequence_hash: string;
}
interface Detail extends Listed {
  entries: Entry[];
}

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** A random sequence of standard residues, so that each test owns its sequence rows. */
function randomSequence(length: number): string {
  return [...randomBytes(length)].map((byte) => STANDARD_RESIDUES[byte % STANDARD_RESIDUES.length]).join('');
}

function wrap(sequence: string, width: number): string {
  const lines: string[] = [];
  for (let start = 0; start < sequence.length; start += width)
    lines.push(sequence.slice(start, start + width));
  return lines.join('\n');
}

/** Records of a FASTA text read without the service's parser: first header token and joined residues. */
function readRecords(text: string): { identifier: string; sequence: string }[] {
  const records: { identifier: string; sequence: string }[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('>'))
      records.push({ identifier: line.slice(1).trim().split(/\s+/)[0] ?? '', sequence: '' });
    else if (records.length > 0) records[records.length - 1]!.sequence += line.trim().toUpperCase();
  }
  return records;
}

describe('Query sets over HTTP (real PostgreSQL)', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    gateway = await createGateway(testConfig({ SVC_FASTA_UPLOAD_LIMIT_BYTES: String(FASTA_LIMIT_BYTES) }));
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  /** POSTs multipart/form-data; `file: null` leaves the file part out. */
  async function upload<T>(
    file: string | Uint8Array | null,
    fields: Record<string, string> = {},
    path = '/v1/query-sets',
    fileField = 'file',
  ): Promise<HttpResult<T>> {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    if (file !== null) form.append(fileField, new Blob([file], { type: 'text/plain' }), 'queries.fasta');
    const response = await fetch(`${gateway.url}${path}`, { method: 'POST', body: form });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const body = (type.includes('json') && text.length > 0 ? JSON.parse(text) : text) as T;
    return { status: response.status, headers: response.headers, body, text };
  }

  function expectProblem(res: HttpResult<unknown>, status: number, slug: string): Problem {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = res.body as Problem;
    expect(problem).toMatchObject({ type: `/problems/${slug}`, status });
    return problem;
  }

  async function sequenceRows(
    hashes: string[],
  ): Promise<{ id: number; sequence: string; sequence_hash: string }[]> {
    return gateway.infra.db.query(
      `SELECT id, sequence, sequence_hash FROM sequence WHERE sequence_hash = ANY($1) ORDER BY id`,
      [hashes],
    );
  }

  async function listNames(): Promise<string[]> {
    const res = await api.get<Listed[]>('/v1/query-sets');
    expect(res.status).toBe(200);
    return res.body.map((set) => set.name);
  }

  describe('a valid upload', () => {
    // s1 appears twice, under a Swiss-Prot and a TrEMBL header, lower case and upper case, wrapped differently.
    const s1 = randomSequence(130);
    const s2 = randomSequence(75);
    const s3 = randomSequence(42);
    const s4 = randomSequence(61);
    const fasta = [
      '>sp|P12345|ABC_HUMAN Alpha protein OS=Homo sapiens OX=9606 GN=ABC PE=1 SV=1',
      wrap(s1.toLowerCase(), 60),
      '>query1 some text',
      wrap(s2.toLowerCase(), 50),
      '>tr|Q8XYZ9|Q8XYZ9_MOUSE Same residues as P12345 OS=Mus musculus OX=10090',
      wrap(s1, 70),
      '>query2',
      wrap(`${s3.slice(0, 20).toLowerCase()}${s3.slice(20)}`, 13),
      '>query3 no taxon OS=Escherichia coli',
      wrap(s4, 60),
      '',
    ].join('\n');
    const hashes = [s1, s2, s3, s4].map(md5);
    let first: Created;
    let second: Created;

    it('POST /v1/query-sets gives 201 with entry and distinct-sequence counts', async () => {
      const res = await upload<Created>(fasta, { name: '  Mixed headers  ', description: ' five records ' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Mixed headers',
        description: 'five records',
        entry_count: 5,
        unique_sequences: 4,
        entries_with_known_terms: 0,
      });
      first = res.body;
    });

    it('the detail keeps header identifiers, species, taxonomy ids, gene names, lengths and MD5 hashes', async () => {
      const res = await api.get<Detail>(`/v1/query-sets/${first.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: first.id,
        name: 'Mixed headers',
        description: 'five records',
        entry_count: 5,
      });
      expect(
        res.body.entries.map(({ accession, species, taxonomy_id, gene_name, length, sequence_hash }) => ({
          accession,
          species,
          taxonomy_id,
          gene_name,
          length,
          sequence_hash,
        })),
      ).toEqual([
        {
          accession: 'P12345',
          species: 'Homo sapiens',
          taxonomy_id: 9606,
          gene_name: 'ABC',
          length: 130,
          sequence_hash: md5(s1),
        },
        {
          accession: 'query1',
          species: null,
          taxonomy_id: null,
          gene_name: null,
          length: 75,
          sequence_hash: md5(s2),
        },
        {
          accession: 'Q8XYZ9',
          species: 'Mus musculus',
          taxonomy_id: 10090,
          gene_name: null,
          length: 130,
          sequence_hash: md5(s1),
        },
        {
          accession: 'query2',
          species: null,
          taxonomy_id: null,
          gene_name: null,
          length: 42,
          sequence_hash: md5(s3),
        },
        {
          accession: 'query3',
          species: 'Escherichia coli',
          taxonomy_id: null,
          gene_name: null,
          length: 61,
          sequence_hash: md5(s4),
        },
      ]);
      const [p12345, , q8xyz9] = res.body.entries;
      expect(p12345?.sequence_id).toBe(q8xyz9?.sequence_id);
      expect(new Set(res.body.entries.map((entry) => entry.sequence_id)).size).toBe(4);
    });

    it('stores one upper-case sequence row per distinct MD5', async () => {
      const rows = await sequenceRows(hashes);
      expect(rows).toHaveLength(4);
      for (const sequence of [s1, s2, s3, s4]) {
        expect(rows.find((row) => row.sequence_hash === md5(sequence))?.sequence).toBe(sequence);
      }
    });

    it('uploading the same file again makes a second set over the same sequence rows', async () => {
      const before = await sequenceRows(hashes);
      const res = await upload<Created>(fasta, { name: 'Mixed headers again' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Mixed headers again',
        description: null,
        entry_count: 5,
        unique_sequences: 4,
      });
      expect(res.body.id).not.toBe(first.id);
      second = res.body;
      expect(await sequenceRows(hashes)).toEqual(before);
      const [a, b] = await Promise.all([
        api.get<Detail>(`/v1/query-sets/${first.id}`),
        api.get<Detail>(`/v1/query-sets/${second.id}`),
      ]);
      expect(b.body.entries.map((entry) => entry.sequence_id)).toEqual(
        a.body.entries.map((entry) => entry.sequence_id),
      );
    });

    it('the name falls back to the file name', async () => {
      const res = await upload<Created>(`>fallback1\n${randomSequence(20)}\n`);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'queries.fasta', description: null, entry_count: 1 });
      expect((await api.delete(`/v1/query-sets/${res.body.id}`)).status).toBe(200);
    });

    it('GET /v1/query-sets lists newest first with entry counts', async () => {
      const res = await api.get<Listed[]>('/v1/query-sets');
      expect(res.status).toBe(200);
      const ids = res.body.map((set) => set.id);
      expect(ids.indexOf(second.id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      expect(res.body.find((set) => set.id === first.id)).toMatchObject({
        name: 'Mixed headers',
        description: 'five records',
        entry_count: 5,
        created_at: expect.any(String),
      });
      const times = res.body.map((set) => set.created_at);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('detail and delete give 404 problem+json for unknown and malformed ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', '12345']) {
        expectProblem(await api.get(`/v1/query-sets/${id}`), 404, 'not-found');
        expectProblem(await api.delete(`/v1/query-sets/${id}`), 404, 'not-found');
      }
    });

    it('DELETE removes the set and its entries; orphan maintenance then drops only unshared sequences', async () => {
      // A third set shares s1 with the two sets above and owns s5 and s6.
      const s5 = randomSequence(33);
      const s6 = randomSequence(44);
      const third = await upload<Created>(`>own1\n${s1}\n>own2\n${s5}\n>own3\n${s6}\n>own4\n${s6}\n`, {
        name: 'To delete',
      });
      expect(third.status).toBe(201);
      expect(third.body).toMatchObject({ entry_count: 4, unique_sequences: 3 });

      const baseline = await api.get<{ count: number }>('/v1/maintenance/orphan-sequences');
      expect(baseline.status).toBe(200);

      const removed = await api.delete<{ id: string; deleted: boolean; entries_deleted: number }>(
        `/v1/query-sets/${third.body.id}`,
      );
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ id: third.body.id, deleted: true, entries_deleted: 4 });
      expectProblem(await api.get(`/v1/query-sets/${third.body.id}`), 404, 'not-found');
      expectProblem(await api.delete(`/v1/query-sets/${third.body.id}`), 404, 'not-found');
      expect((await api.get<Listed[]>('/v1/query-sets')).body.map((set) => set.id)).not.toContain(
        third.body.id,
      );
      const entries = await gateway.infra.db.query(
        `SELECT count(*)::int AS n FROM query_set_entry WHERE query_set_id = $1`,
        [third.body.id],
      );
      expect(entries).toEqual([{ n: 0 }]);

      const orphans = await api.get<{ count: number }>('/v1/maintenance/orphan-sequences');
      expect(orphans.status).toBe(200);
      expect(orphans.body.count).toBe(baseline.body.count + 2);
      expect(orphans.body.count).toBeGreaterThan(0);
      const cleaned = await api.delete<{ deleted: number }>('/v1/maintenance/orphan-sequences');
      expect(cleaned.status).toBe(200);
      expect(cleaned.body).toEqual({ deleted: orphans.body.count });
      expect((await api.get<{ count: number }>('/v1/maintenance/orphan-sequences')).body).toEqual({
        count: 0,
      });

      expect(await sequenceRows([md5(s5), md5(s6)])).toEqual([]);
      // s1 is still referenced by the first two sets, and so are the rest of their sequences.
      expect(await sequenceRows(hashes)).toHaveLength(4);
      expect((await api.get<Detail>(`/v1/query-sets/${first.id}`)).body.entries).toHaveLength(5);
    });

    it('deleting one of two sets that share every sequence leaves no orphans', async () => {
      expect((await api.delete(`/v1/query-sets/${second.id}`)).status).toBe(200);
      const orphans = await api.get<{ count: number }>('/v1/maintenance/orphan-sequences');
      expect(orphans.body).toEqual({ count: 0 });
      expect(await sequenceRows(hashes)).toHaveLength(4);
    });
  });

  describe('rejected uploads', () => {
    it.each([
      { name: 'an empty file', fasta: '', errors: [{ path: 'file:0', message: 'no FASTA records' }] },
      {
        name: 'text that is not FASTA',
        fasta: 'hello world\n',
        errors: [
          { path: 'file:0', message: 'no FASTA records' },
          { path: 'file:1', message: 'line 1: expected a header line starting with >' },
        ],
      },
      {
        name: 'invalid residue letters',
        fasta: '>ok1\nMKTAYIAKQR\n>bad1 desc\nMKTAYI\nMKT1AYI?\n>ok2\nMKT\n',
        errors: [{ path: 'file:5', message: "line 5: invalid residue letters '1?'" }],
      },
      {
        name: 'duplicate identifiers',
        fasta: '>dup1\nMKT\n>sp|P99999|X_HUMAN\nMKV\n>dup1 again\nMKW\n>P99999\nMKY\n',
        errors: [
          { path: 'file:5', message: 'line 5: duplicate identifier dup1 (first at line 1)' },
          { path: 'file:7', message: 'line 7: duplicate identifier P99999 (first at line 3)' },
        ],
      },
      {
        name: 'headers without a sequence',
        fasta: '>a\nMKT\n>empty\n>c\nMKV\n>last\n',
        errors: [
          { path: 'file:3', message: 'line 3: record empty has no sequence' },
          { path: 'file:6', message: 'line 6: record last has no sequence' },
        ],
      },
    ])('$name gives 422 with the offending lines and creates nothing', async ({ fasta, errors }) => {
      const name = `rejected ${randomUUID()}`;
      const res = await upload<Problem>(fasta, { name });
      const problem = expectProblem(res, 422, 'validation-error');
      expect(problem.errors).toEqual(errors);
      expect(problem.detail).toContain(`${errors.length} problem(s)`);
      expect(await listNames()).not.toContain(name);
    });

    it('a form without the `file` part gives 422 naming the field (a file under another name, too)', async () => {
      const name = `no file ${randomUUID()}`;
      const missing = expectProblem(await upload<Problem>(null, { name }), 422, 'validation-error');
      expect(missing.errors).toEqual([{ path: 'file', message: 'file required' }]);
      const misnamed = expectProblem(
        await upload<Problem>('>a\nMKT\n', { name }, '/v1/query-sets', 'fasta'),
        422,
        'validation-error',
      );
      expect(misnamed.errors).toEqual([
        { path: 'fasta', message: 'not a part of this form (takes file, name, description, taxon)' },
      ]);
      expect(await listNames()).not.toContain(name);
    });

    it('a body that is not multipart/form-data gives 415', async () => {
      const json = await api.post<Problem>('/v1/query-sets', { name: 'json', file: '>a\nMKT\n' });
      expect(expectProblem(json, 415, 'unsupported-media-type').detail).toContain('multipart/form-data');
      const plain = await api.post<Problem>('/v1/query-sets', '>a\nMKT\n', { 'content-type': 'text/plain' });
      expectProblem(plain, 415, 'unsupported-media-type');
      const empty = await api.post<Problem>('/v1/query-sets');
      expectProblem(empty, 415, 'unsupported-media-type');
      expect(await listNames()).not.toContain('json');
    });

    it('a file just over 50 MB gives 413 problem+json', async () => {
      const name = `too large ${randomUUID()}`;
      const line = `${STANDARD_RESIDUES.repeat(3)}\n`;
      const big = `>big\n${line.repeat(Math.ceil((FASTA_LIMIT_BYTES + 1024 * 1024) / line.length))}`;
      expect(big.length).toBeGreaterThan(FASTA_LIMIT_BYTES);
      const res = await upload<Problem>(big, { name });
      expect(expectProblem(res, 413, 'payload-too-large').detail).toContain('50 MiB');
      expect(await listNames()).not.toContain(name);
    }, 30_000);

    it('a file of exactly 50 MB is read (and then judged as FASTA)', async () => {
      // Not FASTA, so the parser answers 422 without storing 50 MB of residues.
      const line = 'not a fasta line\n';
      const text = line.repeat(Math.floor(FASTA_LIMIT_BYTES / line.length));
      const exact = text + 'x'.repeat(FASTA_LIMIT_BYTES - text.length);
      expect(exact.length).toBe(FASTA_LIMIT_BYTES);
      const problem = expectProblem(await upload<Problem>(exact), 422, 'validation-error');
      expect(problem.errors).toEqual([
        { path: 'file:0', message: 'no FASTA records' },
        { path: 'file:1', message: 'line 1: expected a header line starting with >' },
      ]);
    }, 30_000);
  });

  describe('the GN= tag', () => {
    it('is the entry’s gene name, at most 200 characters and free of control characters, else none', async () => {
      const fasta = [
        '>sp|P04637|P53_HUMAN Cellular tumor antigen p53 OS=Homo sapiens OX=9606 GN=TP53 PE=1 SV=4',
        randomSequence(30),
        '>plain1 Protein one GN=abc-1',
        randomSequence(31),
        `>longest GN=${'G'.repeat(200)} PE=1`,
        randomSequence(32),
        // Too long, or holding a tab, for the symbol column of a GAF line: the record stays, unnamed.
        `>too_long GN=${'G'.repeat(201)}`,
        randomSequence(33),
        '>tabbed GN=AB\tC',
        randomSequence(34),
        '>empty GN= PE=1',
        randomSequence(35),
        '',
      ].join('\n');
      const res = await upload<Created>(fasta, { name: `genes ${randomUUID()}` });
      expect(res.status).toBe(201);
      const detail = await api.get<Detail>(`/v1/query-sets/${res.body.id}`);
      expect(detail.body.entries.map((e) => [e.accession, e.gene_name])).toEqual([
        ['P04637', 'TP53'],
        ['plain1', 'abc-1'],
        ['longest', 'G'.repeat(200)],
        ['too_long', null],
        ['tabbed', null],
        ['empty', null],
      ]);
      expect((await api.delete(`/v1/query-sets/${res.body.id}`)).status).toBe(200);
    });
  });

  describe('the `taxon` field', () => {
    it('is the taxon of the records whose header has no OX= (OX= wins)', async () => {
      const fasta = [
        '>sp|P12345|ABC_YEAST Alpha OS=Saccharomyces cerevisiae OX=4932 GN=ABC1',
        randomSequence(30),
        '>yeast1 no tags',
        randomSequence(31),
        '>yeast2 OS=Saccharomyces cerevisiae (strain ATCC 204508 / S288c)',
        randomSequence(32),
        '>bad_ox OX=yeast',
        randomSequence(33),
        '',
      ].join('\n');
      const res = await upload<Created>(fasta, { name: `taxon ${randomUUID()}`, taxon: ' 559292 ' });
      expect(res.status).toBe(201);
      const detail = await api.get<Detail>(`/v1/query-sets/${res.body.id}`);
      expect(detail.body.entries.map((e) => [e.accession, e.taxonomy_id])).toEqual([
        ['P12345', 4932],
        ['yeast1', 559292],
        ['yeast2', 559292],
        ['bad_ox', 559292],
      ]);
      // An empty field is no taxon, as a browser sends an empty input.
      const empty = await upload<Created>('>plain1\nMKTAYIAKQR\n', {
        name: `no taxon ${randomUUID()}`,
        taxon: '',
      });
      expect(empty.status).toBe(201);
      const plain = await api.get<Detail>(`/v1/query-sets/${empty.body.id}`);
      expect(plain.body.entries.map((e) => e.taxonomy_id)).toEqual([null]);
      for (const id of [res.body.id, empty.body.id])
        expect((await api.delete(`/v1/query-sets/${id}`)).status).toBe(200);
    });

    it.each(['human', '0', '-9606', '9606.5', 'taxon:9606', '2147483648'])(
      'taxon=%j gives 422 naming the field and creates nothing',
      async (taxon) => {
        const name = `bad taxon ${randomUUID()}`;
        const res = await upload<Problem>('>q1\nMKTAYIAKQR\n', { name, taxon });
        const problem = expectProblem(res, 422, 'validation-error');
        expect(problem.errors).toEqual([
          { path: 'taxon', message: 'taxon must be an NCBI taxonomy id: a positive integer, e.g. 9606' },
        ]);
        expect(await listNames()).not.toContain(name);
      },
    );
  });

  it(`the shared tiny/sequences.fasta uploads every record`, async () => {
    const text = readFileSync(TINY_FASTA, 'utf8');
    const headers = text.split('\n').filter((line) => line.startsWith('>')).length;
    const records = readRecords(text);
    expect(records).toHaveLength(headers);
    const res = await upload<Created>(text, { name: 'tiny' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      entry_count: headers,
      unique_sequences: new Set(records.map((record) => record.sequence)).size,
    });
    const detail = await api.get<Detail>(`/v1/query-sets/${res.body.id}`);
    expect(detail.body.entry_count).toBe(headers);
    expect(detail.body.entries.map((entry) => entry.accession)).toEqual(
      records.map((record) => record.identifier),
    );
    expect(detail.body.entries.map((entry) => entry.length)).toEqual(
      records.map((record) => record.sequence.length),
    );
    expect(detail.body.entries.map((entry) => entry.sequence_hash)).toEqual(
      records.map((record) => md5(record.sequence)),
    );
  });

  it('the root-path alias /query-sets works for upload, list, detail and delete', async () => {
    const sequence = randomSequence(25);
    const created = await upload<Created>(
      `>alias1 OS=Homo sapiens OX=9606\n${sequence}\n`,
      { name: 'alias' },
      '/query-sets',
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'alias', entry_count: 1, unique_sequences: 1 });
    const list = await api.get<Listed[]>('/query-sets');
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ id: created.body.id, entry_count: 1 });
    const detail = await api.get<Detail>(`/query-sets/${created.body.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.entries).toEqual([
      expect.objectContaining({
        accession: 'alias1',
        species: 'Homo sapiens',
        taxonomy_id: 9606,
        sequence_hash: md5(sequence),
      }),
    ]);
    expect((await api.delete(`/query-sets/${created.body.id}`)).status).toBe(200);
    expectProblem(await api.get(`/query-sets/${created.body.id}`), 404, 'not-found');
    expectProblem(await upload<Problem>('hello world', {}, '/query-sets'), 422, 'validation-error');
    const orphans = await api.get<{ count: number }>('/maintenance/orphan-sequences');
    expect(orphans.status).toBe(200);
    expect(orphans.body.count).toBeGreaterThanOrEqual(1);
  });
});
