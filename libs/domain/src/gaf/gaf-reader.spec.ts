import { GafReader } from './gaf-reader';

const RECORD =
  'MGI\tMGI:101757\tCfl1\tenables\tGO:0051015\tGO_REF:0000119\tISO\tUniProtKB:P23528\tF\tcofilin 1\t\tprotein\ttaxon:10090\t20240319\tGO_Central\t\t';

describe('GafReader', () => {
  it('numbers lines from 1 and collects the header', () => {
    const reader = new GafReader();
    const kinds = ['!gaf-version: 2.2\r', '!generated-by: MGI', '! prose', '', RECORD, 'broken'].map((line) =>
      reader.push(line),
    );
    expect(kinds.map((line) => line.kind)).toEqual([
      'header',
      'header',
      'comment',
      'comment',
      'record',
      'error',
    ]);
    expect(kinds[4]).toMatchObject({ kind: 'record', record: { lineNumber: 5, goId: 'GO:0051015' } });
    expect(kinds[5]).toMatchObject({ kind: 'error', lineNumber: 6, line: 'broken' });
    expect(reader.header).toEqual({
      version: '2.2',
      properties: { 'gaf-version': '2.2', 'generated-by': 'MGI' },
    });
  });

  it.each<{ name: string; lines: string[]; version: string | null; properties: Record<string, string> }>([
    { name: 'no header at all', lines: [RECORD], version: null, properties: {} },
    {
      name: 'a repeated key keeps its first value (merged files)',
      lines: ['!Date Generated: 2024-03-19', '!Date Generated: 2024-03-20'],
      version: null,
      properties: { 'Date Generated': '2024-03-19' },
    },
    {
      name: 'the version key in another case',
      lines: ['!GAF-Version: 2.1'],
      version: '2.1',
      properties: { 'GAF-Version': '2.1' },
    },
    {
      name: 'a key that is an Object.prototype member',
      lines: ['!constructor: x', '!toString: y'],
      version: null,
      properties: { constructor: 'x', toString: 'y' },
    },
  ])('header: $name', ({ lines, version, properties }) => {
    const reader = new GafReader();
    lines.forEach((line) => reader.push(line));
    expect(reader.header).toEqual({ version, properties });
  });

  it('hands out a copy of the header, not its own state', () => {
    const reader = new GafReader();
    reader.push('!gaf-version: 2.2');
    reader.header.properties['gaf-version'] = 'tampered';
    expect(reader.header.properties['gaf-version']).toBe('2.2');
  });
});
