import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HomologyHit } from '@svc/domain';
import { cpuLimit, diamondSearch, ensureDiamondDatabase, parseHits, toFasta } from './diamond';
import { DiamondInputError } from './diamond-failure';

// Two unrelated reference proteins (real human sequences, trimmed) and a query per case.
const INSULIN =
  'MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKTRREAEDLQVGQVELGGGPGAGSLQPLALEGSLQKRGIVEQCCTSICSLYQLENYCN';
const UBIQUITIN = 'MQIFVKTLTGKTITLEVEPSDTIENVKAKIQDKEGIPPDQQRLIFAGKQLEDGRTLSDYNIQKESTLHLVLRLRGG';

describe('parseHits', () => {
  it('reads pident as a fraction and keeps the best HSP of a pair', () => {
    const hits = new Map<string, HomologyHit[]>();
    parseHits('q1\tr1\t90.5\t200\t1e-50\nq1\tr1\t40\t30\t1e-3\nq1\tr2\t50\t80\t1e-10\nbad line\n', hits);
    expect(hits.get('q1')).toEqual([
      { reference: 'r1', identity: 0.905, bitscore: 200, evalue: 1e-50 },
      { reference: 'r2', identity: 0.5, bitscore: 80, evalue: 1e-10 },
    ]);
  });
});

describe('toFasta', () => {
  it('refuses an identifier that could be read as something else', () => {
    expect(() => toFasta([{ id: 'a b', sequence: 'MK' }])).toThrow(/not allowed/);
    expect(toFasta([{ id: 'r1', sequence: 'MK' }])).toBe('>r1\nMK\n');
  });
});

describe('cpuLimit: DIAMOND threads follow the CPU limit', () => {
  it('reads a cgroup quota, rounded up, never above the CPUs offered', () => {
    const offered = cpuLimit(null);
    expect(offered).toBeGreaterThanOrEqual(1);
    expect(cpuLimit('100000 100000')).toBe(1);
    expect(cpuLimit('150000 100000')).toBe(Math.min(2, offered));
    expect(cpuLimit('6400000 100000')).toBe(offered);
    expect(cpuLimit('max 100000')).toBe(offered);
  });
});

describe('DIAMOND blastp (Debian diamond-aligner)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'svc-diamond-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a point-mutated copy at its identity, nothing for an unrelated sequence, and formats a database once', async () => {
    const references = [
      { id: 'r0', sequence: INSULIN },
      { id: 'r1', sequence: UBIQUITIN },
    ];
    const database = await ensureDiamondDatabase({ dir, references, threads: 1 });
    expect(await ensureDiamondDatabase({ dir, references, threads: 1 })).toBe(database);
    expect(readdirSync(dir).filter((f) => f.endsWith('.dmnd'))).toHaveLength(1);

    // 4 substitutions over the 76 residues of ubiquitin: 72/76 identical.
    const mutant = [...UBIQUITIN]
      .map((c, i) => ([10, 30, 50, 70].includes(i) ? (c === 'A' ? 'G' : 'A') : c))
      .join('');
    const hits = await diamondSearch({
      database,
      queries: [
        { id: 'q0', sequence: mutant },
        { id: 'q1', sequence: 'W'.repeat(40) + 'PQ'.repeat(30) },
      ],
      options: { threads: 1 },
    });
    const best = hits.get('q0')?.[0];
    expect(best?.reference).toBe('r1');
    expect(best!.identity).toBeCloseTo(72 / 76, 2);
    expect(best!.evalue).toBeLessThan(1e-3);
    expect(hits.has('q1')).toBe(false);
  });

  it('names its refusal of nucleotide sequences, queries or references, without paths or contents', async () => {
    const dna = 'ATGGAGGAGCCGCAGTCAGATCCTAGCGTCGAGCCCCCTCTGAGTCAGGAAACATTTTCAGACC';
    const database = await ensureDiamondDatabase({
      dir,
      references: [{ id: 'r0', sequence: INSULIN }],
      threads: 1,
    });
    const search = diamondSearch({
      database,
      queries: [{ id: 'q0', sequence: dna }],
      options: { threads: 1 },
      workDir: dir,
    });
    await expect(search).rejects.toBeInstanceOf(DiamondInputError);
    await expect(search).rejects.toMatchObject({ problem: 'nucleotide_sequences', input: 'queries' });
    const refusal = (await search.catch((error: unknown) => error)) as Error;
    expect(refusal.message).not.toContain(dir);
    expect(refusal.message).not.toContain(dna);

    const references = ensureDiamondDatabase({ dir, references: [{ id: 'r0', sequence: dna }], threads: 1 });
    await expect(references).rejects.toMatchObject({ problem: 'nucleotide_sequences', input: 'references' });
  });

  it('leaves other failures unclassified', async () => {
    const search = diamondSearch({
      database: join(dir, 'missing.dmnd'),
      queries: [{ id: 'q0', sequence: INSULIN }],
      options: { threads: 1 },
      workDir: dir,
    });
    await expect(search).rejects.toThrow(/DIAMOND blastp failed/);
    await expect(search).rejects.not.toBeInstanceOf(DiamondInputError);
  });

  it('a cancel stops DIAMOND: the search rejects with the signal reason and leaves no work folder', async () => {
    const database = await ensureDiamondDatabase({
      dir,
      references: [{ id: 'r0', sequence: INSULIN }],
      threads: 1,
    });
    const work = mkdtempSync(join(tmpdir(), 'svc-diamond-cancel-'));
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const search = diamondSearch({
      database,
      queries: Array.from({ length: 1000 }, (_, i) => ({ id: `q${i}`, sequence: UBIQUITIN + INSULIN })),
      options: { threads: 1, sensitivity: 'very-sensitive' },
      workDir: work,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 50);
    await expect(search).rejects.toBe(reason);
    expect(readdirSync(work)).toEqual([]);
    rmSync(work, { recursive: true, force: true });
  });
});
