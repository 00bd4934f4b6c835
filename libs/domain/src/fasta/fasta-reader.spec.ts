import { parseFasta } from './fasta-parse';
import { FastaReader } from './fasta-reader';

describe('parseFasta: records', () => {
  it('reads identifiers, descriptions and multi-line sequences', () => {
    expect(parseFasta('>P12345 Protein X\nMKT\nAYI\n>Q9Y6K9\nmkta\n')).toEqual({
      records: [
        {
          lineNumber: 1,
          header: 'P12345 Protein X',
          identifier: 'P12345',
          description: 'Protein X',
          sequence: 'MKTAYI',
        },
        { lineNumber: 4, header: 'Q9Y6K9', identifier: 'Q9Y6K9', description: '', sequence: 'MKTA' },
      ],
      problems: [],
    });
  });

  it.each([
    {
      name: 'UniProt Swiss-Prot header',
      header: 'sp|P12345-2|ABC_HUMAN Isoform 2 OS=Homo sapiens',
      identifier: 'P12345-2',
      description: 'Isoform 2 OS=Homo sapiens',
    },
    {
      name: 'UniProt TrEMBL header',
      header: 'tr|A0A024R161|A0A024R161_HUMAN Guanine',
      identifier: 'A0A024R161',
      description: 'Guanine',
    },
    {
      name: 'other pipe-separated ids stay whole',
      header: 'gi|12345|ref|NP_000537.3| p53',
      identifier: 'gi|12345|ref|NP_000537.3|',
      description: 'p53',
    },
    { name: 'sp without a name part', header: 'sp|P12345', identifier: 'sp|P12345', description: '' },
    {
      name: 'tab between id and description',
      header: 'P12345\tProtein\tX',
      identifier: 'P12345',
      description: 'Protein\tX',
    },
    { name: 'space after >', header: '  P12345  text  ', identifier: 'P12345', description: 'text' },
    {
      name: 'key=value description',
      header: 'A0A183 source=metastudent-data/dataset_201401',
      identifier: 'A0A183',
      description: 'source=metastudent-data/dataset_201401',
    },
  ])('$name', ({ header, identifier, description }) => {
    const { records, problems } = parseFasta(`>${header}\nMKT\n`);
    expect(problems).toEqual([]);
    expect(records[0]).toMatchObject({ header: header.trim(), identifier, description });
  });

  it.each([
    { name: 'lower case', text: '>a\nmktayi\n', sequence: 'MKTAYI' },
    { name: 'mixed case over lines', text: '>a\nMkT\naYi\n', sequence: 'MKTAYI' },
    { name: 'spaces and tabs inside lines', text: '>a\nMKT AYI\tQR\n', sequence: 'MKTAYIQR' },
    { name: 'a trailing stop', text: '>a\nMKTAYI*\n', sequence: 'MKTAYI' },
    { name: 'a trailing stop on its own line', text: '>a\nMKTAYI\n*\n', sequence: 'MKTAYI' },
    { name: 'several trailing stops', text: '>a\nMKTAYI**\n', sequence: 'MKTAYI' },
    {
      name: 'every amino acid letter, including BZXUOJ',
      text: '>a\nACDEFGHIKLMNPQRSTVWYBZXUOJ\n',
      sequence: 'ACDEFGHIKLMNPQRSTVWYBZXUOJ',
    },
    { name: 'CRLF line endings', text: '>a\r\nMKT\r\nAYI\r\n', sequence: 'MKTAYI' },
    { name: 'lone CR line endings', text: '>a\rMKT\rAYI\r', sequence: 'MKTAYI' },
    { name: 'no final line break', text: '>a\nMKTAYI', sequence: 'MKTAYI' },
    { name: 'blank lines inside and around', text: '\n\n>a\n\nMKT\n   \nAYI\n\n', sequence: 'MKTAYI' },
    { name: 'a byte order mark', text: '\uFEFF>a\nMKTAYI\n', sequence: 'MKTAYI' },
  ])('sequence with $name', ({ text, sequence }) => {
    const { records, problems } = parseFasta(text);
    expect(problems).toEqual([]);
    expect(records.map((record) => record.sequence)).toEqual([sequence]);
  });
});

describe('parseFasta: problems', () => {
  it.each([
    { name: 'empty input', text: '', problems: [[0, 'no FASTA records']] },
    { name: 'only blank lines', text: '\n  \n\r\n', problems: [[0, 'no FASTA records']] },
    {
      name: 'a bare sequence without header (reported once)',
      text: 'MKTAYI\nMKTAYI\n',
      problems: [
        [0, 'no FASTA records'],
        [1, 'line 1: expected a header line starting with >'],
      ],
    },
    {
      name: 'text before the first header',
      text: '\nsequences for job 7\n>P1\nMKT\n',
      problems: [[2, 'line 2: expected a header line starting with >']],
    },
    {
      name: 'a header with no identifier',
      text: '>\nMKT\n>P2\nMKT\n',
      problems: [[1, 'line 1: header has no identifier']],
    },
    { name: 'a blank header', text: '>   \nMKT\n', problems: [[1, 'line 1: header has no identifier']] },
    {
      name: 'an empty sequence',
      text: '>P1\n>P2\nMKT\n',
      problems: [[1, 'line 1: record P1 has no sequence']],
    },
    {
      name: 'an empty last record',
      text: '>P1\nMKT\n>P2\n\n',
      problems: [[3, 'line 3: record P2 has no sequence']],
    },
    {
      name: 'a sequence that is only a stop',
      text: '>P1\n*\n',
      problems: [[1, 'line 1: record P1 has no sequence']],
    },
    {
      name: 'invalid residues (each character once, in order)',
      text: '>P1\nMKT\nAY1#1I\n>P2\nMKT\n',
      problems: [[3, "line 3: invalid residue letters '1#'"]],
    },
    {
      name: 'gap characters',
      text: '>P1\nMK-T.A\n',
      problems: [[2, "line 2: invalid residue letters '-.'"]],
    },
    {
      name: 'a numbered sequence block',
      text: '>P1\n1 mktayi 7\n',
      problems: [[2, "line 2: invalid residue letters '17'"]],
    },
    {
      name: 'a stop inside a line',
      text: '>P1\nMKT*AYI\n',
      problems: [[2, "line 2: invalid residue letters '*'"]],
    },
    {
      name: 'a stop followed by more residues',
      text: '>P1\nMKT*\nAYI\n',
      problems: [[2, "line 2: '*' is only allowed at the end of a sequence"]],
    },
    {
      name: 'non-ASCII letters that upper-case into ASCII',
      text: '>P1\nMKıſT\n',
      problems: [[2, "line 2: invalid residue letters 'ıſ'"]],
    },
    {
      name: 'an astral character',
      text: '>P1\nMK🧬T\n',
      problems: [[2, "line 2: invalid residue letters '🧬'"]],
    },
    {
      name: 'a header-like line with leading space',
      text: '>P1\nMKT\n >P2\n',
      problems: [[3, "line 3: invalid residue letters '>2'"]],
    },
    {
      name: 'a duplicate identifier',
      text: '>P12345\nMKT\n>P2\nMKT\n>P12345 again\nMKT\n',
      problems: [[5, 'line 5: duplicate identifier P12345 (first at line 1)']],
    },
    {
      name: 'a duplicate accession across sp and tr headers',
      text: '>sp|P12345|A_HUMAN\nMKT\n>tr|P12345|B_HUMAN\nMKT\n',
      problems: [[3, 'line 3: duplicate identifier P12345 (first at line 1)']],
    },
    {
      name: 'several problems, listed in line order',
      text: 'junk\n>P1\n>P1\nMK1\n>\nMKT\n',
      problems: [
        [1, 'line 1: expected a header line starting with >'],
        [2, 'line 2: record P1 has no sequence'],
        [3, 'line 3: duplicate identifier P1 (first at line 2)'],
        [4, "line 4: invalid residue letters '1'"],
        [5, 'line 5: header has no identifier'],
      ],
    },
  ])('$name', ({ text, problems }) => {
    const result = parseFasta(text);
    expect(result.problems.map((problem) => [problem.lineNumber, problem.message])).toEqual(problems);
  });

  it.each([
    {
      name: 'a header line of 1 MB (the problem does not echo it)',
      text: `>${'A'.repeat(1024 * 1024)} big\nMKT\n>P2\nMKT\n`,
      problems: [[1, 'line 1: header is longer than 4096 characters']],
    },
    {
      name: 'a header line of exactly 4096 characters',
      text: `>P1 ${'d'.repeat(4093)}\nMKT\n`,
      problems: [],
    },
    {
      name: 'an identifier of 257 characters',
      text: `>${'B'.repeat(257)} desc\nMKT\n`,
      problems: [[1, 'line 1: identifier is longer than 256 characters']],
    },
    { name: 'an identifier of exactly 256 characters', text: `>${'B'.repeat(256)}\nMKT\n`, problems: [] },
    {
      name: 'a UniProt accession is measured, not the whole first token',
      text: `>sp|P12345|${'N'.repeat(300)} desc\nMKT\n`,
      problems: [],
    },
    {
      name: 'a NUL in a header',
      text: '>P1\u0000X desc\nMKT\n',
      problems: [[1, 'line 1: header holds a control character']],
    },
    {
      name: 'an escape character in a header',
      text: '>P1 \u001b[31mred\nMKT\n',
      problems: [[1, 'line 1: header holds a control character']],
    },
    {
      name: 'a DEL in a header',
      text: '>P1 a\u007fb\nMKT\n',
      problems: [[1, 'line 1: header holds a control character']],
    },
  ])('limits: $name', ({ text, problems }) => {
    const result = parseFasta(text);
    expect(result.problems.map((problem) => [problem.lineNumber, problem.message])).toEqual(problems);
    expect(result.records.every((record) => record.header.length <= 4096)).toBe(true);
  });

  it('leaves records with a problem out and keeps the others', () => {
    const { records } = parseFasta('>P1\nMKT\n>P2\nMK1\n>P1\nMKT\n>P3\nAYI\n');
    expect(records.map((record) => [record.lineNumber, record.identifier])).toEqual([
      [1, 'P1'],
      [7, 'P3'],
    ]);
  });
});

describe('parseFasta: maxRecords', () => {
  const text = '>P1\nMKT\n>P2\nMKT\n>P3\nMKT\n>P4\nMK1\n';

  it.each([
    { maxRecords: 1, identifiers: ['P1'], problems: ['line 3: more than 1 records'] },
    { maxRecords: 2, identifiers: ['P1', 'P2'], problems: ['line 5: more than 2 records'] },
    { maxRecords: 3, identifiers: ['P1', 'P2', 'P3'], problems: ['line 7: more than 3 records'] },
    { maxRecords: 4, identifiers: ['P1', 'P2', 'P3'], problems: ["line 8: invalid residue letters '1'"] },
  ])('stops after $maxRecords', ({ maxRecords, identifiers, problems }) => {
    const result = parseFasta(text, { maxRecords });
    expect(result.records.map((record) => record.identifier)).toEqual(identifiers);
    expect(result.problems.map((problem) => problem.message)).toEqual(problems);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects maxRecords %p', (maxRecords) => {
    expect(() => parseFasta(text, { maxRecords })).toThrow(RangeError);
  });
});

describe('parseFasta: maxSequenceLength', () => {
  it('leaves out a record longer than the bound, with one problem however many lines it spans', () => {
    const text = '>P1\nMKTAY\n>P2 long\nMKTAY\nMKTAY\nMKTAY\n>P3\nMKT\n';
    const result = parseFasta(text, { maxSequenceLength: 5 });
    expect(result.records.map((record) => record.identifier)).toEqual(['P1', 'P3']);
    expect(result.problems.map((problem) => problem.message)).toEqual([
      'line 3: sequence of P2 is longer than 5 residues',
    ]);
  });

  it('accepts a sequence of exactly the bound and refuses a bad bound', () => {
    expect(parseFasta('>P1\nMKTAY\n', { maxSequenceLength: 5 }).problems).toEqual([]);
    expect(() => parseFasta('>P1\nMKT\n', { maxSequenceLength: 0 })).toThrow(RangeError);
  });

  it('tells a streaming caller when a header passed maxRecords', () => {
    const reader = new FastaReader({ maxRecords: 1 });
    reader.push('>P1');
    reader.push('MKT');
    expect(reader.passedMaxRecords).toBe(false);
    reader.push('>P2');
    expect(reader.passedMaxRecords).toBe(true);
    expect(reader.recordCount).toBe(2);
  });

  it('past maxRecords keeps nothing but still counts the headers', () => {
    const reader = new FastaReader({ maxRecords: 1 });
    ['>P1', 'MKT', '>P2', 'MKT', '>P3', 'MKT', '', '>P4', 'not a residue!'].forEach((line) =>
      reader.push(line),
    );
    reader.continueLine('MKT');
    expect(reader.recordCount).toBe(4);
    expect(reader.finish()).toEqual({
      records: [expect.objectContaining({ identifier: 'P1' })],
      problems: [{ lineNumber: 3, message: 'line 3: more than 1 records' }],
    });
  });
});

describe('FastaReader', () => {
  it('reads line by line and numbers lines itself', () => {
    const reader = new FastaReader();
    ['>P1 first', 'MKT', '', '>P2', 'AYI*', 'oops!'].forEach((line) => reader.push(line));
    expect(reader.finish()).toEqual({
      records: [
        { lineNumber: 1, header: 'P1 first', identifier: 'P1', description: 'first', sequence: 'MKT' },
      ],
      problems: [
        { lineNumber: 5, message: "line 5: '*' is only allowed at the end of a sequence" },
        { lineNumber: 6, message: "line 6: invalid residue letters '!'" },
      ],
    });
  });

  it('returns the same result from a second finish() and refuses more lines', () => {
    const reader = new FastaReader();
    reader.push('>P1');
    reader.push('MKT');
    const first = reader.finish();
    expect(reader.finish()).toBe(first);
    expect(() => reader.push('>P2')).toThrow('push() after finish()');
  });
});
