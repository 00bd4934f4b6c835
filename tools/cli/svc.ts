// `npm run svc -- <command>`: the command-line client of the service, on libs/client.
//
//   svc login --url URL [--api-key KEY]           store the service and the key (per-user config file)
//   svc annotate FILE.fasta --out DIR [--format tsv,gaf,json,cafa] [--threshold 0.3] [--name N] [--save]
//                                               files keep terms scoring >= threshold (0 keeps all)
//                [--taxon NCBI_ID]                the taxon of the records without OX= (GAF column 13)
//                [--donor-evidence experimental|all]  which reference annotations donate (default: the reference's)
//   svc jobs list [--status S] [--operation O] | svc jobs show ID | svc jobs cancel ID
//   svc reference list | svc reference show NAME | svc reference install NAME [--mirror DIR_OR_URL]
//   svc evaluate --obo O --gt GT --pred P [...]    the CAFA evaluator on files (tools/evaluate)
//
// The service and key come from --url/--api-key, else SVC_URL/SVC_API_KEY, else the config file
// (--config, else $XDG_CONFIG_HOME/svc/config.json, else ~/.config/svc/config.json).
// Exit codes: 0 done, 1 a job FAILED or was CANCELLED, 2 usage, 3 the service refused (4xx),
// 4 the service failed or could not be reached (5xx, network).
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type AnnotateAnswer,
  EXPORT_FILES,
  type ExportFormat,
  type JobView,
  SvcApiError,
  SvcClient,
  SvcJobError,
} from '@svc/client';
import type { Coverage, ReferenceSummary } from '@svc/domain';
import { CliUsageError, main as evaluateMain, USAGE as EVALUATE_USAGE } from '../evaluate/evaluate';
import { coverageLine, referenceLines, searchPhase, submittedLines, warningLines } from './summary';

export const USAGE = `usage: svc login --url URL [--api-key KEY]
       svc annotate FILE.fasta --out DIR [--format tsv,gaf,json,cafa] [--threshold 0.3] [--name NAME] [--save]
                    [--taxon NCBI_ID] [--donor-evidence experimental|all]
       svc jobs list [--status S] [--operation O] [--limit N] | svc jobs show ID | svc jobs cancel ID
       svc reference list | svc reference show NAME | svc reference install NAME [--mirror DIR_OR_URL]
       svc evaluate --obo O --gt GT --pred P [...]
options for every command: --url URL --api-key KEY --config FILE`;

const FORMATS = Object.keys(EXPORT_FILES) as ExportFormat[];

/**
 * The score under which `annotate` leaves terms out of the files it writes: a person reads them, and
 * every term with a prior would otherwise be there (hundreds per protein). `--threshold 0` keeps all.
 */
const DEFAULT_THRESHOLD = 0.3;
/** Events read to sum the batches' known-term counts: the service's largest page (newest first). */
const JOB_EVENTS_READ = 2000;

class UsageError extends Error {}

interface Settings {
  url?: string;
  api_key?: string;
}

function configFile(explicit: string | undefined): string {
  if (explicit !== undefined) return resolve(explicit);
  const base = process.env['XDG_CONFIG_HOME'] || join(homedir(), '.config');
  return join(base, 'svc', 'config.json');
}

function readSettings(file: string): Settings {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Settings;
  } catch {
    throw new UsageError(`${file} is not a JSON object; run svc login again`);
  }
}

function clientOf(values: { url?: string; 'api-key'?: string; config?: string }): SvcClient {
  const saved = readSettings(configFile(values.config));
  const url = values.url ?? process.env['SVC_URL'] ?? saved.url;
  if (url === undefined) throw new UsageError('no service: pass --url, set SVC_URL or run svc login');
  const apiKey = values['api-key'] ?? process.env['SVC_API_KEY'] ?? saved.api_key;
  return new SvcClient({ baseUrl: url, ...(apiKey ? { apiKey } : {}) });
}

/** One line on stderr, rewritten in place on a terminal; `phase()` adds what the job is doing. */
function progress(label: string, phase: () => string | null = () => null): (job: JobView) => void {
  let last = '';
  return (job) => {
    const done = job.progress_current ?? 0;
    const total = job.progress_total ?? 0;
    const bar =
      total > 0 ? ` [${'#'.repeat(Math.round((20 * done) / total)).padEnd(20, '.')}] ${done}/${total}` : '';
    const doing = job.status === 'RUNNING' && done === 0 ? phase() : null;
    const line = `${label}: ${job.status}${bar}${doing !== null ? ` (${doing})` : ''}`;
    if (line === last) return;
    last = line;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}\u001b[K`);
    else process.stderr.write(`${line}\n`);
  };
}

function endLine(): void {
  if (process.stderr.isTTY) process.stderr.write('\n');
}

const common = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  config: { type: 'string' },
} as const;

async function login(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: common, strict: true });
  if (values.url === undefined) throw new UsageError('login needs --url');
  const client = new SvcClient({
    baseUrl: values.url,
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
  });
  await client.listJobs({ limit: 1 }); // the service answers and accepts the key
  const file = configFile(values.config);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ url: values.url, api_key: values['api-key'] }, null, 2)}\n`, {
    mode: 0o600,
  });
  chmodSync(file, 0o600);
  process.stdout.write(`saved ${values.url} to ${file}\n`);
}

async function annotate(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...common,
      out: { type: 'string' },
      format: { type: 'string', default: 'tsv,gaf,json,cafa' },
      threshold: { type: 'string', default: String(DEFAULT_THRESHOLD) },
      name: { type: 'string' },
      save: { type: 'boolean', default: false },
      taxon: { type: 'string' },
      'donor-evidence': { type: 'string' },
    },
  });
  const [fasta] = positionals;
  if (fasta === undefined || values.out === undefined)
    throw new UsageError('annotate needs FILE.fasta and --out DIR');
  const formats = values.format.split(',').map((f) => f.trim()) as ExportFormat[];
  const unknown = formats.filter((f) => !FORMATS.includes(f));
  if (unknown.length > 0)
    throw new UsageError(`unknown format ${unknown.join(', ')} (allowed: ${FORMATS.join(', ')})`);
  const threshold = Number(values.threshold);
  if (values.threshold.trim() === '' || !(threshold >= 0 && threshold <= 1))
    throw new UsageError('--threshold must be a number in [0, 1]');
  if (values.taxon !== undefined && !/^[1-9]\d*$/.test(values.taxon))
    throw new UsageError('--taxon must be an NCBI taxonomy id, a positive integer (e.g. 9606)');
  const donorEvidence = values['donor-evidence'];
  if (donorEvidence !== undefined && donorEvidence !== 'experimental' && donorEvidence !== 'all')
    throw new UsageError('--donor-evidence must be experimental or all');
  if (!existsSync(fasta) || !statSync(fasta).isFile())
    throw new UsageError(`${fasta}: no such file (annotate reads a FASTA file of protein sequences)`);
  const client = clientOf(values);
  const name = values.name ?? basename(fasta).replace(/\.[^.]+$/, '');

  const text = readFileSync(fasta, 'utf8');
  const answer = await client.annotate({
    fasta: text,
    name,
    saveHistory: values.save,
    ...(values.taxon !== undefined ? { taxon: Number(values.taxon) } : {}),
    ...(donorEvidence !== undefined ? { donorEvidence } : {}),
  });
  const say = (lines: string[]): boolean => process.stderr.write(lines.map((l) => `${l}\n`).join(''));
  say([
    `query set ${answer.query_set_id}; following ${new URL(answer.links.dashboard, client.url).href}`,
    ...referenceLines(answer.reference as ReferenceSummary),
    ...warningLines(answer.warnings),
  ]);
  const predictionJob = await predictionJobOf(client, answer);
  // Before the first batch ticks, the newest event says what the job is doing (a long DIAMOND
  // search on a large reference); read at most once per poll, only while nothing has ticked.
  let phase: string | null = null;
  const line = progress('prediction', () => phase);
  const predicted = await client.waitForJob(predictionJob, {
    onProgress: (job) => {
      line(job);
      if (job.status === 'RUNNING' && (job.progress_current ?? 0) === 0)
        void client.jobEvents(predictionJob, { limit: 1 }).then(
          (events) => (phase = searchPhase(events[0])),
          () => undefined,
        );
    },
  });
  endLine();
  const setId = predicted.result?.['prediction_set_id'];
  if (typeof setId !== 'string')
    throw new Error(`the prediction job ${predicted.id} names no prediction set`);

  // What became of the known terms the headers listed (GO=), from the batches' events.
  const listsKnown = /^>[^\n]*\sGO=/m.test(text);
  const submitted = listsKnown
    ? submittedLines(await client.jobEvents(predictionJob, { limit: JOB_EVENTS_READ }))
    : [];
  say([
    coverageLine((predicted.result?.['coverage'] as Coverage | undefined) ?? null),
    ...submitted,
    // The reference's warning was said before the run; the coverage's is new.
    ...warningLines(
      ((predicted.result?.['warnings'] as string[] | undefined) ?? []).filter(
        (w) => !answer.warnings.includes(w),
      ),
    ),
  ]);
  mkdirSync(values.out, { recursive: true });
  for (const format of formats) {
    const file = join(values.out, EXPORT_FILES[format]);
    await client.download(setId, format, file, threshold);
    process.stdout.write(`${file}\n`);
  }
  say([
    threshold > 0
      ? `files: ${formats.length} in ${values.out}, terms scoring at least ${threshold} (--threshold 0 keeps every term)`
      : `files: ${formats.length} in ${values.out}, every term`,
    `prediction set ${setId}`,
  ]);
}

/**
 * The run's prediction job: named in the answer, or, from a service that still embeds first, the job
 * its embedding job queued when it succeeded (`result.prediction_job_id`).
 */
async function predictionJobOf(client: SvcClient, answer: AnnotateAnswer): Promise<string> {
  const named: unknown = answer.prediction_job_id;
  if (typeof named === 'string') return named;
  if (answer.embedding_job_id === null) throw new Error('the service named no prediction job');
  const embedded = await client.waitForJob(answer.embedding_job_id, { onProgress: progress('embeddings') });
  endLine();
  const queued = embedded.result?.['prediction_job_id'];
  if (typeof queued !== 'string') throw new Error(`the embedding job ${embedded.id} queued no prediction`);
  return queued;
}

/** `svc reference list | show NAME | install NAME [--mirror M]`: the named references. */
async function reference(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { ...common, mirror: { type: 'string' } },
  });
  const client = clientOf(values);
  const [name] = positionals;
  if (action === 'list') {
    for (const entry of await client.references()) {
      const current = entry.installed[0];
      process.stdout.write(
        `${entry.name}${entry.is_default ? ' (default)' : ''}\t${
          current === undefined
            ? 'not installed'
            : `GO ${current.ontology_version}; ${countOf(current.stats['annotations'])} annotations; ${countOf(current.stats['proteins'])} proteins; installed ${current.installed_at}`
        }\t${entry.description}\n`,
      );
    }
    return;
  }
  if (action === 'show' && name !== undefined) {
    process.stdout.write(`${JSON.stringify(await client.reference(name), null, 2)}\n`);
    return;
  }
  if (action === 'install' && name !== undefined) {
    const mirror = values.mirror === undefined ? undefined : mirrorOf(values.mirror);
    const queued = await client.installReference(name, mirror);
    process.stderr.write(
      `install_reference job ${queued.id}${mirror === undefined ? '' : ` from ${mirror}`}\n`,
    );
    const done = await client.waitForJob(queued.id, { onProgress: progress('install') });
    endLine();
    const result = done.result ?? {};
    const stats = (result['stats'] ?? {}) as Record<string, unknown>;
    process.stdout.write(
      `${name}: GO ${String(result['ontology_version'])}, ${String(stats['annotations'])} annotations ` +
        `(${String(result['annotation_set_label'])}), ${String(stats['proteins'])} proteins` +
        `${result['reused'] === true ? ' (already installed: reused)' : ''}; ${String(result['elapsed_s'])} s\n`,
    );
    for (const file of (result['files'] ?? []) as { role: string; sha256: string; checked: string }[])
      process.stdout.write(`  ${file.role}\tsha256 ${file.sha256}\t${file.checked}\n`);
    return;
  }
  throw new UsageError('reference list | reference show NAME | reference install NAME [--mirror DIR_OR_URL]');
}

function countOf(value: unknown): string {
  return typeof value === 'number' ? String(value) : '?';
}

/** A mirror folder of this machine becomes an absolute path (the service reads it if its policy allows). */
function mirrorOf(value: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : resolve(value);
}

async function jobs(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      ...common,
      status: { type: 'string' },
      operation: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  const client = clientOf(values);
  if (action === 'list') {
    if (values.limit !== undefined && !/^[1-9]\d*$/.test(values.limit))
      throw new UsageError('--limit must be a positive whole number');
    // Every job of a run, those another job queued (follow-ups) too, as the web list shows them.
    const list = await client.listJobs({
      ...(values.status ? { status: values.status } : {}),
      ...(values.operation ? { operation: values.operation } : {}),
      ...(values.limit ? { limit: Number(values.limit) } : {}),
      include_children: true,
    });
    for (const job of list) {
      const parent = job.parent_job_id ? `queued by ${job.parent_job_id}` : '';
      process.stdout.write(`${job.id}\t${job.operation}\t${job.status}\t${job.created_at}\t${parent}\n`);
    }
    return;
  }
  const [id] = positionals;
  if ((action === 'show' || action === 'cancel') && id !== undefined) {
    const job = action === 'show' ? await client.job(id) : await client.cancelJob(id);
    process.stdout.write(`${JSON.stringify(job, null, 2)}\n`);
    return;
  }
  throw new UsageError('jobs list | jobs show ID | jobs cancel ID');
}

function evaluate(args: string[]): void {
  try {
    process.stdout.write(`${JSON.stringify(evaluateMain(args), null, 1)}\n`);
  } catch (error) {
    if (error instanceof CliUsageError) throw new UsageError(`${error.message}\n${EVALUATE_USAGE}`);
    throw error;
  }
}

/** Runs one command; returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === 'login') await login(args);
    else if (command === 'annotate') await annotate(args);
    else if (command === 'jobs') await jobs(args);
    else if (command === 'reference') await reference(args);
    else if (command === 'evaluate') evaluate(args);
    else throw new UsageError(command === undefined ? 'no command' : `unknown command ${command}`);
    return 0;
  } catch (error) {
    endLine();
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`svc: ${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof SvcJobError) {
      process.stderr.write(`svc: ${error.message}\n`);
      return 1;
    }
    if (error instanceof SvcApiError) {
      process.stderr.write(`svc: ${error.message}\n`);
      return error.status < 500 ? 3 : 4;
    }
    process.stderr.write(`svc: ${(error as Error).message ?? String(error)}\n`);
    return 4;
  }
}

if (require.main === module) {
  void run(process.argv.slice(2)).then((code) => process.exit(code));
}
