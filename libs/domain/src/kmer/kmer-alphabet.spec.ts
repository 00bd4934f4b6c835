import {
  FULL20_ALPHABET,
  KMER_ALPHABETS,
  KmerAlphabet,
  kmerAlphabetProblems,
  MURPHY10_ALPHABET,
  MURPHY15_ALPHABET,
  MURPHY8_ALPHABET,
  reduceSequence,
  residueCodeTable,
  UNKNOWN_RESIDUE,
} from './kmer-alphabet';

describe('built-in alphabets', () => {
  it.each(KMER_ALPHABETS.map((alphabet) => ({ name: alphabet.name, alphabet })))(
    '$name covers the 20 amino acids once',
    ({ alphabet }) => {
      expect(kmerAlphabetProblems(alphabet)).toEqual([]);
    },
  );

  it.each([
    { alphabet: FULL20_ALPHABET, size: 20 },
    { alphabet: MURPHY15_ALPHABET, size: 15 },
    { alphabet: MURPHY10_ALPHABET, size: 10 },
    { alphabet: MURPHY8_ALPHABET, size: 8 },
  ])('$alphabet.name has $size letters', ({ alphabet, size }) => {
    expect(alphabet.groups).toHaveLength(size);
  });
});

describe('kmerAlphabetProblems', () => {
  const cases: { name: string; alphabet: KmerAlphabet; problems: string[] }[] = [
    {
      name: 'a letter missing',
      alphabet: { name: 'a', groups: ['ACDEFGHIKLMNPQRSTVW', 'B'] },
      problems: ["alphabet a: 'B' is not a standard amino acid", 'alphabet a does not cover Y'],
    },
    {
      name: 'a letter twice',
      alphabet: { name: 'b', groups: ['ACDEFGHIKLMNPQRSTVWY', 'A'] },
      problems: ["alphabet b: 'A' is in two groups"],
    },
    {
      name: 'one group only',
      alphabet: { name: 'c', groups: ['ACDEFGHIKLMNPQRSTVWY'] },
      problems: ['alphabet c must have 2 to 20 groups, has 1'],
    },
    {
      name: 'an empty group',
      alphabet: { name: 'd', groups: ['ACDEFGHIKLMNPQRSTVWY', ''] },
      problems: ['alphabet d has an empty group'],
    },
  ];
  it.each(cases)('$name', ({ alphabet, problems }) => {
    expect(kmerAlphabetProblems(alphabet)).toEqual(problems);
  });
});

describe('reduceSequence', () => {
  const cases: { name: string; sequence: string; alphabet: KmerAlphabet; expected: string }[] = [
    {
      name: 'standard residues, full alphabet',
      sequence: 'MKVL',
      alphabet: FULL20_ALPHABET,
      expected: 'MKVL',
    },
    { name: 'lower case reads as upper case', sequence: 'mkVl', alphabet: FULL20_ALPHABET, expected: 'MKVL' },
    {
      name: 'murphy10 groups I/L/V/M',
      sequence: 'MKVLIDENQ',
      alphabet: MURPHY10_ALPHABET,
      expected: 'LKLLLEEEE',
    },
    { name: 'X is unknown', sequence: 'AXA', alphabet: FULL20_ALPHABET, expected: 'A-A' },
    { name: 'U reads as C, O as K', sequence: 'UO', alphabet: FULL20_ALPHABET, expected: 'CK' },
    {
      name: 'B, Z and J are unknown when their candidates differ',
      sequence: 'BZJ',
      alphabet: FULL20_ALPHABET,
      expected: '---',
    },
    {
      name: 'B and Z fall in one murphy10 group, J too',
      sequence: 'BZJ',
      alphabet: MURPHY10_ALPHABET,
      expected: 'EEL',
    },
    {
      name: 'Z splits in murphy15 (E and Q apart), B too',
      sequence: 'BZJ',
      alphabet: MURPHY15_ALPHABET,
      expected: '--L',
    },
    {
      name: 'stop, gap, digit and space are unknown',
      sequence: 'A*-1 A',
      alphabet: FULL20_ALPHABET,
      expected: 'A----A',
    },
    {
      name: 'non-ASCII letters are unknown (ı upper-cases to I)',
      sequence: 'ıſ',
      alphabet: FULL20_ALPHABET,
      expected: '--',
    },
    { name: 'empty', sequence: '', alphabet: FULL20_ALPHABET, expected: '' },
  ];
  it.each(cases)('$name', ({ sequence, alphabet, expected }) => {
    expect(reduceSequence({ sequence, alphabet })).toBe(expected);
  });
});

describe('residueCodeTable', () => {
  it('gives group indices to letters of both cases and UNKNOWN_RESIDUE to the rest', () => {
    const table = residueCodeTable(MURPHY8_ALPHABET);
    expect(table).toHaveLength(128);
    expect(table['C'.charCodeAt(0)]).toBe(0);
    expect(table['c'.charCodeAt(0)]).toBe(0);
    expect(table['G'.charCodeAt(0)]).toBe(1);
    expect(table['X'.charCodeAt(0)]).toBe(UNKNOWN_RESIDUE);
    expect(table['0'.charCodeAt(0)]).toBe(UNKNOWN_RESIDUE);
  });
});
