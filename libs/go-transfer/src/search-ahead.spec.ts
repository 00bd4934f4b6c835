import { mkdtempSync, readFileSync, rmSync, utimesSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diamondSearch, diamondSearchToFile, ensureDiamondDatabase, hitsOfText } from '@svc/inference';
import { SHARED_DATA_DIR } from '@svc/testing';
import { aheadQueryId, homologyQueryId, splitAheadLine } from './homology-transfer';
import {
  dropSearchedHits,
  putSearchedHits,
  SEARCH_AHEAD_MAX_AGE_MS,
  searchedHits,
  sweepSearchAhead,
  withSearchAheadWorkDir,
} from './search-ahead';

const SET = '0b6a3a3e-5d1f-4c1e-9a57-0f2d3c4b5a69';

describe('splitAheadLine', () => {
  it('gives a search-ahead hit back to its batch, the query named as the batch names it', () => {
    const line = `${aheadQueryId(12, homologyQueryId(345))}\tr7\t88.5\t210\t1e-60`;
    expect(splitAheadLine(line)).toEqual({ batch: 12, line: 'q345\tr7\t88.5\t210\t1e-60' });
  });

  it.each(['q1\tr1\t90\t200\t1e-50', 'b1x\tr1\t90\t200\t1e-50', 'b\tq1', ''])('refuses %j', (line) => {
    expect(splitAheadLine(line)).toBeNull();
  });
});

describe('search-ahead files', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'svc-search-ahead-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('hands a batch its hits once, best bitscore first, and none after they are dropped', async () => {
    await putSearchedHits(dir, SET, 'batchA', 'q0\tr1\t40\t30\t1e-3\nq0\tr2\t90\t200\t1e-50\n');
    const hits = await searchedHits(dir, SET, 'batchA');
    expect(hits?.get('q0')?.map((h) => h.reference)).toEqual(['r2', 'r1']);
    // A batch whose queries found nothing still has a file: it does not search again.
    await putSearchedHits(dir, SET, 'batchB', '');
    expect((await searchedHits(dir, SET, 'batchB'))?.size).toBe(0);
    await dropSearchedHits(dir, SET, 'batchA');
    expect(await searchedHits(dir, SET, 'batchA')).toBeUndefined();
    // Never searched ahead: the batch searches for itself.
    expect(await searchedHits(dir, SET, 'batchC')).toBeUndefined();
  });

  it('makes paths only of a set id and a batch key', async () => {
    await expect(putSearchedHits(dir, '../x', 'k', '')).rejects.toThrow(/not a prediction set id/);
    await expect(searchedHits(dir, SET, '../../etc/passwd')).rejects.toThrow(/not a batch key/);
  });

  it('sweeps folders nobody took for a day, and leaves a fresh one', async () => {
    await putSearchedHits(dir, SET, 'old', 'q0\tr1\t90\t200\t1e-50\n');
    await putSearchedHits(dir, 'fresh', 'new', 'q0\tr1\t90\t200\t1e-50\n');
    const folder = join(dir, 'work', 'search-ahead', SET);
    const then = new Date(Date.now() - SEARCH_AHEAD_MAX_AGE_MS - 60_000);
    utimesSync(folder, then, then);
    expect(await sweepSearchAhead(dir)).toBe(1);
    expect(existsSync(folder)).toBe(false);
    expect(await searchedHits(dir, 'fresh', 'new')).toBeDefined();
  });

  it('removes the work folder of a search, also when it fails', async () => {
    let seen = '';
    await expect(
      withSearchAheadWorkDir(dir, SET, async (work) => {
        seen = work;
        throw new Error('DIAMOND stopped');
      }),
    ).rejects.toThrow('DIAMOND stopped');
    expect(seen.startsWith(join(dir, 'work', 'search-ahead', SET))).toBe(true);
    expect(existsSync(seen)).toBe(false);
  });
});

describe('one DIAMOND run over several batches, with the installed DIAMOND', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'svc-search-ahead-run-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each batch the hits a search of that batch alone gives', async () => {
    const records = readFileSync(join(SHARED_DATA_DIR, 'mini', 'sequences.fasta'), 'utf8')
      .split('>')
      .filter((r) => r.trim() !== '')
      .map((r) => r.split('\n').slice(1).join(''));
    const database = await ensureDiamondDatabase({
      dir,
      references: records.slice(0, 200).map((sequence, i) => ({ id: `r${i}`, sequence })),
      threads: 1,
    });
    // Three batches of queries, some of them in the reference and some not.
    const batches = [records.slice(150, 190), records.slice(190, 230), records.slice(230, 300)];
    const out = join(dir, 'ahead.tsv');
    await diamondSearchToFile({
      database,
      queries: batches.flatMap((batch, b) =>
        batch.map((sequence, i) => ({ id: aheadQueryId(b, homologyQueryId(i)), sequence })),
      ),
      out,
      workDir: dir,
      options: { threads: 1 },
    });
    const lines: string[][] = batches.map(() => []);
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const split = splitAheadLine(line);
      if (split !== null) lines[split.batch]!.push(split.line);
    }
    for (const [b, batch] of batches.entries()) {
      const alone = await diamondSearch({
        database,
        queries: batch.map((sequence, i) => ({ id: homologyQueryId(i), sequence })),
        options: { threads: 1 },
        workDir: dir,
      });
      const ahead = hitsOfText(lines[b]!.join('\n'));
      expect(alone.size).toBeGreaterThan(0);
      expect(ahead).toEqual(alone);
    }
  });
});
