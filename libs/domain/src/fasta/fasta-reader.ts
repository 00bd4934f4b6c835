import { invalidResidueCharacters } from './amino-acids';
import { splitFastaHeader } from './fasta-header';
import { FASTA_MAX_HEADER_LENGTH, FASTA_MAX_IDENTIFIER_LENGTH } from './fasta-record';
import type { FastaOptions, FastaProblem, FastaRecord, FastaResult } from './fasta-record';

// Tab separates description fields; every other control character (NUL above all, which
// PostgreSQL cannot store) has no place in a header.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000a-\u001f\u007f]/;

interface PendingRecord {
  lineNumber: number;
  header: string;
  identifier: string;
  description: string;
  chunks: string[];
  /** Residues so far, and whether they passed `maxSequenceLength` (then no more are kept). */
  length: number;
  tooLong: boolean;
  /** Whether the record already has a problem (it is then left out of the records). */
  rejected: boolean;
  /** Line whose trailing '*' is only fine if no residues follow it. */
  stopLine: number | null;
}

/**
 * Streaming FASTA reader: push lines in order, then finish(). Every problem is collected with its line
 * number instead of stopping at the first, so an upload can be rejected with the full list. Records
 * with a problem are left out of `records`.
 */
export class FastaReader {
  private lineNumber = 0;
  private headerCount = 0;
  private current: PendingRecord | null = null;
  private strayTextReported = false;
  private stopped = false;
  private result: FastaResult | null = null;
  private records: FastaRecord[] = [];
  private readonly problems: FastaProblem[] = [];
  private readonly firstSeen = new Map<string, number>();
  private readonly maxRecords: number | undefined;
  private readonly maxSequenceLength: number | undefined;

  constructor(options: FastaOptions = {}) {
    const { maxRecords, maxSequenceLength } = options;
    for (const [name, value] of Object.entries({ maxRecords, maxSequenceLength })) {
      if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
      }
    }
    this.maxRecords = maxRecords;
    this.maxSequenceLength = maxSequenceLength;
  }

  /**
   * True once a header past `maxRecords` was met: from there on the reader keeps nothing and only
   * counts headers (`recordCount`), so a caller refusing the input can say how many records it holds.
   */
  get passedMaxRecords(): boolean {
    return this.stopped;
  }

  /** Lines pushed so far. */
  get linesRead(): number {
    return this.lineNumber;
  }

  /** Headers met so far: records with a problem count, and so do those past `maxRecords`. */
  get recordCount(): number {
    return this.headerCount;
  }

  push(line: string): void {
    if (this.result !== null) throw new Error('FastaReader: push() after finish()');
    this.lineNumber += 1;
    if (this.stopped) {
      if (line.startsWith('>')) this.headerCount += 1;
      return;
    }
    const text = (this.lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line).replace(/[\r\n]+$/, '');

    if (text.startsWith('>')) {
      this.closeRecord();
      this.openRecord(text.slice(1));
      return;
    }
    this.pushResidues(text);
  }

  /**
   * More of the line pushed last, when a streaming caller splits a long sequence line to bound its
   * memory; it must not be called after a header line.
   */
  continueLine(text: string): void {
    if (this.result !== null) throw new Error('FastaReader: continueLine() after finish()');
    if (this.stopped) return;
    this.pushResidues(text);
  }

  private pushResidues(text: string): void {
    const residues = text.replace(/\s+/g, '');
    if (residues === '') return;
    if (this.current === null) {
      // Report only the first stray line: a file without headers would otherwise give one per line.
      if (!this.strayTextReported) this.problem(this.lineNumber, 'expected a header line starting with >');
      this.strayTextReported = true;
      return;
    }
    this.addResidues(this.current, residues);
  }

  /**
   * The records completed since the last call, handed over: the reader keeps none of them (it still
   * finds duplicates across the whole input), so a large file is read in bounded memory. The record
   * being read stays until the next header or `finish`.
   */
  takeRecords(): FastaRecord[] {
    const taken = this.records;
    this.records = [];
    return taken;
  }

  finish(): FastaResult {
    if (this.result !== null) return this.result;
    this.closeRecord();
    if (this.headerCount === 0) this.problems.push({ lineNumber: 0, message: 'no FASTA records' });
    // A record's empty-sequence problem is only known when it ends; keep the list in line order.
    const problems = [...this.problems].sort((a, b) => a.lineNumber - b.lineNumber);
    this.result = { records: this.records, problems };
    return this.result;
  }

  private openRecord(headerText: string): void {
    this.headerCount += 1;
    if (this.maxRecords !== undefined && this.headerCount > this.maxRecords) {
      this.problem(this.lineNumber, `more than ${this.maxRecords} records`);
      this.stopped = true;
      return;
    }
    const header = headerText.trim();
    const record: PendingRecord = {
      lineNumber: this.lineNumber,
      header,
      identifier: '',
      description: '',
      chunks: [],
      length: 0,
      tooLong: false,
      rejected: false,
      stopLine: null,
    };
    this.current = record;
    // The problem names the bound, never the header itself: it may be megabytes long.
    if (header.length > FASTA_MAX_HEADER_LENGTH) {
      this.reject(record, this.lineNumber, `header is longer than ${FASTA_MAX_HEADER_LENGTH} characters`);
      return;
    }
    if (CONTROL_CHARACTER.test(header)) {
      this.reject(record, this.lineNumber, 'header holds a control character');
      return;
    }
    const { identifier, description } = splitFastaHeader(header);
    Object.assign(record, { identifier, description });
    if (identifier === '') {
      this.reject(record, this.lineNumber, 'header has no identifier');
    } else if (identifier.length > FASTA_MAX_IDENTIFIER_LENGTH) {
      this.reject(
        record,
        this.lineNumber,
        `identifier is longer than ${FASTA_MAX_IDENTIFIER_LENGTH} characters`,
      );
    } else {
      const first = this.firstSeen.get(identifier);
      if (first === undefined) {
        this.firstSeen.set(identifier, this.lineNumber);
      } else {
        this.reject(record, this.lineNumber, `duplicate identifier ${identifier} (first at line ${first})`);
      }
    }
  }

  private addResidues(record: PendingRecord, residues: string): void {
    if (record.stopLine !== null) {
      this.reject(record, record.stopLine, "'*' is only allowed at the end of a sequence");
      record.stopLine = null;
    }
    // A trailing '*' is a stop codon left by translation tools; anywhere else it is an error.
    const body = residues.replace(/\*+$/, '');
    if (body.length < residues.length) record.stopLine = this.lineNumber;
    const invalid = invalidResidueCharacters(body);
    if (invalid !== '') {
      this.reject(record, this.lineNumber, `invalid residue letters '${invalid}'`);
      return;
    }
    record.length += body.length;
    if (this.maxSequenceLength !== undefined && record.length > this.maxSequenceLength) {
      if (!record.tooLong) {
        this.reject(
          record,
          record.lineNumber,
          `sequence of ${record.identifier || 'the record'} is longer than ${this.maxSequenceLength} residues`,
        );
      }
      record.tooLong = true;
      record.chunks = [];
      return;
    }
    record.chunks.push(body.toUpperCase());
  }

  private closeRecord(): void {
    const record = this.current;
    this.current = null;
    if (record === null) return;
    const sequence = record.chunks.join('');
    if (sequence === '' && !record.rejected) {
      this.reject(record, record.lineNumber, `record ${record.identifier} has no sequence`);
    }
    if (record.rejected) return;
    const { lineNumber, header, identifier, description } = record;
    this.records.push({ lineNumber, header, identifier, description, sequence });
  }

  private reject(record: PendingRecord, lineNumber: number, message: string): void {
    record.rejected = true;
    this.problem(lineNumber, message);
  }

  private problem(lineNumber: number, message: string): void {
    this.problems.push({ lineNumber, message: `line ${lineNumber}: ${message}` });
  }
}
