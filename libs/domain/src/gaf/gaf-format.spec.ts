import { formatGafHeader, formatGafLine, type GafLineFields } from './gaf-format';
import { parseGafLine } from './gaf-line';
import { GafReader } from './gaf-reader';

const MINIMAL: GafLineFields = {
  db: 'UniProtKB',
  dbObjectId: 'P04637',
  dbObjectSymbol: 'TP53',
  goId: 'GO:0003700',
  dbReference: 'PMID:20959462',
  evidenceCode: 'IDA',
  aspect: 'F',
  dbObjectType: 'protein',
  taxa: ['9606'],
  date: '20220912',
  assignedBy: 'NCBI',
};

describe('formatGafLine', () => {
  it('writes 17 columns with empty optional ones', () => {
    expect(formatGafLine(MINIMAL)).toBe(
      'UniProtKB\tP04637\tTP53\t\tGO:0003700\tPMID:20959462\tIDA\t\tF\t\t\tprotein\ttaxon:9606\t20220912\tNCBI\t\t',
    );
  });

  it.each([
    { name: 'minimal fields', fields: MINIMAL },
    { name: 'NOT without a relation', fields: { ...MINIMAL, isNot: true } },
    { name: 'a relation', fields: { ...MINIMAL, relation: 'enables' } },
    {
      name: 'NOT with a relation',
      fields: { ...MINIMAL, isNot: true, relation: 'involved_in', aspect: 'P' as const },
    },
    {
      name: 'every column filled',
      fields: {
        ...MINIMAL,
        relation: 'located_in',
        goId: 'GO:0005634',
        aspect: 'C' as const,
        dbReference: 'PMID:1|GO_REF:0000024',
        withFrom: 'UniProtKB:Q00987|UniProtKB:Q00988',
        dbObjectName: 'Cellular tumor antigen p53',
        dbObjectSynonyms: ['P53', 'p53'],
        taxa: ['9606', '10633'],
        annotationExtension: 'occurs_in(CL:0000057),part_of(GO:0005634)',
        geneProductFormId: 'UniProtKB:P04637-2',
      },
    },
    { name: 'non-ASCII text', fields: { ...MINIMAL, dbObjectName: 'Protéine α-2 “quoted”' } },
  ])('round-trips $name', ({ fields }) => {
    const parsed = parseGafLine(formatGafLine(fields), 12);
    expect(parsed.kind).toBe('record');
    if (parsed.kind !== 'record') return;
    const qualifiers = [fields.isNot === true ? 'NOT' : null, fields.relation ?? null].filter(
      (item): item is string => item !== null,
    );
    expect(parsed.record).toEqual({
      lineNumber: 12,
      db: fields.db,
      dbObjectId: fields.dbObjectId,
      dbObjectSymbol: fields.dbObjectSymbol,
      qualifier: qualifiers.join('|'),
      qualifiers,
      isNot: fields.isNot ?? false,
      relation: fields.relation ?? null,
      goId: fields.goId,
      dbReference: fields.dbReference,
      evidenceCode: fields.evidenceCode,
      withFrom: fields.withFrom ?? null,
      aspect: fields.aspect,
      dbObjectName: fields.dbObjectName ?? null,
      dbObjectSynonyms: fields.dbObjectSynonyms ?? [],
      dbObjectType: fields.dbObjectType,
      taxa: fields.taxa,
      date: fields.date,
      assignedBy: fields.assignedBy,
      annotationExtension: fields.annotationExtension ?? null,
      geneProductFormId: fields.geneProductFormId ?? null,
    });
  });

  it('writes a parsed record back unchanged (record -> line -> record)', () => {
    const line =
      'MGI\tMGI:88276\tCtnnb1\tNOT|acts_upstream_of\tGO:1904948\tMGI:MGI:3836885|PMID:19122665\tIMP\t\tP\tcatenin beta 1\tbeta catenin|Catnb\tprotein\ttaxon:10090\t20160209\tParkinsonsUK-UCL\toccurs_in(EMAPA:16975)\t';
    const first = parseGafLine(line, 1);
    if (first.kind !== 'record') throw new Error('fixture line did not parse');
    expect(formatGafLine(first.record)).toBe(line);
    expect(parseGafLine(formatGafLine(first.record), 1)).toEqual(first);
  });

  it.each([
    {
      name: 'a tab in a value',
      fields: { ...MINIMAL, dbObjectName: 'a\tb' },
      message: 'GAF column 10 contains a tab or line break',
    },
    {
      name: 'a line break in a value',
      fields: { ...MINIMAL, dbObjectSymbol: 'TP\n53' },
      message: 'GAF column 3 contains a tab or line break',
    },
    {
      name: 'a bad GO id',
      fields: { ...MINIMAL, goId: 'GO:37' },
      message: "cannot write GAF line: GO ID (column 5) 'GO:37' is not of the form GO:nnnnnnn",
    },
    {
      name: 'an unknown relation',
      fields: { ...MINIMAL, relation: 'has_part' },
      message: "cannot write GAF line: Qualifier (column 4): unknown qualifier 'has_part'",
    },
    {
      name: 'an impossible date',
      fields: { ...MINIMAL, date: '20220931' },
      message: "cannot write GAF line: Date (column 14) '20220931' is not a calendar date written YYYYMMDD",
    },
    {
      name: 'no taxon',
      fields: { ...MINIMAL, taxa: [] },
      message: 'cannot write GAF line: Taxon (column 13) is empty',
    },
    {
      name: 'an empty reference',
      fields: { ...MINIMAL, dbReference: '' },
      message: 'cannot write GAF line: DB:Reference (column 6) is empty',
    },
    {
      name: 'a line that would read as a header',
      fields: { ...MINIMAL, db: '!UniProtKB' },
      message: 'cannot write GAF line: not a record line',
    },
  ])('refuses $name', ({ fields, message }) => {
    expect(() => formatGafLine(fields)).toThrow(new RangeError(message));
  });
});

describe('formatGafHeader', () => {
  it('puts the version first and reads back through GafReader', () => {
    const lines = formatGafHeader({ 'generated-by': 'annotation service', 'date-generated': '2024-09-20' });
    expect(lines).toEqual([
      '!gaf-version: 2.2',
      '!generated-by: annotation service',
      '!date-generated: 2024-09-20',
    ]);
    const reader = new GafReader();
    lines.forEach((line) => reader.push(line));
    expect(reader.header).toEqual({
      version: '2.2',
      properties: {
        'gaf-version': '2.2',
        'generated-by': 'annotation service',
        'date-generated': '2024-09-20',
      },
    });
  });

  it.each<{ name: string; properties: Record<string, string>; message: string }>([
    {
      name: 'a key with a colon',
      properties: { 'a:b': 'x' },
      message: "'a:b' cannot be written as a GAF header key",
    },
    {
      name: 'a key starting with a space',
      properties: { ' note': 'x' },
      message: "' note' cannot be written as a GAF header key",
    },
    {
      name: 'a key ending with a space',
      properties: { 'note ': 'x' },
      message: "'note ' cannot be written as a GAF header key",
    },
    { name: 'an empty key', properties: { '': 'x' }, message: "'' cannot be written as a GAF header key" },
    {
      name: 'a second version',
      properties: { 'GAF-version': '2.1' },
      message: "'GAF-version' cannot be written as a GAF header key",
    },
    {
      name: 'a line break in a value',
      properties: { note: 'a\nb' },
      message: "GAF header 'note' has a line break in its value",
    },
  ])('refuses $name', ({ properties, message }) => {
    expect(() => formatGafHeader(properties)).toThrow(new RangeError(message));
  });
});
