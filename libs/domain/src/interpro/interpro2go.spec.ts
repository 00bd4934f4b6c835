import {
  Interpro2GoParser,
  parseInterpro2Go,
  parseInterpro2GoLine,
  readInterpro2Go,
  type Interpro2GoLine,
} from './interpro2go';

// The header as InterPro publishes it, including the stray `!` after the contact address.
const SAMPLE = [
  '!date: 2024/01/10 15:09:32',
  '!Mapping of InterPro entries to GO',
  '!external resource: http://www.ebi.ac.uk/interpro',
  '!citation: Blum et al. (2021) Nucl. Acids Res. 49:D344-D354',
  '!contact:interhelp@ebi.ac.uk!',
  '!',
  'InterPro:IPR000003 Retinoid X receptor/HNF4 > GO:DNA binding ; GO:0003677',
  'InterPro:IPR000003 Retinoid X receptor/HNF4 > GO:nuclear steroid receptor activity ; GO:0003707',
  'InterPro:IPR000001 Kringle > GO:protein binding ; GO:0005515',
  '',
].join('\n');

describe('parseInterpro2GoLine', () => {
  it.each<[string, string, Interpro2GoLine]>([
    [
      'a mapping',
      'InterPro:IPR000003 Retinoid X receptor/HNF4 > GO:DNA binding ; GO:0003677',
      {
        kind: 'mapping',
        mapping: {
          iprAccession: 'IPR000003',
          iprName: 'Retinoid X receptor/HNF4',
          goName: 'DNA binding',
          goId: 'GO:0003677',
        },
      },
    ],
    [
      'CRLF and trailing whitespace',
      'InterPro:IPR000001 Kringle > GO:protein binding ; GO:0005515 \t\r',
      {
        kind: 'mapping',
        mapping: {
          iprAccession: 'IPR000001',
          iprName: 'Kringle',
          goName: 'protein binding',
          goId: 'GO:0005515',
        },
      },
    ],
    [
      'names with ">", ";" and commas',
      'InterPro:IPR000123 A > B; C, D domain > GO:oxidoreductase activity, acting on X; Y ; GO:0016491',
      {
        kind: 'mapping',
        mapping: {
          iprAccession: 'IPR000123',
          iprName: 'A > B; C, D domain',
          goName: 'oxidoreductase activity, acting on X; Y',
          goId: 'GO:0016491',
        },
      },
    ],
    [
      'GO name containing "GO:"',
      'InterPro:IPR000124 Entry > GO:GO:weird name ; GO:0000001',
      {
        kind: 'mapping',
        mapping: { iprAccession: 'IPR000124', iprName: 'Entry', goName: 'GO:weird name', goId: 'GO:0000001' },
      },
    ],
    ['date header', '!date: 2024/01/10 15:09:32', { kind: 'comment', sourceVersion: '2024/01/10 15:09:32' }],
    ['older header', '!version date: 2016/04/12  \r', { kind: 'comment', sourceVersion: '2016/04/12' }],
    ['spaced header', '! date :  2020/01/01 ', { kind: 'comment', sourceVersion: '2020/01/01' }],
    ['empty date header', '!date:', { kind: 'comment', sourceVersion: null }],
    ['other comment', '!Mapping of InterPro entries to GO', { kind: 'comment', sourceVersion: null }],
    ['bare bang', '!', { kind: 'comment', sourceVersion: null }],
    ['blank', '', { kind: 'blank' }],
    ['whitespace only', ' \t\r', { kind: 'blank' }],
    [
      'no InterPro prefix',
      'IPR000001 Kringle > GO:protein binding ; GO:0005515',
      { kind: 'error', message: 'expected a line starting with "InterPro:"' },
    ],
    [
      'free text',
      'malformed line with no arrow',
      { kind: 'error', message: 'expected a line starting with "InterPro:"' },
    ],
    [
      'bad accession',
      'InterPro:IPR12 Kringle > GO:protein binding ; GO:0005515',
      { kind: 'error', message: 'invalid InterPro accession "IPR12"' },
    ],
    ['accession only', 'InterPro:IPR000001', { kind: 'error', message: 'missing "; GO:nnnnnnn" at the end' }],
    [
      'missing GO id separator',
      'InterPro:IPR000001 Kringle > GO:protein binding GO:0005515',
      { kind: 'error', message: 'missing "; GO:nnnnnnn" at the end' },
    ],
    [
      'truncated GO id',
      'InterPro:IPR999999 Retired entry > GO:nothing ; GO:000000',
      { kind: 'error', message: 'invalid GO id "GO:000000"' },
    ],
    [
      'GO id with trailing text',
      'InterPro:IPR000001 Kringle > GO:protein binding ; GO:0005515 extra',
      { kind: 'error', message: 'invalid GO id "GO:0005515 extra"' },
    ],
    [
      'missing arrow',
      'InterPro:IPR000001 Kringle GO:protein binding ; GO:0005515',
      { kind: 'error', message: 'missing "> GO:" before the GO term name' },
    ],
    [
      'empty entry name',
      'InterPro:IPR000001  > GO:protein binding ; GO:0005515',
      { kind: 'error', message: 'empty InterPro entry name for IPR000001' },
    ],
    [
      'empty GO name',
      'InterPro:IPR000001 Kringle > GO: ; GO:0005515',
      { kind: 'error', message: 'empty GO term name for GO:0005515' },
    ],
  ])('%s', (_name, line, expected) => expect(parseInterpro2GoLine(line)).toEqual(expected));
});

describe('parseInterpro2Go', () => {
  it('reads the header version and every mapping with its line number', () => {
    const doc = parseInterpro2Go(SAMPLE);
    expect(doc.sourceVersion).toBe('2024/01/10 15:09:32');
    expect(doc.errors).toEqual([]);
    expect(doc.mappings.map((m) => [m.lineNumber, m.iprAccession, m.goId])).toEqual([
      [7, 'IPR000003', 'GO:0003677'],
      [8, 'IPR000003', 'GO:0003707'],
      [9, 'IPR000001', 'GO:0005515'],
    ]);
  });

  it.each([
    {
      name: 'malformed lines become errors with line numbers, the rest still loads',
      text: [
        '!date: 2024/01/10',
        'InterPro:IPR000001 Kringle > GO:protein binding ; GO:0005515',
        'malformed line with no arrow',
        'InterPro:IPR999999 Retired entry > GO:nothing ; GO:000000',
        'InterPro:IPR000002 Cdc20/Fizzy > GO:protein binding ; GO:0005515',
      ].join('\n'),
      sourceVersion: '2024/01/10',
      mappings: [
        [2, 'IPR000001', 'GO:0005515'],
        [5, 'IPR000002', 'GO:0005515'],
      ],
      errors: [3, 4],
    },
    {
      name: 'duplicate pairs are both kept',
      text: [
        'InterPro:IPR000685 RuBisCO large subunit > GO:RuBisCO activity ; GO:0016984',
        'InterPro:IPR000685 RuBisCO large subunit > GO:duplicate ; GO:0016984',
        'InterPro:IPR000685 RuBisCO large subunit > GO:RuBisCO activity ; GO:0016984',
      ].join('\n'),
      sourceVersion: null,
      mappings: [
        [1, 'IPR000685', 'GO:0016984'],
        [2, 'IPR000685', 'GO:0016984'],
        [3, 'IPR000685', 'GO:0016984'],
      ],
      errors: [],
    },
    {
      name: 'CRLF file with a byte order mark; blank lines still count for line numbers',
      text: '\uFEFF!version date: 2016/04/12 10:00:00\r\n\r\nInterPro:IPR000001 Kringle > GO:protein binding ; GO:0005515\r\n',
      sourceVersion: '2016/04/12 10:00:00',
      mappings: [[3, 'IPR000001', 'GO:0005515']],
      errors: [],
    },
    {
      name: 'the first version header wins',
      text: '!date: 2024/01/10\n!date: 1999/01/01\n',
      sourceVersion: '2024/01/10',
      mappings: [],
      errors: [],
    },
    {
      name: 'a version header after the mappings is still read',
      text: 'InterPro:IPR000001 Kringle > GO:protein binding ; GO:0005515\n!date: 2024/01/10',
      sourceVersion: '2024/01/10',
      mappings: [[1, 'IPR000001', 'GO:0005515']],
      errors: [],
    },
    { name: 'an empty file', text: '', sourceVersion: null, mappings: [], errors: [] },
  ])('$name', ({ text, sourceVersion, mappings, errors }) => {
    const doc = parseInterpro2Go(text);
    expect(doc.sourceVersion).toBe(sourceVersion);
    expect(doc.mappings.map((m) => [m.lineNumber, m.iprAccession, m.goId])).toEqual(mappings);
    expect(doc.errors.map((e) => e.lineNumber)).toEqual(errors);
  });

  it('does not count the final newline as a line', () => {
    const doc = parseInterpro2Go('bad line\n');
    expect(doc.errors).toEqual([{ lineNumber: 1, message: 'expected a line starting with "InterPro:"' }]);
  });
});

describe('streaming', () => {
  const lines = SAMPLE.split('\n').slice(0, -1);

  it('gives the same result from sync lines, async lines and the whole text', async () => {
    async function* asyncLines(): AsyncGenerator<string> {
      for (const line of lines) yield `${line}\r`;
    }
    const expected = parseInterpro2Go(SAMPLE);
    await expect(readInterpro2Go(lines)).resolves.toEqual(expected);
    await expect(readInterpro2Go(asyncLines())).resolves.toEqual(expected);
  });

  it('reads a string given to readInterpro2Go as text, not as characters', async () => {
    await expect(readInterpro2Go(SAMPLE)).resolves.toEqual(parseInterpro2Go(SAMPLE));
  });

  it('numbers lines as they are pushed', () => {
    const parser = new Interpro2GoParser();
    parser.push('!date: 2024/01/10');
    parser.push('oops');
    parser.push('InterPro:IPR000001 Kringle > GO:protein binding ; GO:0005515');
    expect(parser.finish()).toEqual({
      sourceVersion: '2024/01/10',
      mappings: [
        {
          iprAccession: 'IPR000001',
          iprName: 'Kringle',
          goName: 'protein binding',
          goId: 'GO:0005515',
          lineNumber: 3,
        },
      ],
      errors: [{ lineNumber: 2, message: 'expected a line starting with "InterPro:"' }],
    });
  });
});
