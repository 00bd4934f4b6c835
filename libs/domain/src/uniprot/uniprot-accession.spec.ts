import { isUniProtAccession, splitIsoform } from './uniprot-accession';

describe('isUniProtAccession', () => {
  it.each([
    'P12345',
    'Q9Y6K9',
    'O15297',
    'A0A024R161', // 10 characters
    'A0A183',
    'B2RXH2',
    'P12345-2',
    'P12345-10',
    'A0A024R161-1',
  ])('accepts %s', (text) => expect(isUniProtAccession(text)).toBe(true));

  it.each([
    ['', 'empty'],
    ['p12345', 'lower case'],
    ['P1234', 'too short'],
    ['P123456', 'six characters after P are one too many'],
    ['O1234A', 'OPQ form must end in a digit'],
    ['A12345', 'A-N form needs a letter in third place'],
    ['Q9Y6K9K', 'seven characters'],
    ['A0A024R16', 'nine characters'],
    ['A0A024R161A', 'eleven characters'],
    ['P12345-', 'dangling dash'],
    ['P12345-0', 'isoform 0'],
    ['P12345-a', 'non-numeric isoform'],
    [' P12345', 'leading space'],
    ['P12345 ', 'trailing space'],
    ['P12345.1', 'version suffix'],
    ['sp|P12345|ABC_HUMAN', 'FASTA id'],
    ['ABC_HUMAN', 'entry name'],
  ])('rejects %p (%s)', (text) => expect(isUniProtAccession(text)).toBe(false));
});

describe('splitIsoform', () => {
  it.each([
    { accession: 'P12345', canonicalAccession: 'P12345', isoformIndex: null },
    { accession: 'P12345-2', canonicalAccession: 'P12345', isoformIndex: 2 },
    { accession: 'A0A024R161-12', canonicalAccession: 'A0A024R161', isoformIndex: 12 },
    { accession: 'P12345-0', canonicalAccession: 'P12345-0', isoformIndex: null },
  ])('$accession', ({ accession, canonicalAccession, isoformIndex }) => {
    expect(splitIsoform(accession)).toEqual({ canonicalAccession, isoformIndex });
  });
});
