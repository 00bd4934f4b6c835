import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HomologyHit } from '@svc/domain';
import {
  cpuLimit,
  DIAMOND_BYTES_PER_BLOCK_LETTER,
  diamondBlockSize,
  diamondMemoryBudget,
  diamondSearch,
  diamondSearchToFile,
  ensureDiamondDatabase,
  memoryLimit,
  parseHits,
  toFasta,
} from './diamond';
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

describe('DIAMOND block size follows the memory the worker leaves it', () => {
  const GiB = 1024 ** 3;

  it('reads a cgroup memory limit, never above the machine, and the machine without one', () => {
    expect(memoryLimit(`${4 * GiB}\n`, 24 * GiB)).toBe(4 * GiB);
    expect(memoryLimit('max\n', 24 * GiB)).toBe(24 * GiB);
    expect(memoryLimit(null, 24 * GiB)).toBe(24 * GiB);
    expect(memoryLimit(`${64 * GiB}`, 24 * GiB)).toBe(24 * GiB);
  });

  it('leaves the worker its heap limit and 512 MiB, and DIAMOND the rest', () => {
    expect(diamondMemoryBudget(4 * GiB, 2.5 * GiB)).toBe(1 * GiB);
    expect(diamondMemoryBudget(2 * GiB, 2.5 * GiB)).toBe(0);
  });

  it('sizes the block to the budget: the manifests keep Swiss-Prot (0.19 G letters) in one block', () => {
    // A 4 GiB container with a 2.5 GiB heap leaves DIAMOND 1 GiB: 0.25 billion letters, in 0.05 steps.
    expect(diamondBlockSize(1 * GiB)).toBe(0.25);
    expect(diamondBlockSize(1 * GiB) * DIAMOND_BYTES_PER_BLOCK_LETTER).toBeLessThanOrEqual(1 * GiB);
    // A large machine gets DIAMOND's default, and nothing leaves less than the smallest block.
    expect(diamondBlockSize(24 * GiB)).toBe(2);
    expect(diamondBlockSize(0)).toBe(0.05);
  });

  it('passes the block size and index chunks to blastp', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-diamond-block-'));
    try {
      // DIAMOND itself, behind a script that notes the arguments it was given.
      const binary = join(dir, 'diamond-noting-arguments');
      writeFileSync(binary, `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(dir, 'args')}'\nexec diamond "$@"\n`);
      chmodSync(binary, 0o755);
      const database = await ensureDiamondDatabase({
        dir,
        references: [{ id: 'r0', sequence: UBIQUITIN }],
        threads: 1,
      });
      const hits = await diamondSearch({
        binary,
        database,
        queries: [{ id: 'q0', sequence: UBIQUITIN }],
        options: { threads: 1, blockSize: 0.05, indexChunks: 1 },
      });
      expect(hits.get('q0')?.[0]?.reference).toBe('r0');
      const args = readFileSync(join(dir, 'args'), 'utf8').split('\n');
      expect(args[args.indexOf('--block-size') + 1]).toBe('0.05');
      expect(args[args.indexOf('--index-chunks') + 1]).toBe('1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

  it('a search of no query leaves an empty hit file without running DIAMOND, which refuses an empty input', async () => {
    const out = join(dir, 'none.tsv');
    await diamondSearchToFile({
      // No database at all: a DIAMOND run would fail.
      database: join(dir, 'missing.dmnd'),
      queries: [],
      out,
      workDir: join(dir, 'none-work'),
    });
    expect(readFileSync(out, 'utf8')).toBe('');
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
