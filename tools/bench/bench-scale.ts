// Swiss-Prot scale on real data (docs/scaling.md): Debian's metastudent-data (516,000 Swiss-Prot
// proteins of 2014 with GO annotations) converted to a FASTA and a GAF, loaded through the public jobs,
// then one-click annotation of human proteins against it, and downloads of the result, every service
// process in its own OS process so each one's peak RSS is its own. Each step is set against the
// alternative a user would pick, measured in the same run: PostgreSQL's COPY for the loads, DIAMOND
// alone (makedb + blastp, same settings) for the annotation, COPY TO for the downloads.
// Usage: npm run bench:scale -- [--queries 2000] [--proteome] [--source DIR] [--keep DIR] [--keep-database]
// [--profile DIR]
// (--proteome also annotates all 17,857 human proteins and sets the time against DIAMOND alone on
// them; --keep keeps the converted files and the work folder in DIR, and reuses converted files found
// there; --keep-database leaves the bench's database in place and prints its URL, for profiling reads;
// --profile writes the prediction worker's V8 CPU profile into DIR when the bench stops it, to open in
// Chrome's DevTools or read with tools/bench/cpu-profile-top.ts)
// The synthetic-vector projection of the embedding backends is `npm run bench:scale-vectors`.
import { ChildProcess, execFile } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parseArgs, promisify } from 'node:util';
import { SvcClient } from '@svc/client';
import { diamondSearch, ensureDiamondDatabase, type SequenceRecord } from '@svc/inference';
import { openInfrastructure } from '@svc/bootstrap';
import {
  createDataSource,
  JobEventRepository,
  PredictionSetRepository,
  predictionsTsvCopyCommand,
  scratchCopyCommands,
} from '@svc/persistence';
import { loadConfig } from '@svc/platform';
import { HOMOLOGY_HITS, HOMOLOGY_SELF_MARGIN } from '@svc/go-transfer';
import { convertMetastudent, DEFAULT_METASTUDENT_SOURCE } from '../data/metastudent';
import { createBenchWorld, rssMbOf, startApp, stopApp } from './bench-support';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '2000' },
    proteome: { type: 'boolean', default: false },
    source: { type: 'string', default: DEFAULT_METASTUDENT_SOURCE },
    keep: { type: 'string' },
    'keep-database': { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const DATA = resolve(__dirname, '../../../shared/data');
const GO = join(DATA, 'go/go-basic.godb-3.12.1.2020-09-10.obo.gz');
const HUMAN = join(DATA, 'human/human_swissprot_seqs.metastudent-2014-01.fasta.gz');

interface Row {
  step: string;
  items: number;
  seconds: number;
  per_s: number;
  against: string;
  ratio: number | null;
}

const rows: Row[] = [];
const record = (step: string, items: number, seconds: number, against = '', alternative?: number): void => {
  rows.push({
    step,
    items,
    seconds: Number(seconds.toFixed(1)),
    per_s: Math.round(items / seconds),
    against,
    ratio: alternative === undefined ? null : Number((alternative / seconds).toFixed(2)),
  });
};
const since = (started: number): number => (Date.now() - started) / 1000;

/** Peak RSS of each service process and of its children (DIAMOND, psql), sampled every 200 ms. */
class RssWatch {
  readonly peaks = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly processes: Map<string, ChildProcess>) {
    this.timer = setInterval(() => this.sample(), 200);
  }
  private sample(): void {
    for (const [name, child] of this.processes) {
      if (child.pid === undefined) continue;
      this.note(name, rssMbOf(child.pid));
      for (const pid of descendants(child.pid)) this.note(`${name} > ${commandOf(pid)}`, rssMbOf(pid));
    }
  }
  private note(name: string, mb: number): void {
    if (mb > (this.peaks.get(name) ?? 0)) this.peaks.set(name, mb);
  }
  stop(): Record<string, number> {
    clearInterval(this.timer);
    return Object.fromEntries([...this.peaks].sort());
  }
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const next = stack.pop()!;
    let children: number[] = [];
    try {
      for (const task of readdirSync(`/proc/${next}/task`))
        children = children.concat(
          readFileSync(`/proc/${next}/task/${task}/children`, 'utf8')
            .trim()
            .split(/\s+/)
            .filter(Boolean)
            .map(Number),
        );
    } catch {
      continue;
    }
    out.push(...children);
    stack.push(...children);
  }
  return out;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return String(pid);
  }
}

/** The first `count` records of a gzipped FASTA, spread over the file (every n-th record). */
async function sampleFasta(path: string, count: number | null): Promise<{ text: string; records: number }> {
  const all: string[] = [];
  let current: string[] = [];
  for await (const line of createInterface({ input: createReadStream(path).pipe(createGunzip()) })) {
    if (line.startsWith('>') && current.length > 0) {
      all.push(current.join('\n'));
      current = [];
    }
    if (line !== '') current.push(line);
  }
  if (current.length > 0) all.push(current.join('\n'));
  const step = count === null ? 1 : Math.max(1, Math.floor(all.length / count));
  const picked = all.filter((_, i) => i % step === 0).slice(0, count ?? all.length);
  return { text: `${picked.join('\n')}\n`, records: picked.length };
}

/** Seconds PostgreSQL's COPY takes to read a file into a throw-away table of text columns. */
async function copySeconds(dbUrl: string, file: string, columns: number): Promise<number> {
  const started = Date.now();
  await run('psql', [
    dbUrl,
    '-v',
    'ON_ERROR_STOP=1',
    '-q',
    ...scratchCopyCommands(file, columns).flatMap((c) => ['-c', c]),
  ]);
  return since(started);
}

/** The FASTA as `accession<TAB>sequence` lines and the GAF's annotation lines without its header, for COPY. */
async function copyInputs(
  fasta: string,
  gaf: string,
  dir: string,
): Promise<{ sequences: string; annotations: string }> {
  const sequences = join(dir, 'sequences.tsv');
  const out = createWriteStream(sequences);
  let accession: string | null = null;
  let sequence = '';
  const flush = (): void => {
    if (accession !== null) out.write(`${accession}\t${sequence}\n`);
  };
  for await (const line of createInterface({ input: createReadStream(fasta) })) {
    if (line.startsWith('>')) {
      flush();
      accession = line.slice(1).split(/\s/)[0]!;
      sequence = '';
    } else sequence += line;
  }
  flush();
  await new Promise((done) => out.end(done));
  const annotations = join(dir, 'annotations.tsv');
  const lines = createWriteStream(annotations);
  for await (const line of createInterface({ input: createReadStream(gaf) }))
    if (!line.startsWith('!') && line !== '') lines.write(`${line.replace(/\\/g, '\\\\')}\n`);
  await new Promise((done) => lines.end(done));
  return { sequences, annotations };
}

async function main(): Promise<void> {
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'svc-bench-scale-'));
  mkdirSync(dir, { recursive: true });
  const artifacts = join(dir, 'artifacts');
  const queryCount = Number(values.queries);

  // 1. Convert.
  let started = Date.now();
  const converted =
    existsSync(join(dir, 'swissprot-2014.gaf')) && existsSync(join(dir, 'swissprot-2014.fasta'))
      ? null
      : await convertMetastudent({ source: values.source, outDir: dir, generated: '2014-01-01' });
  const fasta = join(dir, 'swissprot-2014.fasta');
  const gaf = join(dir, 'swissprot-2014.gaf');
  if (converted !== null) record('convert metastudent-data', converted.summary.proteins, since(started));

  const world = await createBenchWorld({
    SVC_ARTIFACTS_DIR: artifacts,
    SVC_SOURCE_ALLOWED_ROOTS: [DATA, dir].join(','),
    SVC_PORT: '0',
  });
  const processes = new Map<string, ChildProcess>();
  let watch: RssWatch | null = null;
  try {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const env = { ...world.env, SVC_PORT: String(port) };
    processes.set('gateway-api', await startApp('gateway-api', env, 'gateway listening'));
    const profile =
      values.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', resolve(values.profile)];
    processes.set('ingestion-worker', await startApp('ingestion-worker', env, 'worker started'));
    processes.set('prediction-worker', await startApp('prediction-worker', env, 'worker started', profile));
    watch = new RssWatch(processes);
    const client = new SvcClient({ baseUrl: `http://127.0.0.1:${port}` });
    const job = async (operation: string, payload: Record<string, unknown>) => {
      const begun = Date.now();
      const queued = await client.submitJob(operation, payload, 'svc.jobs');
      const done = await client.waitForJob(queued.id, { intervalMs: 250 });
      return { job: done, seconds: since(begun) };
    };

    // 2. Load: the GO release, the sequences, the annotations; COPY of the same lines alongside.
    const go = await job('load_ontology_snapshot', { obo_url: GO });
    const snapshotId = go.job.result!['ontology_snapshot_id'] as string;
    record('load GO 2020-09-10', Number(go.job.result!['term_count']), go.seconds);
    const { sequences: sequenceTsv, annotations: annotationTsv } = await copyInputs(fasta, gaf, dir);
    const copySeq = await copySeconds(world.env['SVC_DB_URL']!, sequenceTsv, 2);
    const proteins = await job('insert_proteins', { source_url: fasta });
    const proteinCount = Number(proteins.job.result!['proteins']);
    record(
      'load sequences (insert_proteins)',
      proteinCount,
      proteins.seconds,
      'COPY of (accession, sequence)',
      copySeq,
    );
    const gafLines = Number((await run('grep', ['-vc', '^!', gaf])).stdout.trim());
    const copyGaf = await copySeconds(world.env['SVC_DB_URL']!, annotationTsv, 17);
    const goa = await job('load_goa_annotations', {
      ontology_snapshot_id: snapshotId,
      gaf_url: gaf,
      source_version: 'swissprot-2014-01',
    });
    const annotationSetId = goa.job.result!['annotation_set_id'] as string;
    record(
      'load annotations (load_goa_annotations)',
      gafLines,
      goa.seconds,
      'COPY of the GAF lines',
      copyGaf,
    );
    process.stdout.write(
      `loads: ${JSON.stringify({ proteins: proteins.job.result, annotations: goa.job.result })}\n`,
    );

    // 3. One-click annotation of human proteins (all evidence: the 2014 data records none).
    const annotate = async (label: string, count: number | null) => {
      const input = await sampleFasta(HUMAN, count);
      const begun = Date.now();
      const answer = await client.annotate({ fasta: input.text, name: label, donorEvidence: 'all' });
      const predictionJobId = answer.prediction_job_id;
      const done = await client.waitForJob(predictionJobId, { intervalMs: 500 });
      const seconds = since(begun);
      return { input, seconds, job: done, setId: done.result!['prediction_set_id'] as string };
    };
    const first = await annotate(`human ${queryCount}`, queryCount);
    const threads = Math.max(1, cpus().length);
    // DIAMOND alone on the same inputs and settings: the pool's sequences, makedb, blastp --sensitive.
    const pool = await collectPool(world.env, annotationSetId);
    started = Date.now();
    const database = await ensureDiamondDatabase({
      dir: join(dir, 'diamond-alone'),
      references: pool,
      threads,
    });
    const search = (text: string) =>
      diamondSearch({
        database,
        queries: fastaRecords(text),
        options: { maxTargetSeqs: HOMOLOGY_HITS + HOMOLOGY_SELF_MARGIN, threads },
      });
    await search(first.input.text);
    const alone = since(started);
    record(
      `annotate ${first.input.records} human proteins (upload to stored)`,
      first.input.records,
      first.seconds,
      'DIAMOND alone: makedb + blastp --sensitive',
      alone,
    );
    const setRows = Number(first.job.result!['prediction_count'] ?? 0);
    process.stdout.write(`annotate: ${JSON.stringify({ rows: setRows, result: first.job.result })}\n`);
    process.stdout.write(
      `batches: ${JSON.stringify(await batchStalls(world.env['SVC_DB_URL']!, first.job.id))}\n`,
    );
    process.stdout.write(
      `storage: ${JSON.stringify(await storedRows(world.env['SVC_DB_URL']!, first.setId, first.input.records))}\n`,
    );

    if (values.proteome) {
      // The whole human proteome against the database the first run built: the time a user waits.
      const proteome = await annotate('human proteome', null);
      // DIAMOND alone on the same queries against the database it already built: blastp only.
      const begun = Date.now();
      await search(proteome.input.text);
      record(
        `annotate the human proteome, ${proteome.input.records} proteins (database built)`,
        proteome.input.records,
        proteome.seconds,
        'DIAMOND alone: blastp --sensitive (database built)',
        since(begun),
      );
      process.stdout.write(
        `proteome: ${JSON.stringify({ rows: proteome.job.result!['prediction_count'], seconds: proteome.seconds })}\n`,
      );
      process.stdout.write(
        `proteome batches: ${JSON.stringify(await batchStalls(world.env['SVC_DB_URL']!, proteome.job.id))}\n`,
      );
    }

    // 4. Downloads of the first set, against COPY TO of its rows.
    const copyOut = await copyOutSeconds(world.env['SVC_DB_URL']!, first.setId);
    for (const format of ['tsv', 'cafa', 'gaf', 'json'] as const) {
      const file = join(dir, `download.${format}`);
      const begun = Date.now();
      await client.download(first.setId, format, file);
      const seconds = since(begun);
      record(
        `download ${format} (${(statSync(file).size / 1e6).toFixed(0)} MB)`,
        setRows,
        seconds,
        'COPY TO of the rows',
        copyOut,
      );
    }
  } finally {
    const peaks = watch?.stop() ?? {};
    for (const child of processes.values()) await stopApp(child);
    if (values['keep-database']) process.stdout.write(`database kept: ${world.env['SVC_DB_URL']}\n`);
    else await world.dispose();
    console.table(rows);
    process.stdout.write(`peak RSS (MB): ${JSON.stringify(peaks)}\n`);
    process.stdout.write(`${JSON.stringify({ results: rows, peak_rss_mb: peaks })}\n`);
    if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

function fastaRecords(text: string): { id: string; sequence: string }[] {
  return text
    .split('>')
    .filter((r) => r.trim() !== '')
    .map((r, i) => ({ id: `q${i}`, sequence: r.split('\n').slice(1).join('') }));
}

/** The homology pool's sequences as the service builds its database: donor proteins in accession order. */
async function collectPool(env: Record<string, string>, annotationSetId: string): Promise<SequenceRecord[]> {
  const infra = await openInfrastructure('bench-scale', loadConfig({ env }));
  const out: SequenceRecord[] = [];
  try {
    await infra.repos.referencePools.streamSequencePool({ annotationSetId, donorEvidence: 'all' }, (page) => {
      for (const protein of page) out.push({ id: `r${out.length}`, sequence: protein.sequence });
    });
  } finally {
    await infra.close();
  }
  return out;
}

/** COPY TO of a prediction set's TSV columns, the floor of a download. */
/**
 * How a set's rows are kept: stored as rows, and composed at read from the set's prior and the
 * weights of its (protein, aspect) pairs (docs/scaling.md, "Storage").
 */
async function storedRows(dbUrl: string, setId: string, proteins: number): Promise<Record<string, number>> {
  const db = createDataSource({ url: dbUrl, poolSize: 1 });
  await db.initialize();
  try {
    const kept = await new PredictionSetRepository(db).storage(setId);
    const rows = kept.stored + kept.composed;
    return {
      rows,
      stored: kept.stored,
      composed: kept.composed,
      stored_per_protein: Math.round(kept.stored / Math.max(1, proteins)),
      rows_per_protein: Math.round(rows / Math.max(1, proteins)),
      association_rows: kept.associations,
      set_prior_terms: kept.priorTerms,
    };
  } finally {
    await db.destroy();
  }
}

/** Each homology batch's completion (predict_go_terms_batch.done): how many, how many ran twice, and
 *  the longest event-loop stall, which must stay well under the broker's 10 s heartbeat; the
 *  search-ahead runs (predict_go_terms_search.done) and the seconds of both. */
async function batchStalls(dbUrl: string, jobId: string): Promise<Record<string, number>> {
  const db = createDataSource({ url: dbUrl, poolSize: 1 });
  await db.initialize();
  try {
    const events = new JobEventRepository(db);
    const done = await events.named(jobId, 'predict_go_terms_batch.done');
    const searches = await events.named(jobId, 'predict_go_terms_search.done');
    const fields = done.map((e) => e.fields);
    const seconds = (list: { fields: Record<string, unknown> }[]): number =>
      Number(list.reduce((n, e) => n + Number(e.fields['seconds'] ?? 0), 0).toFixed(1));
    return {
      batches: done.length,
      repeated_batches: done.length - new Set(fields.map((f) => f['batch'])).size,
      event_loop_max_ms: Math.max(0, ...fields.map((f) => Number(f['event_loop_max_ms'] ?? 0))),
      // One DIAMOND run per search-ahead step; batches that found their hits there did not search.
      search_runs: searches.length,
      search_seconds: seconds(searches),
      batches_searched_ahead: fields.filter((f) => f['searched_ahead'] === true).length,
      batch_seconds: seconds(done),
    };
  } finally {
    await db.destroy();
  }
}

async function copyOutSeconds(dbUrl: string, setId: string): Promise<number> {
  const started = Date.now();
  await run('psql', [dbUrl, '-c', predictionsTsvCopyCommand(setId)], { maxBuffer: 4 * 1024 ** 3 });
  return since(started);
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
