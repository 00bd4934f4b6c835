import { spawn, spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  METASTUDENT_ASPECTS,
  MetastudentConversion,
  metastudentGafHeader,
  type MetastudentSummary,
} from './metastudent-convert';

/**
 * Debian's `metastudent-data` (516,371 Swiss-Prot proteins of 2014-01 with GO annotations) as one
 * FASTA and one GAF 2.2 file, ready for `insert_proteins` and `load_goa_annotations`
 * (docs/reference.md, "Swiss-Prot 2014 from metastudent-data"). The source records no evidence
 * codes, so every GAF line is IEA and the header says why.
 *
 *   npm run data:metastudent -- --out DIR [--source /usr/share/metastudent-data/dataset_201401]
 *
 * writes DIR/swissprot-2014.fasta and DIR/swissprot-2014.gaf. The sequences come from the BLAST
 * databases through `blastdbcmd` (Debian's ncbi-blast+), one child process per aspect, read line by line.
 */

export const DEFAULT_METASTUDENT_SOURCE = '/usr/share/metastudent-data/dataset_201401';
const INSTALL_HINT = 'apt-get install metastudent-data ncbi-blast+';
const BLAST_DB_FILES = ['goasp_annot.dat', 'goasp.fasta.phr', 'goasp.fasta.pin', 'goasp.fasta.psq'];
/** Output is written in pieces of about this many characters, not one write per line. */
const CHUNK_CHARACTERS = 1 << 20;

/** The data package or blastdbcmd is not there: nothing to convert (exit 2). */
export class MissingInputError extends Error {}

export function checkMetastudentInputs(source: string, blastdbcmd = 'blastdbcmd'): void {
  const missing = METASTUDENT_ASPECTS.flatMap(({ folder }) =>
    BLAST_DB_FILES.map((file) => join(source, folder, file)),
  ).filter((path) => !existsSync(path));
  if (missing.length > 0)
    throw new MissingInputError(
      `metastudent-data is not at ${source} (${missing.length} files missing, first ${missing[0]}); ${INSTALL_HINT}`,
    );
  const probe = spawnSync(blastdbcmd, ['-version'], { stdio: 'ignore' });
  if (probe.error !== undefined || probe.status !== 0)
    throw new MissingInputError(
      `${blastdbcmd} cannot be run (${probe.error?.message ?? `exit ${probe.status}`}); ${INSTALL_HINT}`,
    );
}

/** The line a failure happened on, in front of its message. */
function at(where: string, error: unknown): Error {
  return new Error(`${where}: ${(error as Error).message}`);
}

async function* chunked(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer: string[] = [];
  let size = 0;
  for await (const piece of pieces) {
    if (piece === '') continue;
    buffer.push(piece);
    size += piece.length;
    if (size >= CHUNK_CHARACTERS) {
      yield buffer.join('');
      buffer = [];
      size = 0;
    }
  }
  if (size > 0) yield buffer.join('');
}

async function* gafText(
  conversion: MetastudentConversion,
  source: string,
  generated: string,
): AsyncGenerator<string> {
  yield metastudentGafHeader({ generated });
  for (const { folder, aspect } of METASTUDENT_ASPECTS) {
    const file = join(source, folder, 'goasp_annot.dat');
    let lineNumber = 0;
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      lineNumber += 1;
      let text: string;
      try {
        text = conversion.annotationLine(aspect, line);
      } catch (error) {
        throw at(`${file}:${lineNumber}`, error);
      }
      yield text;
    }
  }
}

async function* fastaText(
  conversion: MetastudentConversion,
  source: string,
  blastdbcmd: string,
): AsyncGenerator<string> {
  for (const { folder, aspect } of METASTUDENT_ASPECTS) {
    const db = join(source, folder, 'goasp.fasta');
    const child = spawn(blastdbcmd, ['-db', db, '-entry', 'all'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-2000)));
    const exited = new Promise<number | null>((done, fail) => {
      child.once('error', fail);
      child.once('close', (code) => done(code));
    });
    // Read below, after the output: a spawn error must not surface as an unhandled rejection first.
    exited.catch(() => undefined);
    try {
      let lineNumber = 0;
      for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
        lineNumber += 1;
        let text: string;
        try {
          text = conversion.sequenceLine(aspect, line);
        } catch (error) {
          throw at(`${blastdbcmd} -db ${db}, line ${lineNumber}`, error);
        }
        // Most lines complete no record: an await per line would cost more than the reading.
        if (text !== '') yield text;
      }
      const code = await exited;
      if (code !== 0) throw new Error(`${blastdbcmd} -db ${db} failed (exit ${code}): ${stderr.trim()}`);
      yield conversion.endSequences(aspect);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    }
  }
}

export interface MetastudentOutput {
  fasta: string;
  gaf: string;
  summary: MetastudentSummary;
}

/**
 * Writes both files at once (blastdbcmd works on its own core while this process writes the GAF),
 * under temporary names renamed at the end, so a failed run leaves no file that looks complete.
 */
export async function convertMetastudent(input: {
  source: string;
  outDir: string;
  /** YYYY-MM-DD, the GAF's `!date-generated`. */
  generated: string;
  blastdbcmd?: string;
}): Promise<MetastudentOutput> {
  const conversion = new MetastudentConversion();
  mkdirSync(input.outDir, { recursive: true });
  const gaf = join(input.outDir, 'swissprot-2014.gaf');
  const fasta = join(input.outDir, 'swissprot-2014.fasta');
  const partial = (path: string): string => `${path}.${process.pid}.partial`;
  const abort = new AbortController();
  const write = (text: AsyncIterable<string>, path: string): Promise<void> =>
    pipeline(Readable.from(chunked(text)), createWriteStream(partial(path)), { signal: abort.signal }).catch(
      (error: unknown) => {
        abort.abort();
        throw error;
      },
    );
  const written = await Promise.allSettled([
    write(gafText(conversion, input.source, input.generated), gaf),
    write(fastaText(conversion, input.source, input.blastdbcmd ?? 'blastdbcmd'), fasta),
  ]);
  const failed = written.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    for (const path of [gaf, fasta]) rmSync(partial(path), { force: true });
    // The first failure, not the abort it caused in the other file.
    const cause = written.find(
      (result) => result.status === 'rejected' && (result.reason as Error).name !== 'AbortError',
    );
    throw ((cause ?? failed) as PromiseRejectedResult).reason;
  }
  renameSync(partial(gaf), gaf);
  renameSync(partial(fasta), fasta);
  return { fasta, gaf, summary: conversion.summary() };
}

function describeOutput({ fasta, gaf, summary }: MetastudentOutput, seconds: number): string {
  const count = (n: number): string => n.toLocaleString('en-US');
  const megabytes = (path: string): string => `${(statSync(path).size / 1e6).toFixed(1)} MB`;
  const lines = [
    `${fasta}: ${count(summary.proteins)} proteins (${megabytes(fasta)})`,
    `${gaf}: ${count(summary.annotationLines)} annotation lines, all IEA (${megabytes(gaf)})`,
  ];
  for (const { folder, aspect } of METASTUDENT_ASPECTS) {
    const c = summary.aspects[folder];
    lines.push(
      `  ${folder} (${aspect}): ${count(c.annotatedProteins)} annotated proteins, ${count(c.annotationLines)} lines ` +
        `(${count(c.repeatedGoIds)} repeated GO ids dropped), ${count(c.sequences)} sequences ` +
        `(${count(c.newProteins)} new), ${count(c.annotatedWithoutSequence)} annotated without sequence, ` +
        `${count(c.sequencesWithoutAnnotation)} sequences without annotation`,
    );
  }
  lines.push(`converted in ${seconds.toFixed(1)} s`);
  return lines.map((line) => `${line}\n`).join('');
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const out = option('--out');
  const source = resolve(option('--source') ?? DEFAULT_METASTUDENT_SOURCE);
  if (out === undefined) {
    process.stderr.write(
      `usage: npm run data:metastudent -- --out DIR [--source ${DEFAULT_METASTUDENT_SOURCE}]\n`,
    );
    process.exit(2);
  }
  try {
    checkMetastudentInputs(source);
  } catch (error) {
    process.stderr.write(`data:metastudent: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const started = Date.now();
  convertMetastudent({ source, outDir: resolve(out), generated: new Date().toISOString().slice(0, 10) }).then(
    (output) => process.stdout.write(describeOutput(output, (Date.now() - started) / 1000)),
    (error: unknown) => {
      process.stderr.write(`data:metastudent failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
