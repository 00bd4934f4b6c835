import {
  describeNucleotideRecords,
  findNucleotideRecords,
  isNucleotideSequence,
  NUCLEOTIDE_MIN_FRACTION,
  NUCLEOTIDE_MIN_LENGTH,
  nucleotideFraction,
} from './nucleotide-records';

// A human TP53 coding sequence start (DNA), its mRNA (U for T), and the protein it encodes.
const TP53_CDS = 'ATGGAGGAGCCGCAGTCAGATCCTAGCGTCGAGCCCCCTCTGAGTCAGGAAACATTTTCAGACCTATGGAAACTACTTCCTGAAAACAAC';
const TP53_MRNA = TP53_CDS.replace(/T/g, 'U');
const TP53_PROTEIN = 'MEEPQSDPSVEPPLSQETFSDLWKLLPENN';

describe('nucleotideFraction', () => {
  it.each([
    { name: 'empty', sequence: '', fraction: 0 },
    { name: 'DNA', sequence: 'ACGT', fraction: 1 },
    { name: 'lower-case DNA', sequence: 'acgtn', fraction: 1 },
    { name: 'RNA', sequence: 'ACGU', fraction: 1 },
    { name: 'protein', sequence: 'MKWY', fraction: 0 },
    { name: 'half', sequence: 'ACMK', fraction: 0.5 },
  ])('$name', ({ sequence, fraction }) => expect(nucleotideFraction(sequence)).toBe(fraction));
});

describe('isNucleotideSequence', () => {
  const dnaWith = (others: number, length: number) => 'A'.repeat(length - others) + 'M'.repeat(others);
  it.each([
    { name: 'a coding sequence (DNA)', sequence: TP53_CDS, expected: true },
    { name: 'a coding sequence in lower case', sequence: TP53_CDS.toLowerCase(), expected: true },
    { name: 'an mRNA (U, not T)', sequence: TP53_MRNA, expected: true },
    { name: 'DNA with unknown bases (N)', sequence: 'NNNNNACGTACGTACGTNNNNNNN', expected: true },
    { name: 'the protein it encodes', sequence: TP53_PROTEIN, expected: false },
    {
      name: 'a protein of the usual composition',
      sequence: 'MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ',
      expected: false,
    },
    { name: 'empty', sequence: '', expected: false },
    // Short peptides of A, C, G, T and N (alanine, cysteine, glycine, threonine, asparagine) exist.
    { name: 'a peptide shorter than the minimum', sequence: 'GAGTGCAAC', expected: false },
    {
      name: 'a poly-alanine run one short of the minimum',
      sequence: 'A'.repeat(NUCLEOTIDE_MIN_LENGTH - 1),
      expected: false,
    },
    {
      name: 'a poly-alanine run of the minimum',
      sequence: 'A'.repeat(NUCLEOTIDE_MIN_LENGTH),
      expected: true,
    },
    { name: 'exactly 90 % nucleotide letters', sequence: dnaWith(10, 100), expected: true },
    { name: 'just under 90 % nucleotide letters', sequence: dnaWith(11, 100), expected: false },
    { name: 'IUPAC ambiguity codes among DNA', sequence: `${TP53_CDS}RYKMSW`, expected: true },
  ])('$name: $expected', ({ sequence, expected }) => expect(isNucleotideSequence(sequence)).toBe(expected));

  it('uses the documented bounds', () => {
    expect({ NUCLEOTIDE_MIN_FRACTION, NUCLEOTIDE_MIN_LENGTH }).toEqual({
      NUCLEOTIDE_MIN_FRACTION: 0.9,
      NUCLEOTIDE_MIN_LENGTH: 20,
    });
  });
});

describe('findNucleotideRecords', () => {
  const record = (identifier: string, lineNumber: number, sequence: string) => ({
    identifier,
    lineNumber,
    sequence,
  });

  it.each([
    { name: 'no records', records: [], found: [] },
    { name: 'proteins only', records: [record('P1', 1, TP53_PROTEIN)], found: [] },
    {
      name: 'DNA among proteins, in file order',
      records: [
        record('NM_000546.6', 1, TP53_CDS),
        record('P04637', 3, TP53_PROTEIN),
        record('mrna', 5, TP53_MRNA),
      ],
      found: [
        { identifier: 'NM_000546.6', lineNumber: 1, nucleotideFraction: 1 },
        { identifier: 'mrna', lineNumber: 5, nucleotideFraction: 1 },
      ],
    },
  ])('$name', ({ records, found }) => expect(findNucleotideRecords({ records })).toEqual(found));
});

describe('describeNucleotideRecords', () => {
  const found = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      identifier: `seq${i + 1}`,
      lineNumber: 2 * i + 1,
      nucleotideFraction: 1,
    }));

  it.each([
    {
      name: 'one record',
      count: 1,
      detail:
        '1 record looks like a nucleotide sequence (DNA or RNA), not a protein: seq1. ' +
        'Its residues are at least 90 % A, C, G, T, U or N; GO terms are predicted for protein ' +
        'sequences: translate coding sequences first and upload the proteins.',
    },
    {
      name: 'five records, all named',
      count: 5,
      detail: expect.stringMatching(
        /^5 records look like nucleotide sequences .*: seq1, seq2, seq3, seq4, seq5\. Their/,
      ),
    },
    {
      name: 'twelve records, the first five named and the rest counted',
      count: 12,
      detail: expect.stringMatching(/^12 records look like .*: seq1, seq2, seq3, seq4, seq5 and 7 more\. /),
    },
  ])('$name', ({ count, detail }) => expect(describeNucleotideRecords(found(count)).detail).toEqual(detail));

  it('gives each record a problem at its header line', () => {
    expect(describeNucleotideRecords(found(2)).problems).toEqual([
      {
        lineNumber: 1,
        message: 'line 1: seq1 looks like a nucleotide sequence (100 % A/C/G/T/U/N), not a protein',
      },
      {
        lineNumber: 3,
        message: 'line 3: seq2 looks like a nucleotide sequence (100 % A/C/G/T/U/N), not a protein',
      },
    ]);
  });
});
