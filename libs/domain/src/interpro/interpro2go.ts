/**
 * Reader for the InterPro-to-GO mapping published by InterPro (`interpro2go`):
 *
 *   !date: 2024/01/10 15:09:32
 *   !Mapping of InterPro entries to GO
 *   InterPro:IPR000003 Retinoid X receptor/HNF4 > GO:DNA binding ; GO:0003677
 *
 * Malformed lines are reported with their line numbers rather than thrown, so one bad line in a
 * release does not block loading the rest. Duplicate pairs are kept: de-duplication belongs to the loader.
 */

export interface Interpro2GoMapping {
  iprAccession: string;
  iprName: string;
  goName: string;
  goId: string;
  /** 1-based line number in the source file. */
  lineNumber: number;
}

export interface Interpro2GoError {
  lineNumber: number;
  message: string;
}

export interface Interpro2GoDocument {
  /** The `!date:` (or older `!version date:`) header value; null when the file has none. */
  sourceVersion: string | null;
  mappings: Interpro2GoMapping[];
  errors: Interpro2GoError[];
}

export type Interpro2GoLine =
  | { kind: 'blank' }
  | { kind: 'comment'; sourceVersion: string | null }
  | { kind: 'mapping'; mapping: Omit<Interpro2GoMapping, 'lineNumber'> }
  | { kind: 'error'; message: string };

const IPR_ACCESSION = /^IPR\d{6}$/;
const GO_ID = /^GO:\d{7}$/;
const VERSION_HEADER = /^!\s*(?:version\s+)?date\s*:(.*)$/i;
const PREFIX = 'InterPro:';
const GO_SEPARATOR = ' > GO:';
const ID_SEPARATOR = ' ; ';

/** Classifies one line of the file; the line ending (LF or CRLF) may still be attached. */
export function parseInterpro2GoLine(line: string): Interpro2GoLine {
  // Trailing whitespace and a CR from CRLF files are noise; a leading byte order mark likewise.
  const text = line.replace(/^\uFEFF/, '').trimEnd();
  if (text.trim() === '') return { kind: 'blank' };
  if (text.startsWith('!')) {
    const version = VERSION_HEADER.exec(text);
    const value = version?.[1]?.trim() ?? '';
    return { kind: 'comment', sourceVersion: value === '' ? null : value };
  }
  if (!text.startsWith(PREFIX))
    return { kind: 'error', message: `expected a line starting with "${PREFIX}"` };

  const body = text.slice(PREFIX.length);
  const space = body.search(/\s/);
  const accession = space === -1 ? body : body.slice(0, space);
  if (!IPR_ACCESSION.test(accession))
    return { kind: 'error', message: `invalid InterPro accession "${accession}"` };

  // Cut from the right: the GO id is last and never contains the separators, while entry and GO
  // term names are free text that could.
  const rest = space === -1 ? '' : body.slice(space);
  const idCut = rest.lastIndexOf(ID_SEPARATOR);
  if (idCut === -1)
    return { kind: 'error', message: `missing "${ID_SEPARATOR.trim()} GO:nnnnnnn" at the end` };
  const goId = rest.slice(idCut + ID_SEPARATOR.length).trim();
  if (!GO_ID.test(goId)) return { kind: 'error', message: `invalid GO id "${goId}"` };

  const names = rest.slice(0, idCut);
  const goCut = names.lastIndexOf(GO_SEPARATOR);
  if (goCut === -1)
    return { kind: 'error', message: `missing "${GO_SEPARATOR.trim()}" before the GO term name` };
  const iprName = names.slice(0, goCut).trim();
  const goName = names.slice(goCut + GO_SEPARATOR.length).trim();
  if (iprName === '') return { kind: 'error', message: `empty InterPro entry name for ${accession}` };
  if (goName === '') return { kind: 'error', message: `empty GO term name for ${goId}` };

  return { kind: 'mapping', mapping: { iprAccession: accession, iprName, goName, goId } };
}

/** Streaming reader: feed lines in file order with `push`, then call `finish`. */
export class Interpro2GoParser {
  private lineNumber = 0;
  private sourceVersion: string | null = null;
  private readonly mappings: Interpro2GoMapping[] = [];
  private readonly errors: Interpro2GoError[] = [];

  push(line: string): void {
    const lineNumber = ++this.lineNumber;
    const parsed = parseInterpro2GoLine(line);
    switch (parsed.kind) {
      case 'blank':
        return;
      case 'comment':
        // The first version header wins; later `!date:` lines would be free-text remarks.
        this.sourceVersion ??= parsed.sourceVersion;
        return;
      case 'mapping':
        this.mappings.push({ ...parsed.mapping, lineNumber });
        return;
      case 'error':
        this.errors.push({ lineNumber, message: parsed.message });
        return;
    }
  }

  finish(): Interpro2GoDocument {
    return { sourceVersion: this.sourceVersion, mappings: this.mappings, errors: this.errors };
  }
}

/** Reads the mapping from lines (a readline interface, a generator, an array). */
export async function readInterpro2Go(
  lines: AsyncIterable<string> | Iterable<string>,
): Promise<Interpro2GoDocument> {
  // A string is iterable too, but character by character; read it as the whole text it is.
  if (typeof lines === 'string') return parseInterpro2Go(lines);
  const parser = new Interpro2GoParser();
  if (Symbol.iterator in lines) {
    for (const line of lines) parser.push(line);
  } else {
    for await (const line of lines) parser.push(line);
  }
  return parser.finish();
}

/** Parses the whole file text. A final newline does not count as an extra line. */
export function parseInterpro2Go(text: string): Interpro2GoDocument {
  const parser = new Interpro2GoParser();
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) parser.push(line);
  return parser.finish();
}
