import { aspectOfNamespace } from './go-aspect';
import { OboParser, parseObo, readObo } from './obo-parser';
import type { OboTerm } from './obo-types';

/** Parses one `[Term]` stanza made of the given lines and returns it. */
function onlyTerm(lines: string[]): OboTerm {
  const doc = parseObo(['[Term]', 'id: GO:0000001', ...lines].join('\n'));
  expect(doc.terms).toHaveLength(1);
  return doc.terms[0] as OboTerm;
}

describe('aspectOfNamespace', () => {
  it.each([
    ['molecular_function', 'F'],
    ['biological_process', 'P'],
    ['cellular_component', 'C'],
    ['F', null],
    ['P', null],
    ['external', null],
    ['Molecular_Function', null],
    ['', null],
    ['toString', null],
    [null, null],
  ])('%j -> %j', (ns, expected) => expect(aspectOfNamespace(ns)).toBe(expected));
});

describe('OboParser: term tags', () => {
  it.each<{ name: string; lines: string[]; expected: Partial<OboTerm> }>([
    {
      name: 'plain fields and aspect',
      lines: ['name: mitochondrion inheritance', 'namespace: biological_process'],
      expected: { name: 'mitochondrion inheritance', namespace: 'biological_process', aspect: 'P' },
    },
    {
      name: 'defaults when tags are missing',
      lines: [],
      expected: {
        name: null,
        namespace: null,
        aspect: null,
        definition: null,
        isObsolete: false,
        altIds: [],
        parents: [],
      },
    },
    {
      name: 'unknown namespace has no aspect',
      lines: ['namespace: external'],
      expected: { namespace: 'external', aspect: null },
    },
    {
      name: 'definition without its dbxrefs',
      lines: ['def: "The distribution of mitochondria." [GOC:mcc, PMID:10873824]'],
      expected: { definition: 'The distribution of mitochondria.' },
    },
    {
      name: 'definition with escaped quotes and backslashes',
      lines: ['def: "A \\"so-called\\" C:\\\\path term." []'],
      expected: { definition: 'A "so-called" C:\\path term.' },
    },
    {
      name: 'definition keeps braces, brackets and bangs inside the quotes',
      lines: ['def: "N(4)-{N-acetyl}-[protein]! done." [] {comment="x"} ! trailing'],
      expected: { definition: 'N(4)-{N-acetyl}-[protein]! done.' },
    },
    {
      name: 'obsolete flag',
      lines: ['is_obsolete: true'],
      expected: { isObsolete: true },
    },
    {
      name: 'obsolete flag set to false',
      lines: ['is_obsolete: false'],
      expected: { isObsolete: false },
    },
    {
      name: 'several alt ids, repeated ones once',
      lines: ['alt_id: GO:0019952', 'alt_id: GO:0050876', 'alt_id: GO:0019952 ! again'],
      expected: { altIds: ['GO:0019952', 'GO:0050876'] },
    },
    {
      name: 'is_a with comment and qualifier',
      lines: ['is_a: GO:0000002 ! parent', 'is_a: GO:0000003 {is_inferred="true"} ! other parent'],
      expected: {
        parents: [
          { id: 'GO:0000002', relation: 'is_a' },
          { id: 'GO:0000003', relation: 'is_a' },
        ],
      },
    },
    {
      name: 'the propagating relationship kinds are kept',
      lines: [
        'relationship: part_of GO:0000002 ! whole',
        'relationship: regulates GO:0000003 ! r',
        'relationship: negatively_regulates GO:0000004 {source="x"} ! n',
        'relationship: positively_regulates GO:0000005',
      ],
      expected: {
        parents: [
          { id: 'GO:0000002', relation: 'part_of' },
          { id: 'GO:0000003', relation: 'regulates' },
          { id: 'GO:0000004', relation: 'negatively_regulates' },
          { id: 'GO:0000005', relation: 'positively_regulates' },
        ],
      },
    },
    {
      name: 'other relationship kinds and intersection_of are ignored',
      lines: [
        'relationship: has_part GO:0000002 ! h',
        'relationship: occurs_in GO:0000003 ! o',
        'relationship: ends_during GO:0000004',
        'relationship: part_of',
        'intersection_of: GO:0000005 ! genus',
        'intersection_of: part_of GO:0000006 ! differentia',
      ],
      expected: { parents: [] },
    },
    {
      name: 'duplicate parents once, same target under two relations twice',
      lines: [
        'is_a: GO:0000002',
        'is_a: GO:0000002 ! repeated',
        'relationship: part_of GO:0000002',
        'relationship: part_of GO:0000002 {source="y"}',
      ],
      expected: {
        parents: [
          { id: 'GO:0000002', relation: 'is_a' },
          { id: 'GO:0000002', relation: 'part_of' },
        ],
      },
    },
    {
      name: 'CRLF line endings and trailing whitespace',
      lines: ['name: spaced name \t\r', 'namespace: cellular_component\r', 'is_a: GO:0000002 ! p  \r'],
      expected: {
        name: 'spaced name',
        aspect: 'C',
        parents: [{ id: 'GO:0000002', relation: 'is_a' }],
      },
    },
    {
      name: 'blank lines and comment lines inside a stanza',
      lines: ['', '! name: not this', '   ', 'name: this one'],
      expected: { name: 'this one' },
    },
    {
      name: 'name with a trailing comment, braces inside a word kept',
      lines: ['name: N-{acetyl}glucosamine binding ! note'],
      expected: { name: 'N-{acetyl}glucosamine binding' },
    },
    {
      name: 'tags that are not needed are ignored',
      lines: ['synonym: "x" EXACT []', 'xref: EC:1.1.1.1', 'subset: goslim_generic', 'comment: c'],
      expected: { name: null, parents: [] },
    },
  ])('$name', ({ lines, expected }) => expect(onlyTerm(lines)).toMatchObject(expected));
});

describe('OboParser: document structure', () => {
  it.each<{ name: string; text: string; terms: string[]; typedefs: string[] }>([
    {
      name: 'a stanza without an id is dropped',
      text: '[Term]\nname: anonymous\n\n[Term]\nid: GO:0000001\n',
      terms: ['GO:0000001'],
      typedefs: [],
    },
    {
      name: 'a stanza with an empty id is dropped',
      text: '[Term]\nid:\nname: empty\n[Term]\nid: GO:0000002',
      terms: ['GO:0000002'],
      typedefs: [],
    },
    {
      name: 'Typedef ids are recorded and their tags do not leak into terms',
      text: [
        '[Term]',
        'id: GO:0000001',
        '[Typedef]',
        'id: part_of',
        'name: part of',
        'is_a: overlaps ! overlaps',
        'is_transitive: true',
        '[Term]',
        'id: GO:0000002',
        '[Typedef]',
        'id: regulates ! regulates',
      ].join('\n'),
      terms: ['GO:0000001', 'GO:0000002'],
      typedefs: ['part_of', 'regulates'],
    },
    {
      name: 'other stanza types are skipped whole',
      text: '[Instance]\nid: inst1\ninstance_of: GO:0000001\n[Term]\nid: GO:0000001\n[Annotation]\nid: x',
      terms: ['GO:0000001'],
      typedefs: [],
    },
    {
      name: 'the last stanza is closed without a trailing newline',
      text: '[Term]\nid: GO:0000001\n[Term]\nid: GO:0000002',
      terms: ['GO:0000001', 'GO:0000002'],
      typedefs: [],
    },
    {
      name: 'CRLF stanza headers',
      text: '[Term]\r\nid: GO:0000001\r\n\r\n[Typedef]\r\nid: part_of\r\n',
      terms: ['GO:0000001'],
      typedefs: ['part_of'],
    },
    {
      name: 'an empty document',
      text: '',
      terms: [],
      typedefs: [],
    },
  ])('$name', ({ text, terms, typedefs }) => {
    const doc = parseObo(text);
    expect(doc.terms.map((t) => t.id)).toEqual(terms);
    expect(doc.typedefs).toEqual(typedefs);
  });

  it('keeps the first id of a stanza that repeats the tag', () => {
    expect(parseObo('[Term]\nid: GO:0000001\nid: GO:0000009').terms.map((t) => t.id)).toEqual(['GO:0000001']);
  });
});

describe('OboParser: header', () => {
  it.each([
    {
      name: 'all four tags',
      text: [
        'format-version: 1.2',
        'data-version: releases/2022-07-01',
        'date: 01:07:2022 12:34',
        'saved-by: someone',
        'ontology: go',
        'remark: free text: with colons',
        '',
        '[Term]',
        'id: GO:0000001',
      ].join('\n'),
      expected: {
        formatVersion: '1.2',
        dataVersion: 'releases/2022-07-01',
        ontology: 'go',
        date: '01:07:2022 12:34',
      },
    },
    {
      name: 'missing header',
      text: '[Term]\nid: GO:0000001',
      expected: { formatVersion: null, dataVersion: null, ontology: null, date: null },
    },
    {
      name: 'free-text lines, a byte order mark, CRLF and comments',
      text: '\uFEFFformat-version: 1.2\r\nThis is a small example\r\n! data-version: no\r\nontology: go ! comment\r\n',
      expected: { formatVersion: '1.2', dataVersion: null, ontology: 'go', date: null },
    },
    {
      name: 'header-like tags inside a stanza are not header tags',
      text: '[Term]\nid: GO:0000001\ndata-version: inside',
      expected: { formatVersion: null, dataVersion: null, ontology: null, date: null },
    },
  ])('$name', ({ text, expected }) => expect(parseObo(text).header).toEqual(expected));
});

describe('OboParser: streaming', () => {
  const lines = [
    'format-version: 1.2',
    '[Term]',
    'id: GO:0000001',
    'namespace: molecular_function',
    '[Term]',
    'id: GO:0000002',
    'is_a: GO:0000001',
  ];

  it('gives the same document from a sync iterable, an async iterable and the whole text', async () => {
    async function* asyncLines(): AsyncGenerator<string> {
      for (const line of lines) yield line;
    }
    const fromText = parseObo(lines.join('\r\n'));
    await expect(readObo(lines)).resolves.toEqual(fromText);
    await expect(readObo(asyncLines())).resolves.toEqual(fromText);
    expect(fromText.terms).toHaveLength(2);
  });

  it('reads a string given to readObo as text, not as characters', async () => {
    await expect(readObo(lines.join('\n'))).resolves.toEqual(parseObo(lines.join('\n')));
  });

  it('refuses lines after finish and returns the same terms on a second finish', () => {
    const parser = new OboParser();
    for (const line of lines) parser.push(line);
    const first = parser.finish();
    expect(parser.finish().terms).toEqual(first.terms);
    expect(() => parser.push('[Term]')).toThrow(/after finish/);
  });
});
