import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import type { HomologyHit } from '@svc/domain';
import { classifyDiamondFailure, DiamondInputError } from './diamond-failure';

const run = promisify(execFile);

/** DIAMOND blastp search settings; the defaults are the homology baseline's recipe. */
export interface DiamondSearchOptions {
  /** `--sensitive` and friends; null = DIAMOND's default (fast) mode. */
  sensitivity: 'fast' | 'sensitive' | 'more-sensitive' | 'very-sensitive';
  evalue: number;
  maxTargetSeqs: number;
  threads: number;
  /** `--block-size`: billions of reference letters DIAMOND holds at once (its memory, see `diamondBlockSize`). */
  blockSize: number;
  /** `--index-chunks`: how many passes the seed index is built in (more: less memory, slower). */
  indexChunks: number;
}

/** DIAMOND's own defaults for `--block-size` and `--index-chunks`. */
export const DIAMOND_DEFAULT_BLOCK_SIZE = 2;
export const DIAMOND_DEFAULT_INDEX_CHUNKS = 4;

/**
 * Bytes of DIAMOND's memory per billion reference letters of a block, at `--sensitive` and the
 * default 4 index chunks: 4 GB, above the 3.5 measured on Swiss-Prot (672 MB of RSS for its 0.19
 * billion letters, docs/scaling.md) and below the 6 GB per unit of block size DIAMOND's manual gives
 * for full blocks.
 */
export const DIAMOND_BYTES_PER_BLOCK_LETTER = 4e9;

/**
 * Memory DIAMOND is left with beside the worker: the process's memory limit (the cgroup's
 * `memory.max`, a Kubernetes limit, else the machine's memory) less the worker's own heap limit and a
 * reserve of 512 MiB for the rest of the Node process.
 */
export function diamondMemoryBudget(
  limit = memoryLimit(),
  heapLimit = getHeapStatistics().heap_size_limit,
): number {
  return Math.max(0, limit - heapLimit - 512 * 1024 * 1024);
}

/**
 * The block size (`--block-size`) that keeps DIAMOND within `budget` bytes: budget /
 * DIAMOND_BYTES_PER_BLOCK_LETTER billions of letters, in steps of 0.05, at least 0.05 and at most
 * DIAMOND's default 2 (a larger block only saves passes over the queries once the database passes 2
 * billion letters). A reference larger than the block is searched in several passes: slower, never
 * out of memory.
 */
export function diamondBlockSize(budget = diamondMemoryBudget()): number {
  const letters = Math.floor((budget / DIAMOND_BYTES_PER_BLOCK_LETTER) * 20) / 20;
  return Math.min(DIAMOND_DEFAULT_BLOCK_SIZE, Math.max(0.05, letters));
}

export const DEFAULT_DIAMOND_SEARCH: Readonly<DiamondSearchOptions> = Object.freeze({
  sensitivity: 'sensitive',
  evalue: 1e-3,
  maxTargetSeqs: 50,
  threads: cpuLimit(),
  blockSize: diamondBlockSize(),
  indexChunks: DIAMOND_DEFAULT_INDEX_CHUNKS,
});

/**
 * The memory this process may use: the cgroup's `memory.max` when it sets one (a Kubernetes limit;
 * `max` means none), else the machine's memory.
 */
export function memoryLimit(memoryMax = readCgroupFile('memory.max'), total = totalmem()): number {
  const limit = Number((memoryMax ?? '').trim());
  return Number.isFinite(limit) && limit > 0 ? Math.min(limit, total) : total;
}

/**
 * The CPUs this process may use: the cgroup's CPU quota (a Kubernetes limit, `cpu.max`) when it sets
 * one, else the CPUs the scheduler offers. DIAMOND's `--threads` follows it, so a worker limited to 2
 * CPUs runs 2 threads instead of one per CPU of the node.
 */
export function cpuLimit(cpuMax = readCgroupFile('cpu.max')): number {
  const offered = Math.max(
    1,
    typeof availableParallelism === 'function' ? availableParallelism() : cpus().length,
  );
  const [quota, period] = (cpuMax ?? '').trim().split(/\s+/);
  const limit = Number(quota) / Number(period);
  return Number.isFinite(limit) && limit > 0 ? Math.max(1, Math.min(offered, Math.ceil(limit))) : offered;
}

function readCgroupFile(name: string): string | null {
  try {
    return readFileSync(`/sys/fs/cgroup/${name}`, 'utf8');
  } catch {
    return null;
  }
}

export interface SequenceRecord {
  id: string;
  sequence: string;
}

export class DiamondUnavailableError extends Error {
  constructor(readonly binary: string) {
    super(
      `the DIAMOND aligner '${binary}' was not found: install Debian's diamond-aligner package ` +
        `(apt-get install diamond-aligner) or set SVC_DIAMOND_BIN to its path`,
    );
    this.name = 'DiamondUnavailableError';
  }
}

/** The installed version (`2.1.3`), or null when the binary cannot be run. */
export async function diamondVersion(binary = 'diamond'): Promise<string | null> {
  try {
    const { stdout } = await run(binary, ['version'], { timeout: 10_000 });
    return /(\d+\.\d+\.\d+)/.exec(stdout)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** FASTA text; identifiers are ours (accessions), never free text, so a header cannot inject options. */
export function toFasta(records: Iterable<SequenceRecord>): string {
  const lines: string[] = [];
  for (const { id, sequence } of records) {
    assertFastaId(id);
    lines.push(`>${id}`, sequence);
  }
  return lines.join('\n') + '\n';
}

function assertFastaId(id: string): void {
  if (!/^[A-Za-z0-9_.:|-]+$/.test(id))
    throw new Error(`sequence identifier not allowed in a DIAMOND input: ${id}`);
}

/**
 * Builds (or reuses) a DIAMOND database for the references under `dir`, named by their content
 * digest, so the same reference set is formatted once and a changed one gets a new file.
 */
export async function ensureDiamondDatabase(input: {
  dir: string;
  references: readonly SequenceRecord[];
  binary?: string;
  threads?: number;
}): Promise<string> {
  return ensureDiamondDatabaseFrom({
    ...input,
    write: async (add) => {
      for (const record of input.references) await add(record);
    },
  });
}

/**
 * `ensureDiamondDatabase` for references too many to hold: `write` hands them over one at a time and
 * they go straight to a staging FASTA file, hashed on the way. The digest names the database; one
 * that already exists is reused and the staging file dropped.
 */
export async function ensureDiamondDatabaseFrom(input: {
  dir: string;
  write: (add: (record: SequenceRecord) => Promise<void>) => Promise<void>;
  binary?: string;
  threads?: number;
}): Promise<string> {
  const binary = input.binary ?? 'diamond';
  await mkdir(input.dir, { recursive: true });
  const staging = join(
    input.dir,
    `staging-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
  const hash = createHash('sha256');
  const out = createWriteStream(`${staging}.fasta`);
  const closed = new Promise<void>((resolve, reject) => {
    out.once('close', resolve);
    out.once('error', reject);
  });
  try {
    await input.write(async (record) => {
      assertFastaId(record.id);
      hash.update(record.id).update('\0').update(record.sequence).update('\n');
      if (!out.write(`>${record.id}\n${record.sequence}\n`)) await once(out, 'drain');
    });
    out.end();
    await closed;
    const database = join(input.dir, `ref-${hash.digest('hex').slice(0, 32)}.dmnd`);
    if (await exists(database)) return database;
    await runDiamond(binary, 'references', [
      'makedb',
      '--in',
      `${staging}.fasta`,
      '--db',
      staging,
      '--threads',
      String(input.threads ?? DEFAULT_DIAMOND_SEARCH.threads),
      '--quiet',
    ]);
    // Concurrent builders of the same references write the same bytes: the last rename wins.
    await rename(`${staging}.dmnd`, database);
    return database;
  } finally {
    out.destroy();
    await rm(`${staging}.fasta`, { force: true });
    await rm(`${staging}.dmnd`, { force: true });
  }
}

/**
 * Searches the queries against a database with blastp; answers every query's hits, best bitscore
 * first (queries without a hit are absent). Identity is a fraction.
 */
export async function diamondSearch(input: {
  database: string;
  queries: readonly SequenceRecord[];
  options?: Partial<DiamondSearchOptions>;
  binary?: string;
  workDir?: string;
  /** Stops DIAMOND (the job was cancelled or the worker is stopping); the search rejects with its reason. */
  signal?: AbortSignal;
}): Promise<Map<string, HomologyHit[]>> {
  if (input.queries.length === 0) return new Map();
  const work = join(
    input.workDir ?? tmpdir(),
    `diamond-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
  await mkdir(work, { recursive: true });
  try {
    const out = join(work, 'hits.tsv');
    await diamondSearchToFile({ ...input, out, workDir: work });
    return hitsOfText(await readFile(out, 'utf8'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * blastp of the queries against a database, its tabular hits (`qseqid sseqid pident bitscore evalue`,
 * one line per HSP, in DIAMOND's order) left in `out` for the caller to read or split: a search over
 * more queries than a caller wants to hold as hits at once. `workDir` holds the query file and
 * DIAMOND's temporary files while it runs.
 */
export async function diamondSearchToFile(input: {
  database: string;
  queries: readonly SequenceRecord[];
  out: string;
  workDir: string;
  options?: Partial<DiamondSearchOptions>;
  binary?: string;
  signal?: AbortSignal;
}): Promise<void> {
  const options = { ...DEFAULT_DIAMOND_SEARCH, ...input.options };
  const binary = input.binary ?? 'diamond';
  await mkdir(input.workDir, { recursive: true });
  // No query (every one without a sequence): no hit, and no DIAMOND run to refuse an empty file.
  if (input.queries.length === 0) {
    await writeFile(input.out, '');
    return;
  }
  const queries = join(input.workDir, `queries-${process.pid}-${Math.random().toString(36).slice(2)}.fasta`);
  try {
    await writeFile(queries, toFasta(input.queries));
    const args = [
      'blastp',
      '--query',
      queries,
      '--db',
      input.database,
      '--out',
      input.out,
      '--outfmt',
      '6',
      'qseqid',
      'sseqid',
      'pident',
      'bitscore',
      'evalue',
      '--evalue',
      String(options.evalue),
      '--max-target-seqs',
      String(options.maxTargetSeqs),
      '--threads',
      String(options.threads),
      '--block-size',
      String(options.blockSize),
      '--index-chunks',
      String(options.indexChunks),
      '--tmpdir',
      input.workDir,
      '--quiet',
    ];
    if (options.sensitivity !== 'fast') args.push(`--${options.sensitivity}`);
    await runDiamond(binary, 'queries', args, input.signal);
  } finally {
    await rm(queries, { force: true });
  }
}

/** The hits of a tabular DIAMOND output, per query, best bitscore first (`parseHits`, then sorted). */
export function hitsOfText(text: string): Map<string, HomologyHit[]> {
  const hits = new Map<string, HomologyHit[]>();
  parseHits(text, hits);
  for (const list of hits.values()) list.sort((a, b) => b.bitscore - a.bitscore);
  return hits;
}

/** Tabular `qseqid sseqid pident bitscore evalue`; a query-reference pair keeps its best HSP. */
export function parseHits(text: string, into: Map<string, HomologyHit[]>): void {
  const best = new Map<string, HomologyHit>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [query, reference, pident, bitscore, evalue] = line.split('\t');
    if (query === undefined || reference === undefined) continue;
    const hit: HomologyHit = {
      reference,
      identity: Number(pident) / 100,
      bitscore: Number(bitscore),
      evalue: Number(evalue),
    };
    if (!Number.isFinite(hit.identity) || !Number.isFinite(hit.bitscore)) continue;
    const key = `${query}\t${reference}`;
    const seen = best.get(key);
    if (seen !== undefined && seen.bitscore >= hit.bitscore) continue;
    best.set(key, hit);
  }
  for (const [key, hit] of best) {
    const query = key.slice(0, key.indexOf('\t'));
    let list = into.get(query);
    if (list === undefined) into.set(query, (list = []));
    list.push(hit);
  }
}

/**
 * Runs DIAMOND on one input file (`input` says whose sequences it holds). A refusal of that input is
 * a DiamondInputError; any other failure an Error quoting DIAMOND's last line, for the log only.
 */
async function runDiamond(
  binary: string,
  input: 'queries' | 'references',
  args: string[],
  signal?: AbortSignal,
): Promise<void> {
  try {
    await run(binary, args, { maxBuffer: 16 * 1024 * 1024, ...(signal !== undefined ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new DiamondUnavailableError(binary);
    const raw = (error as { stderr?: unknown }).stderr;
    const stderr = (typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '').trim();
    const problem = classifyDiamondFailure(stderr);
    if (problem !== null) throw new DiamondInputError(problem, input);
    const last = stderr.split('\n').slice(-1)[0] ?? '';
    throw new Error(`DIAMOND ${args[0]} failed${last ? `: ${last.slice(0, 200)}` : ''}`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
