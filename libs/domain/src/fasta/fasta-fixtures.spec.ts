import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { EMPTY_UNIPROT_ENTRY, parseUniProtFastaHeader } from '../uniprot';
import { md5Hex } from './fasta-format';
import { parseFasta } from './fasta-parse';
import type { FastaRecord } from './fasta-record';

const DATA = path.resolve(__dirname, '../../../../../shared/data');

function readText(relative: string): string {
  const bytes = readFileSync(path.join(DATA, relative));
  return (relative.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * What insert_proteins reads from these headers: the accession and nothing else. They are
 * 'A0A183 source=metastudent-data/...' (human) or the accession alone (tiny): no entry name, GN=,
 * OS= or OX=, so a protein loaded from them shows none until a UniProt TSV (or
 * fetch_uniprot_metadata with update_protein_core) gives them.
 */
function expectAccessionOnly(records: FastaRecord[]): void {
  const odd = records.filter(
    (record) =>
      JSON.stringify(parseUniProtFastaHeader(record.header)) !==
      JSON.stringify({
        ...EMPTY_UNIPROT_ENTRY,
        accession: record.identifier,
        canonicalAccession: record.identifier,
        isCanonical: true,
      }),
  );
  expect(odd.map((record) => record.header)).toEqual([]);
}

/** Counted without the parser, for comparison. */
function headerCount(text: string): number {
  return text.split('\n').filter((line) => line.startsWith('>')).length;
}

describe('tiny/sequences.fasta', () => {
  const text = readText('tiny/sequences.fasta');
  const { records, problems } = parseFasta(text);

  it('reads all 40 records without problems', () => {
    expect(problems).toEqual([]);
    expect(records).toHaveLength(headerCount(text));
    expect(records).toHaveLength(40);
    expect(new Set(records.map((record) => record.identifier)).size).toBe(40);
  });

  it('has headers that give the accession and nothing more', () => expectAccessionOnly(records));

  // Lengths and digests computed with awk and md5sum.
  it.each([
    { identifier: 'O15297', length: 605, md5: '9b77934d1f24c309747042ce3ad4498e' },
    { identifier: 'O43548', length: 720, md5: undefined },
    { identifier: 'Q9Y5G4', length: 932, md5: undefined },
  ])('$identifier has $length residues', ({ identifier, length, md5 }) => {
    const record = records.find((candidate) => candidate.identifier === identifier);
    expect(record?.sequence).toHaveLength(length);
    if (md5 !== undefined) expect(md5Hex(record?.sequence ?? '')).toBe(md5);
  });
});

describe('human/human_swissprot_seqs.metastudent-2014-01.fasta.gz', () => {
  const text = readText('human/human_swissprot_seqs.metastudent-2014-01.fasta.gz');
  const started = performance.now();
  const { records, problems } = parseFasta(text);
  const elapsed = performance.now() - started;

  it('reads 17,857 records with unique identifiers', () => {
    // A number to watch, not a test: machines differ too much for a timing assertion.
    console.log(`parseFasta: ${records.length} records in ${elapsed.toFixed(0)} ms`);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(17_857);
    expect(records).toHaveLength(headerCount(text));
    expect(new Set(records.map((record) => record.identifier)).size).toBe(17_857);
  });

  it('keeps every residue (10,425,171 letters, counted with tr and wc)', () => {
    expect(records.reduce((sum, record) => sum + record.sequence.length, 0)).toBe(10_425_171);
  });

  it('has headers that give the accession and nothing more', () => expectAccessionOnly(records));

  it('spot-checks the first and the last record', () => {
    expect(records[0]).toMatchObject({
      lineNumber: 1,
      identifier: 'A0A183',
      description: 'source=metastudent-data/dataset_201401 (UniProtKB/Swiss-Prot ~2014-01)',
      sequence: 'MSQQKQQSWKPPNVPKCSPPQRSNPCLAPYSTPCGAPHSEGCHSSSQRPEVQKPRRARQKLRCLSRGTTYHCKEEECEGD',
    });
    expect(md5Hex(records[0]?.sequence ?? '')).toBe('2feed3d63cb835a64b21595cbec09ebb');
    const last = records[records.length - 1];
    expect(last).toMatchObject({ lineNumber: 200_466, identifier: 'Q9Y6Z7' });
    expect(last?.sequence).toHaveLength(277);
    expect(md5Hex(last?.sequence ?? '')).toBe('5ae758b96aa943c1baf9eabf14542967');
  });
});
