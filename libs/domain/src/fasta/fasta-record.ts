export interface FastaRecord {
  /** Line of the '>' header. */
  lineNumber: number;
  /** The header line without '>' (and without surrounding white space). */
  header: string;
  /** First token of the header; the accession for UniProt 'sp|ACC|NAME' / 'tr|ACC|NAME' headers. */
  identifier: string;
  /** The header after the first token. */
  description: string;
  /** Upper case, white space removed, a trailing '*' (stop) removed. */
  sequence: string;
}

export interface FastaProblem {
  /** 0 when the problem concerns the input as a whole. */
  lineNumber: number;
  message: string;
}

/**
 * Bounds on a header line (without '>') and on its identifier: identifiers are keys of btree
 * indexes, whose rows PostgreSQL limits to about 2.7 kB, and UniProt headers stay far below both.
 */
export const FASTA_MAX_HEADER_LENGTH = 4096;
export const FASTA_MAX_IDENTIFIER_LENGTH = 256;

export interface FastaOptions {
  /** Stop, with a problem, at the header of record maxRecords + 1 (upload limits). */
  maxRecords?: number;
  /** Longest sequence, in residues, a record may have; a longer record is left out with a problem. */
  maxSequenceLength?: number;
}

/**
 * The longest sequence an upload accepts by default: UniProt's longest protein (a titin isoform) is
 * about 35,000 residues, so 40,000 leaves room without letting one "sequence" take megabytes.
 */
export const FASTA_MAX_SEQUENCE_LENGTH = 40_000;

export interface FastaResult {
  records: FastaRecord[];
  problems: FastaProblem[];
}
