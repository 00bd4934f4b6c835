import type { FastaProblem, FastaRecord } from './fasta-record';

/**
 * A record is taken for a nucleotide sequence when at least this share of its residues are A, C, G,
 * T, U or N (case-insensitive). DNA with IUPAC ambiguity codes (R, Y, K, ...) stays above it; a
 * protein is far below: those six letters make about a quarter of the residues of UniProt.
 */
export const NUCLEOTIDE_MIN_FRACTION = 0.9;

/**
 * Records shorter than this are never taken for nucleotides: alanine, cysteine, glycine, threonine
 * and asparagine peptides (a linker, a poly-alanine run) are real, and short, while DNA or RNA
 * uploaded by mistake is a gene or a transcript, hundreds of bases long. At 20 residues a protein of
 * the usual composition has about one chance in 10^8 of passing the fraction.
 */
export const NUCLEOTIDE_MIN_LENGTH = 20;

/** How many records a refusal names; the rest are counted. */
const NAMED_RECORDS = 5;

export interface NucleotideRecord {
  identifier: string;
  /** Line of the record's header. */
  lineNumber: number;
  /** Share of its residues that are A, C, G, T, U or N. */
  nucleotideFraction: number;
}

/** The share of `sequence` that is A, C, G, T, U or N, in either case; 0 for an empty sequence. */
export function nucleotideFraction(sequence: string): number {
  if (sequence.length === 0) return 0;
  let nucleotides = 0;
  for (let i = 0; i < sequence.length; i += 1) {
    // Upper case by clearing bit 5 is safe here: only ASCII letters can match below.
    switch (sequence.charCodeAt(i) & ~0x20) {
      case 0x41: // A
      case 0x43: // C
      case 0x47: // G
      case 0x54: // T
      case 0x55: // U
      case 0x4e: // N
        nucleotides += 1;
    }
  }
  return nucleotides / sequence.length;
}

/** Whether a sequence is long enough and made enough of nucleotide letters to be DNA or RNA. */
export function isNucleotideSequence(sequence: string): boolean {
  return sequence.length >= NUCLEOTIDE_MIN_LENGTH && nucleotideFraction(sequence) >= NUCLEOTIDE_MIN_FRACTION;
}

/** The records that look like nucleotide sequences, in file order. */
export function findNucleotideRecords(input: {
  records: readonly Pick<FastaRecord, 'identifier' | 'lineNumber' | 'sequence'>[];
}): NucleotideRecord[] {
  const found: NucleotideRecord[] = [];
  for (const { identifier, lineNumber, sequence } of input.records) {
    if (sequence.length < NUCLEOTIDE_MIN_LENGTH) continue;
    const fraction = nucleotideFraction(sequence);
    if (fraction >= NUCLEOTIDE_MIN_FRACTION)
      found.push({ identifier, lineNumber, nucleotideFraction: fraction });
  }
  return found;
}

/**
 * The refusal of an upload holding nucleotide records: a detail that names the first few and counts
 * the rest, and one problem per record at its header line.
 */
export function describeNucleotideRecords(found: readonly NucleotideRecord[]): {
  detail: string;
  problems: FastaProblem[];
} {
  const one = found.length === 1;
  const named = found.slice(0, NAMED_RECORDS).map((r) => r.identifier);
  const more = found.length - named.length;
  const percent = Math.round(NUCLEOTIDE_MIN_FRACTION * 100);
  const detail =
    `${found.length} ${one ? 'record looks like a nucleotide sequence' : 'records look like nucleotide sequences'} ` +
    `(DNA or RNA), not ${one ? 'a protein' : 'proteins'}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}. ` +
    `${one ? 'Its' : 'Their'} residues are at least ${percent} % A, C, G, T, U or N; GO terms are predicted for ` +
    'protein sequences: translate coding sequences first and upload the proteins.';
  const problems = found.map((r) => ({
    lineNumber: r.lineNumber,
    message:
      `line ${r.lineNumber}: ${r.identifier} looks like a nucleotide sequence ` +
      `(${Math.floor(r.nucleotideFraction * 100)} % A/C/G/T/U/N), not a protein`,
  }));
  return { detail, problems };
}
