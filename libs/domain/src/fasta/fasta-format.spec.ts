import { AMINO_ACID_LETTERS, invalidResidueCharacters } from './amino-acids';
import { formatFastaRecord, md5Hex, wrapSequence } from './fasta-format';
import { parseFasta } from './fasta-parse';

describe('AMINO_ACID_LETTERS', () => {
  it('holds the 20 standard residues plus B Z X U O J, once each', () => {
    expect([...AMINO_ACID_LETTERS].sort().join('')).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    expect(AMINO_ACID_LETTERS.slice(0, 20)).toBe('ACDEFGHIKLMNPQRSTVWY');
  });

  it.each([
    { residues: 'MKTAYI', invalid: '' },
    { residues: 'mktayi', invalid: '' },
    { residues: '', invalid: '' },
    { residues: 'M1K1T2', invalid: '12' },
    { residues: 'MÉK', invalid: 'É' },
  ])("invalidResidueCharacters('$residues') = '$invalid'", ({ residues, invalid }) => {
    expect(invalidResidueCharacters(residues)).toBe(invalid);
  });
});

describe('md5Hex', () => {
  // Reference digests computed with md5sum.
  it.each([
    { sequence: '', digest: 'd41d8cd98f00b204e9800998ecf8427e' },
    { sequence: 'MKTAYIAKQR', digest: '960e92382bedae45c9bcb8b676df9079' },
    { sequence: 'ACDEFGHIKLMNPQRSTVWY', digest: '638ef73a7502450731f6bfb2c2dd8747' },
  ])("md5Hex('$sequence')", ({ sequence, digest }) => expect(md5Hex(sequence)).toBe(digest));
});

describe('wrapSequence', () => {
  it.each([
    { sequence: '', width: 60, lines: [] },
    { sequence: 'MKT', width: 60, lines: ['MKT'] },
    { sequence: 'MKTAYI', width: 3, lines: ['MKT', 'AYI'] },
    { sequence: 'MKTAYIQ', width: 3, lines: ['MKT', 'AYI', 'Q'] },
    { sequence: 'MKT', width: 1, lines: ['M', 'K', 'T'] },
    { sequence: 'A'.repeat(120), width: 60, lines: ['A'.repeat(60), 'A'.repeat(60)] },
  ])('$sequence at width $width', ({ sequence, width, lines }) => {
    expect(wrapSequence(sequence, width)).toEqual(lines);
  });

  it('defaults to 60 residues a line', () => {
    expect(wrapSequence('A'.repeat(61)).map((line) => line.length)).toEqual([60, 1]);
  });

  it.each([0, -3, 2.5, Number.NaN])('rejects width %p', (width) => {
    expect(() => wrapSequence('MKT', width)).toThrow(RangeError);
  });
});

describe('formatFastaRecord', () => {
  it.each([
    { header: 'P12345 Protein X', sequence: 'MKTAYIQ', width: 3, text: '>P12345 Protein X\nMKT\nAYI\nQ\n' },
    { header: 'P1', sequence: 'MKT', width: 60, text: '>P1\nMKT\n' },
    { header: 'P1', sequence: '', width: 60, text: '>P1\n' },
  ])('$header / $sequence', ({ header, sequence, width, text }) => {
    expect(formatFastaRecord(header, sequence, width)).toBe(text);
  });

  it('round-trips through parseFasta', () => {
    const sequence = 'ACDEFGHIKLMNPQRSTVWY'.repeat(7);
    const text = formatFastaRecord('sp|P12345|ABC_HUMAN Protein', sequence) + formatFastaRecord('P2', 'MKT');
    expect(parseFasta(text)).toEqual({
      records: [
        {
          lineNumber: 1,
          header: 'sp|P12345|ABC_HUMAN Protein',
          identifier: 'P12345',
          description: 'Protein',
          sequence,
        },
        { lineNumber: 5, header: 'P2', identifier: 'P2', description: '', sequence: 'MKT' },
      ],
      problems: [],
    });
  });

  it('refuses a header with a line break', () => {
    expect(() => formatFastaRecord('P1\n>P2', 'MKT')).toThrow('FASTA header contains a line break');
  });
});
