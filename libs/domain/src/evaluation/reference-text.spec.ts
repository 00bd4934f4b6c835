import { thresholdGrid, thresholdsReached } from './cafa-curve';
import { forEachLine, forEachTokenLine, parsePythonFloat, splitPythonWhitespace } from './reference-text';

describe('forEachLine (Python text-mode lines)', () => {
  it.each<[string, string, string[]]>([
    ['empty text has no line', '', []],
    ['a final newline starts no extra line', 'a\nb\n', ['a', 'b']],
    ['a blank last line is a line', 'a\n\n', ['a', '']],
    ['no final newline', 'a\nb', ['a', 'b']],
    ['CRLF and lone CR', 'a\r\nb\rc', ['a', 'b', 'c']],
  ])('%s', (_name, text, expected) => {
    const lines: string[] = [];
    forEachLine(text, (line) => lines.push(line));
    expect(lines).toEqual(expected);
  });
});

describe('forEachTokenLine (str.split())', () => {
  it('caps the count at maxTokens + 1 and reports blank lines', () => {
    const seen: [string[], number][] = [];
    forEachTokenLine('a b\n\n  x\ty  z w\r\n', 2, (tokens, count) =>
      seen.push([tokens.slice(0, Math.min(count, 2)), count]),
    );
    expect(seen).toEqual([
      [['a', 'b'], 2],
      [[], 0],
      [['x', 'y'], 3],
    ]);
  });

  it('splits on any whitespace run, unicode spaces included', () => {
    expect(splitPythonWhitespace(' P1\u00a0 GO:1\t\v0.5 ')).toEqual(['P1', 'GO:1', '0.5']);
  });
});

describe('parsePythonFloat', () => {
  it.each<[string, number]>([
    ['0.5', 0.5],
    ['1', 1],
    ['.5', 0.5],
    ['5.', 5],
    ['-1e-3', -0.001],
    ['1E2', 100],
    ['+0.25', 0.25],
    ['1_000.5', 1000.5],
    [' 0.75 ', 0.75],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['0.060', 0.06],
  ])('%j -> %d', (text, value) => expect(parsePythonFloat(text)).toBe(value));

  it('reads nan', () => expect(parsePythonFloat('NaN')).toBeNaN());

  it.each(['', 'ia', '0x10', '1e', '.', '-', '1__0', '_1', '1_', 'Infinity5', '1.2.3', '0b1'])(
    '%j is rejected as float() rejects it',
    (text) => expect(parsePythonFloat(text)).toBeNull(),
  );
});

const NON_LITERAL_001 = [
  0.060000000000000005, 0.06999999999999999, 0.09999999999999999, 0.15000000000000002, 0.18000000000000002,
  0.21000000000000002, 0.24000000000000002, 0.29000000000000004, 0.35000000000000003, 0.36000000000000004,
  0.41000000000000003, 0.42000000000000004, 0.47000000000000003, 0.48000000000000004, 0.5700000000000001,
  0.5800000000000001, 0.6900000000000001, 0.7000000000000001, 0.7100000000000001, 0.8200000000000001,
  0.8300000000000001, 0.8400000000000001, 0.9400000000000001, 0.9500000000000001, 0.9600000000000001,
];

describe('thresholdGrid (np.arange(step, 1, step))', () => {
  it('step 0.01: 99 thresholds, 25 of them off the 2-decimal literal', () => {
    const grid = thresholdGrid(0.01);
    expect(grid).toHaveLength(99);
    expect(grid[0]).toBe(0.01);
    expect(grid[98]).toBe(0.99);
    expect([...grid].filter((t) => t !== Number(t.toFixed(2)))).toEqual(NON_LITERAL_001);
  });

  it('step 0.001: 999 thresholds, 170 off the literal', () => {
    const grid = thresholdGrid(0.001);
    expect(grid).toHaveLength(999);
    expect([...grid].filter((t) => t !== Number(t.toFixed(3)))).toHaveLength(170);
  });

  it.each([0, 1, -0.1, Number.NaN])('step %d is refused', (step) => {
    expect(() => thresholdGrid(step)).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });

  it.each<[number, number]>([
    [0.005, 0],
    [0.01, 1],
    [0.06, 5],
    [0.07, 7],
    [0.3, 30],
    [0.99, 99],
    [5, 99],
  ])('a score of %d reaches %d thresholds (>=)', (score, reached) => {
    expect(thresholdsReached(thresholdGrid(0.01), score)).toBe(reached);
  });
});
