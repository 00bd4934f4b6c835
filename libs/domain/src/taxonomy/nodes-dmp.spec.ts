import { MAX_TAX_ID, parseNodesDmp, parseNodesDmpLine } from './nodes-dmp';
import { NODES_DMP_EXCERPT, NODES_EXCERPT } from '../../testing/taxonomy/nodes-excerpt';

const T = '\t|\t';

describe('parseNodesDmpLine', () => {
  it.each([
    {
      name: 'a classic 13-field line (only the first three fields count)',
      line: `9606${T}9605${T}species${T}HS${T}5${T}1${T}1${T}1${T}2${T}1${T}1${T}0${T}\t|`,
      expected: { taxId: 9606, parentTaxId: 9605, rank: 'species' },
    },
    {
      name: 'the root, its own parent',
      line: `1${T}1${T}no rank${T}\t|`,
      expected: { taxId: 1, parentTaxId: 1, rank: 'no rank' },
    },
    {
      name: 'a CRLF line ending',
      line: `10090${T}862507${T}species\t|\r`,
      expected: { taxId: 10090, parentTaxId: 862507, rank: 'species' },
    },
    {
      name: 'an empty rank reads as no rank',
      line: `5${T}1${T}\t|`,
      expected: { taxId: 5, parentTaxId: 1, rank: 'no rank' },
    },
    { name: 'a blank line', line: '  ', expected: null },
    {
      name: 'comma separated',
      line: '9606,9605,species',
      expected: { problem: expect.stringContaining('separated by') },
    },
    {
      name: 'two fields only',
      line: `9606${T}9605`,
      expected: { problem: expect.stringContaining('separated by') },
    },
    {
      name: 'a text tax id',
      line: `human${T}9605${T}species\t|`,
      expected: { problem: expect.stringContaining("tax_id 'human'") },
    },
    {
      name: 'tax id 0',
      line: `0${T}1${T}species\t|`,
      expected: { problem: expect.stringContaining("tax_id '0'") },
    },
    {
      name: 'a tax id beyond the bound',
      line: `${MAX_TAX_ID + 1}${T}1${T}species\t|`,
      expected: { problem: expect.stringContaining('is not an integer') },
    },
    {
      name: 'a bad parent',
      line: `9606${T}-1${T}species\t|`,
      expected: { problem: expect.stringContaining("parent tax_id '-1'") },
    },
  ])('$name', ({ line, expected }) => {
    expect(parseNodesDmpLine(line)).toEqual(expected);
  });
});

describe('parseNodesDmp', () => {
  it('reads the hand-written excerpt', () => {
    const { nodes, problems } = parseNodesDmp(`${NODES_DMP_EXCERPT}\n`);
    expect(problems).toEqual([]);
    expect(nodes).toHaveLength(NODES_EXCERPT.length);
    expect(nodes).toContainEqual({ taxId: 559292, parentTaxId: 4932, rank: 'strain' });
  });

  it('reports bad and duplicate lines with their line numbers and keeps the rest', () => {
    const text = [
      `1${T}1${T}no rank\t|`,
      'garbage',
      '',
      `9606${T}1${T}species\t|`,
      `9606${T}9605${T}species\t|`,
    ].join('\n');
    expect(parseNodesDmp(text)).toEqual({
      nodes: [
        { taxId: 1, parentTaxId: 1, rank: 'no rank' },
        { taxId: 9606, parentTaxId: 1, rank: 'species' },
      ],
      problems: [
        { lineNumber: 2, message: expect.stringContaining('separated by') },
        { lineNumber: 5, message: 'tax_id 9606 appears twice' },
      ],
    });
  });
});
