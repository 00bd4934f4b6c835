import { isUniProtAccession, splitIsoform } from './uniprot-accession';
import { EMPTY_UNIPROT_ENTRY, type UniProtEntry } from './uniprot-entry';
import { UNIPROT_HEADER_FIELD_MAX_LENGTH, uniProtFieldText } from './uniprot-fasta-header';

export interface UniProtTsvRecord extends UniProtEntry {
  lineNumber: number;
  length: number | null;
  sequence: string | null;
}

export interface UniProtTsvProblem {
  /** 0 when the problem concerns the input as a whole. */
  lineNumber: number;
  message: string;
}

type Field =
  | 'accession'
  | 'entryName'
  | 'reviewed'
  | 'proteinName'
  | 'geneNames'
  | 'primaryGeneName'
  | 'organism'
  | 'taxonomyId'
  | 'length'
  | 'sequence';

/**
 * Column labels of UniProt REST `format=tsv`, keyed in normalised form (lower case, single spaces, no
 * space before ')'), plus the labels of the legacy www.uniprot.org export ('Status', 'Organism ID',
 * 'Gene names  (primary )'), which older scripts still produce.
 */
const COLUMNS: ReadonlyMap<string, Field> = new Map<string, Field>([
  ['entry', 'accession'],
  ['entry name', 'entryName'],
  ['reviewed', 'reviewed'],
  ['status', 'reviewed'],
  ['protein names', 'proteinName'],
  ['gene names', 'geneNames'],
  ['gene names (primary)', 'primaryGeneName'],
  ['organism', 'organism'],
  ['organism (id)', 'taxonomyId'],
  ['organism id', 'taxonomyId'],
  ['length', 'length'],
  ['sequence', 'sequence'],
]);

// Maps, not object literals: a label or value such as 'constructor' must not find Object.prototype.
const REVIEWED: ReadonlyMap<string, boolean> = new Map([
  ['reviewed', true],
  ['unreviewed', false],
]);

function normaliseLabel(label: string): string {
  return label.trim().toLowerCase().replace(/\s+/g, ' ').replace(/ \)/g, ')');
}

function linesOf(input: string | Iterable<string>): Iterable<string> {
  return typeof input === 'string' ? input.split(/\r\n|\r|\n/) : input;
}

/**
 * Reads UniProt REST `format=tsv` output: a header row of column labels, then one entry per row.
 * Columns are found by label, in any order; unknown ones are ignored and absent ones give null.
 * Rows with a problem are reported (with their line number) and left out of the records.
 */
export function parseUniProtTsv(input: string | Iterable<string>): {
  records: UniProtTsvRecord[];
  problems: UniProtTsvProblem[];
} {
  const reader = new UniProtTsvReader();
  for (const line of linesOf(input)) reader.push(line);
  return reader.finish();
}

/**
 * `parseUniProtTsv` a line at a time, for exports too large to hold: `takeRecords` hands over the
 * records read so far (duplicates are still found across the whole input), `finish` the rest.
 */
export class UniProtTsvReader {
  private records: UniProtTsvRecord[] = [];
  private readonly problems: UniProtTsvProblem[] = [];
  private readonly firstSeen = new Map<string, number>();
  private columns: Partial<Record<Field, number>> | null = null;
  private width = 0;
  private lineNumber = 0;
  private headerRefused = false;

  push(rawLine: string): void {
    this.lineNumber += 1;
    if (this.headerRefused) return;
    const lineNumber = this.lineNumber;
    const line = (lineNumber === 1 ? rawLine.replace(/^\uFEFF/, '') : rawLine).replace(/[\r\n]+$/, '');
    if (line.trim() === '') return;
    const cells = line.split('\t');

    if (this.columns === null) {
      const columns: Partial<Record<Field, number>> = {};
      this.width = cells.length;
      for (const [index, label] of cells.entries()) {
        const field = COLUMNS.get(normaliseLabel(label));
        if (field !== undefined) columns[field] ??= index;
      }
      this.columns = columns;
      if (columns.accession === undefined) {
        this.problems.push({ lineNumber, message: `line ${lineNumber}: no Entry column in the header row` });
        this.headerRefused = true;
      }
      return;
    }

    const rowProblems: string[] = [];
    if (cells.length !== this.width) {
      rowProblems.push(`expected ${this.width} tab-separated columns, found ${cells.length}`);
    } else {
      const record = readRow(cells, this.columns, lineNumber, rowProblems);
      if (record !== null && rowProblems.length === 0 && record.accession !== null) {
        const first = this.firstSeen.get(record.accession);
        if (first === undefined) {
          this.firstSeen.set(record.accession, lineNumber);
          this.records.push(record);
        } else {
          rowProblems.push(`duplicate entry ${record.accession} (first at line ${first})`);
        }
      }
    }
    for (const message of rowProblems)
      this.problems.push({ lineNumber, message: `line ${lineNumber}: ${message}` });
  }

  /** Lines pushed so far. */
  get linesRead(): number {
    return this.lineNumber;
  }

  /** The records read since the last call, handed over (the reader keeps none of them). */
  takeRecords(): UniProtTsvRecord[] {
    const taken = this.records;
    this.records = [];
    return taken;
  }

  finish(): { records: UniProtTsvRecord[]; problems: UniProtTsvProblem[] } {
    if (this.columns === null) this.problems.push({ lineNumber: 0, message: 'no header row' });
    return { records: this.takeRecords(), problems: this.problems };
  }
}

function readRow(
  cells: string[],
  columns: Partial<Record<Field, number>>,
  lineNumber: number,
  problems: string[],
): UniProtTsvRecord | null {
  const cell = (field: Field): string | null => {
    const index = columns[field];
    const value = index === undefined ? undefined : cells[index]?.trim();
    return value === undefined || value === '' ? null : value;
  };

  const accession = cell('accession');
  if (accession === null) problems.push('Entry is empty');
  else if (!isUniProtAccession(accession)) problems.push(`Entry '${accession}' is not a UniProt accession`);

  const reviewedText = cell('reviewed');
  const reviewed = reviewedText === null ? null : REVIEWED.get(reviewedText.toLowerCase());
  if (reviewed === undefined) problems.push(`Reviewed '${reviewedText}' is neither reviewed nor unreviewed`);

  const taxonomyId = cell('taxonomyId');
  if (taxonomyId !== null && !/^\d+$/.test(taxonomyId)) {
    problems.push(`Organism (ID) '${taxonomyId}' is not a taxonomy id`);
  }

  const lengthText = cell('length');
  const length = lengthText !== null && /^\d+$/.test(lengthText) ? Number(lengthText) : null;
  if (lengthText !== null && length === null) problems.push(`Length '${lengthText}' is not a number`);

  const sequence = cell('sequence');
  if (sequence !== null && length !== null && sequence.length !== length) {
    problems.push(`Length ${length} does not match the sequence (${sequence.length} residues)`);
  }

  if (problems.length > 0 || accession === null || reviewed === undefined) return null;
  const { canonicalAccession, isoformIndex } = splitIsoform(accession);
  // 'Gene Names' lists the primary name first, then synonyms and ORF names, separated by spaces.
  const geneName = cell('primaryGeneName')?.split(/[\s;]+/)[0] ?? cell('geneNames')?.split(/\s+/)[0] ?? null;
  return {
    ...EMPTY_UNIPROT_ENTRY,
    lineNumber,
    accession,
    canonicalAccession,
    isCanonical: isoformIndex === null,
    isoformIndex,
    entryName: cell('entryName'),
    reviewed,
    // Kept as given (the recommended name, then alternative names in parentheses), checked and
    // bounded as a FASTA header's: a cell past the bound (a polyprotein listing every chain) is null.
    proteinName: uniProtFieldText(
      cell('proteinName') ?? undefined,
      UNIPROT_HEADER_FIELD_MAX_LENGTH.proteinName,
    ),
    organism: cell('organism'),
    taxonomyId,
    geneName,
    length,
    sequence,
  };
}
