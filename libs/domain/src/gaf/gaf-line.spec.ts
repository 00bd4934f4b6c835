import { parseGafLine } from './gaf-line';
import type { GafLine, GafRecord } from './gaf-record';

/** A valid 17-column GAF 2.2 line; cases change one column at a time (1-based). */
const BASE = [
  'UniProtKB',
  'P12345',
  'ABC',
  'enables',
  'GO:0005515',
  'PMID:123|GO_REF:0000024',
  'IPI',
  'UniProtKB:Q9Y6K9',
  'F',
  'Protein ABC',
  'ABC1|abc',
  'protein',
  'taxon:9606',
  '20240131',
  'UniProt',
  'occurs_in(CL:0000057)',
  'UniProtKB:P12345-2',
];

function lineWith(changes: Record<number, string> = {}, columns = BASE): string {
  return columns.map((value, index) => changes[index + 1] ?? value).join('\t');
}

function record(parsed: GafLine): GafRecord {
  if (parsed.kind !== 'record') throw new Error(`expected a record, got ${JSON.stringify(parsed)}`);
  return parsed.record;
}

describe('parseGafLine: a valid line', () => {
  it('maps every column', () => {
    expect(parseGafLine(lineWith(), 42)).toEqual({
      kind: 'record',
      record: {
        lineNumber: 42,
        db: 'UniProtKB',
        dbObjectId: 'P12345',
        dbObjectSymbol: 'ABC',
        qualifier: 'enables',
        qualifiers: ['enables'],
        isNot: false,
        relation: 'enables',
        goId: 'GO:0005515',
        dbReference: 'PMID:123|GO_REF:0000024',
        evidenceCode: 'IPI',
        withFrom: 'UniProtKB:Q9Y6K9',
        aspect: 'F',
        dbObjectName: 'Protein ABC',
        dbObjectSynonyms: ['ABC1', 'abc'],
        dbObjectType: 'protein',
        taxa: ['9606'],
        date: '20240131',
        assignedBy: 'UniProt',
        annotationExtension: 'occurs_in(CL:0000057)',
        geneProductFormId: 'UniProtKB:P12345-2',
      },
    });
  });

  it.each([
    { name: '17 columns', line: lineWith(), extension: 'occurs_in(CL:0000057)', form: 'UniProtKB:P12345-2' },
    {
      name: '16 columns (form id dropped)',
      line: BASE.slice(0, 16).join('\t'),
      extension: 'occurs_in(CL:0000057)',
      form: null,
    },
    {
      name: '15 columns (both optional columns dropped)',
      line: BASE.slice(0, 15).join('\t'),
      extension: null,
      form: null,
    },
    {
      name: '17 columns, trailing ones empty',
      line: lineWith({ 16: '', 17: '' }),
      extension: null,
      form: null,
    },
  ])('accepts $name', ({ line, extension, form }) => {
    const parsed = record(parseGafLine(line, 1));
    expect(parsed.annotationExtension).toBe(extension);
    expect(parsed.geneProductFormId).toBe(form);
  });

  it.each([
    { name: 'CRLF line ending', line: `${lineWith()}\r` },
    { name: 'LF left on the line', line: `${lineWith()}\n` },
    { name: 'byte order mark', line: `\uFEFF${lineWith()}` },
    { name: 'spaces around values', line: lineWith({ 2: ' P12345 ', 5: 'GO:0005515 ', 15: ' UniProt' }) },
  ])('tolerates $name', ({ line }) => {
    const parsed = record(parseGafLine(line, 1));
    expect(parsed).toMatchObject({ dbObjectId: 'P12345', goId: 'GO:0005515', assignedBy: 'UniProt' });
    expect(parsed.geneProductFormId).toBe('UniProtKB:P12345-2');
  });

  it('turns empty optional columns into null / []', () => {
    expect(record(parseGafLine(lineWith({ 4: '', 8: '', 10: '', 11: '' }), 1))).toMatchObject({
      qualifier: '',
      qualifiers: [],
      isNot: false,
      relation: null,
      withFrom: null,
      dbObjectName: null,
      dbObjectSynonyms: [],
    });
  });
});

describe('parseGafLine: qualifiers', () => {
  it.each([
    { qualifier: '', qualifiers: [], isNot: false, relation: null },
    { qualifier: 'NOT', qualifiers: ['NOT'], isNot: true, relation: null },
    { qualifier: 'contributes_to', qualifiers: ['contributes_to'], isNot: false, relation: 'contributes_to' },
    {
      qualifier: 'colocalizes_with',
      qualifiers: ['colocalizes_with'],
      isNot: false,
      relation: 'colocalizes_with',
    },
    {
      qualifier: 'NOT|colocalizes_with',
      qualifiers: ['NOT', 'colocalizes_with'],
      isNot: true,
      relation: 'colocalizes_with',
    },
    { qualifier: 'NOT|enables', qualifiers: ['NOT', 'enables'], isNot: true, relation: 'enables' },
    { qualifier: 'involved_in', qualifiers: ['involved_in'], isNot: false, relation: 'involved_in' },
    {
      qualifier: 'acts_upstream_of',
      qualifiers: ['acts_upstream_of'],
      isNot: false,
      relation: 'acts_upstream_of',
    },
    {
      qualifier: 'acts_upstream_of_or_within_negative_effect',
      qualifiers: ['acts_upstream_of_or_within_negative_effect'],
      isNot: false,
      relation: 'acts_upstream_of_or_within_negative_effect',
    },
    { qualifier: 'located_in', qualifiers: ['located_in'], isNot: false, relation: 'located_in' },
    { qualifier: 'part_of', qualifiers: ['part_of'], isNot: false, relation: 'part_of' },
    { qualifier: 'is_active_in', qualifiers: ['is_active_in'], isNot: false, relation: 'is_active_in' },
    // Order is not prescribed by GAF 2.1, so NOT after the relation is read the same way.
    { qualifier: 'enables|NOT', qualifiers: ['enables', 'NOT'], isNot: true, relation: 'enables' },
  ])("reads '$qualifier'", ({ qualifier, qualifiers, isNot, relation }) => {
    expect(record(parseGafLine(lineWith({ 4: qualifier }), 1))).toMatchObject({
      qualifier,
      qualifiers,
      isNot,
      relation,
    });
  });

  it.each([
    { qualifier: 'colocalizes with', message: "unknown qualifier 'colocalizes with'" },
    { qualifier: 'not', message: "unknown qualifier 'not'" },
    { qualifier: 'Enables', message: "unknown qualifier 'Enables'" },
    { qualifier: 'NOT|has_part', message: "unknown qualifier 'has_part'" },
    { qualifier: 'NOT|', message: "empty qualifier in 'NOT|'" },
    { qualifier: '|enables', message: "empty qualifier in '|enables'" },
    { qualifier: 'NOT|NOT', message: "NOT repeated in 'NOT|NOT'" },
    { qualifier: 'contributes_to|enables', message: "more than one relation in 'contributes_to|enables'" },
  ])("rejects '$qualifier'", ({ qualifier, message }) => {
    expect(parseGafLine(lineWith({ 4: qualifier }), 7)).toEqual({
      kind: 'error',
      lineNumber: 7,
      message: `line 7: Qualifier (column 4): ${message}`,
      line: lineWith({ 4: qualifier }),
    });
  });
});

describe('parseGafLine: rule violations', () => {
  it.each([
    {
      name: 'too few columns',
      line: BASE.slice(0, 14).join('\t'),
      message: 'expected 15 to 17 tab-separated columns, found 14',
    },
    { name: 'a single column', line: 'PomBase', message: 'expected 15 to 17 tab-separated columns, found 1' },
    {
      name: 'too many columns',
      line: `${lineWith()}\textra`,
      message: 'expected 15 to 17 tab-separated columns, found 18',
    },
    {
      name: 'space-separated instead of tabs',
      line: BASE.join(' '),
      message: 'expected 15 to 17 tab-separated columns, found 1',
    },
    { name: 'empty DB', line: lineWith({ 1: '' }), message: 'DB (column 1) is empty' },
    { name: 'empty DB Object ID', line: lineWith({ 2: '' }), message: 'DB Object ID (column 2) is empty' },
    {
      name: 'blank DB Object Symbol',
      line: lineWith({ 3: '  ' }),
      message: 'DB Object Symbol (column 3) is empty',
    },
    { name: 'empty GO ID', line: lineWith({ 5: '' }), message: 'GO ID (column 5) is empty' },
    { name: 'empty reference', line: lineWith({ 6: '' }), message: 'DB:Reference (column 6) is empty' },
    { name: 'empty evidence code', line: lineWith({ 7: '' }), message: 'Evidence Code (column 7) is empty' },
    { name: 'empty aspect', line: lineWith({ 9: '' }), message: 'Aspect (column 9) is empty' },
    { name: 'empty object type', line: lineWith({ 12: '' }), message: 'DB Object Type (column 12) is empty' },
    { name: 'empty taxon', line: lineWith({ 13: '' }), message: 'Taxon (column 13) is empty' },
    { name: 'empty date', line: lineWith({ 14: '' }), message: 'Date (column 14) is empty' },
    { name: 'empty assigned by', line: lineWith({ 15: '' }), message: 'Assigned By (column 15) is empty' },
    {
      name: 'GO id without prefix',
      line: lineWith({ 5: '0005515' }),
      message: "GO ID (column 5) '0005515' is not of the form GO:nnnnnnn",
    },
    {
      name: 'GO id with 6 digits',
      line: lineWith({ 5: 'GO:000551' }),
      message: "GO ID (column 5) 'GO:000551' is not of the form GO:nnnnnnn",
    },
    {
      name: 'GO id with 8 digits',
      line: lineWith({ 5: 'GO:00055150' }),
      message: "GO ID (column 5) 'GO:00055150' is not of the form GO:nnnnnnn",
    },
    {
      name: 'GO id in lower case',
      line: lineWith({ 5: 'go:0005515' }),
      message: "GO ID (column 5) 'go:0005515' is not of the form GO:nnnnnnn",
    },
    {
      name: 'GO id as an OBO PURL',
      line: lineWith({ 5: 'GO_0005515' }),
      message: "GO ID (column 5) 'GO_0005515' is not of the form GO:nnnnnnn",
    },
    {
      name: 'aspect in lower case',
      line: lineWith({ 9: 'f' }),
      message: "Aspect (column 9) 'f' is not one of F, P, C",
    },
    {
      name: 'aspect spelled out',
      line: lineWith({ 9: 'MF' }),
      message: "Aspect (column 9) 'MF' is not one of F, P, C",
    },
    {
      name: 'taxon without prefix',
      line: lineWith({ 13: '9606' }),
      message: "Taxon (column 13) '9606' is not taxon:<id> or taxon:<id>|taxon:<id>",
    },
    {
      name: 'NCBITaxon prefix',
      line: lineWith({ 13: 'NCBITaxon:9606' }),
      message: "Taxon (column 13) 'NCBITaxon:9606' is not taxon:<id> or taxon:<id>|taxon:<id>",
    },
    {
      name: 'taxon prefix without id',
      line: lineWith({ 13: 'taxon:' }),
      message: "Taxon (column 13) 'taxon:' is not taxon:<id> or taxon:<id>|taxon:<id>",
    },
    {
      name: 'three taxa',
      line: lineWith({ 13: 'taxon:1|taxon:2|taxon:3' }),
      message: "Taxon (column 13) 'taxon:1|taxon:2|taxon:3' is not taxon:<id> or taxon:<id>|taxon:<id>",
    },
    {
      name: 'dangling taxon pipe',
      line: lineWith({ 13: 'taxon:9606|' }),
      message: "Taxon (column 13) 'taxon:9606|' is not taxon:<id> or taxon:<id>|taxon:<id>",
    },
    {
      name: 'ISO date',
      line: lineWith({ 14: '2024-01-31' }),
      message: "Date (column 14) '2024-01-31' is not a calendar date written YYYYMMDD",
    },
    {
      name: '30 February',
      line: lineWith({ 14: '20240230' }),
      message: "Date (column 14) '20240230' is not a calendar date written YYYYMMDD",
    },
    {
      name: '29 February of a non-leap year',
      line: lineWith({ 14: '20230229' }),
      message: "Date (column 14) '20230229' is not a calendar date written YYYYMMDD",
    },
    {
      name: '29 February 1900 (century, not leap)',
      line: lineWith({ 14: '19000229' }),
      message: "Date (column 14) '19000229' is not a calendar date written YYYYMMDD",
    },
    {
      name: 'month 13',
      line: lineWith({ 14: '20241301' }),
      message: "Date (column 14) '20241301' is not a calendar date written YYYYMMDD",
    },
    {
      name: 'day 00',
      line: lineWith({ 14: '20240100' }),
      message: "Date (column 14) '20240100' is not a calendar date written YYYYMMDD",
    },
    {
      name: '31 April',
      line: lineWith({ 14: '20240431' }),
      message: "Date (column 14) '20240431' is not a calendar date written YYYYMMDD",
    },
    {
      name: 'two-digit year',
      line: lineWith({ 14: '240131' }),
      message: "Date (column 14) '240131' is not a calendar date written YYYYMMDD",
    },
  ])('reports $name', ({ line, message }) => {
    expect(parseGafLine(line, 3)).toEqual({
      kind: 'error',
      lineNumber: 3,
      message: `line 3: ${message}`,
      line,
    });
  });

  it('lists every problem of a line, in column order', () => {
    const parsed = parseGafLine(lineWith({ 1: '', 4: 'maybe', 5: 'GO:1', 9: 'X', 14: 'TODAY' }), 5);
    expect(parsed.kind === 'error' && parsed.message).toBe(
      "line 5: DB (column 1) is empty; Qualifier (column 4): unknown qualifier 'maybe'; " +
        "GO ID (column 5) 'GO:1' is not of the form GO:nnnnnnn; Aspect (column 9) 'X' is not one of F, P, C; " +
        "Date (column 14) 'TODAY' is not a calendar date written YYYYMMDD",
    );
  });

  it.each([
    { name: '29 February of a leap year', date: '20240229' },
    { name: '29 February 2000 (divisible by 400)', date: '20000229' },
    { name: '31 December', date: '19991231' },
  ])('accepts $name', ({ date }) => {
    expect(record(parseGafLine(lineWith({ 14: date }), 1)).date).toBe(date);
  });

  it('reads two taxa (the second is the interacting organism)', () => {
    expect(record(parseGafLine(lineWith({ 13: 'taxon:9606|taxon:11676' }), 1)).taxa).toEqual([
      '9606',
      '11676',
    ]);
  });
});

describe('parseGafLine: header and comment lines', () => {
  it.each([
    { line: '!gaf-version: 2.2', expected: { kind: 'header', key: 'gaf-version', value: '2.2' } },
    { line: '!gaf-version:2.1\r', expected: { kind: 'header', key: 'gaf-version', value: '2.1' } },
    { line: '!Project_name: PomBase  ', expected: { kind: 'header', key: 'Project_name', value: 'PomBase' } },
    {
      line: '!Date Generated: 2024-03-19 10:16:57',
      expected: { kind: 'header', key: 'Date Generated', value: '2024-03-19 10:16:57' },
    },
    {
      line: '!URL: http://www.pombase.org/',
      expected: { kind: 'header', key: 'URL', value: 'http://www.pombase.org/' },
    },
    { line: '!generated-by:', expected: { kind: 'header', key: 'generated-by', value: '' } },
    { line: '!', expected: { kind: 'comment' } },
    { line: '! bad GO ID', expected: { kind: 'comment' } },
    { line: '! Note: leading space means prose', expected: { kind: 'comment' } },
    {
      line: '!ftp://ftp.ebi.ac.uk/pub/databases/GO/goa/UNIPROT/goa_uniprot_all.gz',
      expected: { kind: 'comment' },
    },
    { line: '!They include the protein sequences annotated in Swiss-Prot.', expected: { kind: 'comment' } },
    { line: '', expected: { kind: 'comment' } },
    { line: '\r', expected: { kind: 'comment' } },
    { line: '   ', expected: { kind: 'comment' } },
  ])('classifies $line', ({ line, expected }) => {
    expect(parseGafLine(line, 1)).toEqual(expected);
  });
});
