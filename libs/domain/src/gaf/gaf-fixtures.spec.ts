import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GafReader } from './gaf-reader';
import type { GafHeader, GafRecord } from './gaf-record';

const DATA = path.resolve(__dirname, '../../../../../shared/data');

function fixtureLines(relative: string): string[] {
  const bytes = readFileSync(path.join(DATA, relative));
  const text = (relative.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

interface Outcome {
  records: GafRecord[];
  errors: Map<number, string>;
  header: GafHeader;
}

function readFixture(lines: string[]): Outcome {
  const reader = new GafReader();
  const records: GafRecord[] = [];
  const errors = new Map<number, string>();
  for (const line of lines) {
    const parsed = reader.push(line);
    if (parsed.kind === 'record') records.push(parsed.record);
    if (parsed.kind === 'error') errors.set(parsed.lineNumber, parsed.message);
  }
  return { records, errors, header: reader.header };
}

/** Counted without the parser: every non-blank line that is not a '!' header or comment. */
function dataLineCount(lines: string[]): number {
  return lines.filter((line) => line.trim() !== '' && !line.startsWith('!')).length;
}

function recordAt(outcome: Outcome, lineNumber: number): GafRecord | undefined {
  return outcome.records.find((record) => record.lineNumber === lineNumber);
}

describe('GAF fixtures: every data line is either a record or an error', () => {
  it.each([
    { file: 'fixtures/ontobio/test-qualifiers-2.2.gaf', records: 2, errors: 7 },
    { file: 'fixtures/ontobio/errors.gaf', records: 5, errors: 6 },
    { file: 'fixtures/ontobio/truncated-pombase.gaf', records: 370, errors: 0 },
    { file: 'fixtures/ontobio/mgi.gaf', records: 105, errors: 0 },
    { file: 'fixtures/goatools/goa_human_illegal.gaf', records: 66, errors: 2 },
    { file: 'fixtures/goatools/fig1a.gaf', records: 190, errors: 0 },
    { file: 'fixtures/cafabeyond/goa_uniprot_all.EXP.NOT.198.gz', records: 4432, errors: 0 },
  ])('$file: $records records, $errors errors', ({ file, records, errors }) => {
    const lines = fixtureLines(file);
    const outcome = readFixture(lines);
    expect(outcome.records.length + outcome.errors.size).toBe(dataLineCount(lines));
    expect(outcome.records).toHaveLength(records);
    expect(outcome.errors.size).toBe(errors);
  });
});

describe('fixtures/ontobio/errors.gaf (deliberately broken lines)', () => {
  const outcome = readFixture(fixtureLines('fixtures/ontobio/errors.gaf'));

  it.each([
    { lineNumber: 7, message: "GO ID (column 5) 'BAD_GO_ID' is not of the form GO:nnnnnnn" },
    { lineNumber: 9, message: 'DB Object Symbol (column 3) is empty' },
    { lineNumber: 13, message: 'expected 15 to 17 tab-separated columns, found 2' },
    { lineNumber: 25, message: "Date (column 14) '2015-03-05' is not a calendar date written YYYYMMDD" },
    { lineNumber: 27, message: "Date (column 14) 'TODAY' is not a calendar date written YYYYMMDD" },
    {
      lineNumber: 29,
      message:
        'DB (column 1) is empty; DB Object ID (column 2) is empty; ' +
        "Date (column 14) '2017-02-28' is not a calendar date written YYYYMMDD",
    },
  ])('line $lineNumber: $message', ({ lineNumber, message }) => {
    expect(outcome.errors.get(lineNumber)).toBe(`line ${lineNumber}: ${message}`);
  });

  it('still parses the lines whose faults are outside the GAF rules checked here', () => {
    // Annotation extension syntax (lines 15-21) and the evidence code vocabulary (line 23, MADEUP) are
    // not validated by this parser, so those lines come through as records with the text as written.
    expect(outcome.records.map((record) => record.lineNumber)).toEqual([15, 17, 19, 21, 23]);
    expect(recordAt(outcome, 21)).toMatchObject({
      goId: 'GO:0000004',
      annotationExtension: 'part_of(X:9 X:8),part_of(X:1)',
      taxa: ['4896'],
      date: '20150305',
    });
    expect(recordAt(outcome, 23)?.evidenceCode).toBe('MADEUP');
  });

  it('has no header lines', () => expect(outcome.header).toEqual({ version: null, properties: {} }));
});

describe('fixtures/ontobio/test-qualifiers-2.2.gaf', () => {
  const lines = fixtureLines('fixtures/ontobio/test-qualifiers-2.2.gaf');

  it('reads the header and rejects the NCBITaxon: prefix (GAF requires taxon:)', () => {
    const outcome = readFixture(lines);
    expect(outcome.header).toEqual({
      version: '2.2',
      properties: { 'gaf-version': '2.2', Project_name: 'Fake' },
    });
    expect([...outcome.errors.keys()]).toEqual([4, 5, 7, 8, 9, 10, 11]);
    expect(outcome.errors.get(4)).toBe(
      "line 4: Taxon (column 13) 'NCBITaxon:4896' is not taxon:<id> or taxon:<id>|taxon:<id>",
    );
    expect(recordAt(outcome, 3)).toMatchObject({
      dbObjectSymbol: 'Ctnnb1',
      relation: 'acts_upstream_of',
      isNot: false,
      dbReference: 'MGI:MGI:3836885|PMID:19122665',
      dbObjectSynonyms: ['beta catenin', 'beta-catenin', 'Catnb'],
      annotationExtension: 'occurs_in(EMAPA:16975)',
      taxa: ['10090'],
    });
    expect(recordAt(outcome, 6)).toMatchObject({ relation: 'involved_in', aspect: 'C' });
  });

  // With the taxon prefix corrected, the file exercises the qualifier rules on their own.
  const corrected = readFixture(lines.map((line) => line.replace(/\tNCBITaxon:/g, '\ttaxon:')));

  it.each([
    { lineNumber: 3, qualifiers: ['acts_upstream_of'], isNot: false, relation: 'acts_upstream_of' },
    { lineNumber: 4, qualifiers: ['colocalizes_with'], isNot: false, relation: 'colocalizes_with' },
    { lineNumber: 5, qualifiers: ['contributes_to'], isNot: false, relation: 'contributes_to' },
    { lineNumber: 6, qualifiers: ['involved_in'], isNot: false, relation: 'involved_in' },
    { lineNumber: 7, qualifiers: ['NOT'], isNot: true, relation: null },
    { lineNumber: 8, qualifiers: ['NOT', 'involved_in'], isNot: true, relation: 'involved_in' },
    {
      lineNumber: 9,
      qualifiers: ['acts_upstream_of_negative_effect'],
      isNot: false,
      relation: 'acts_upstream_of_negative_effect',
    },
  ])('line $lineNumber: $qualifiers', ({ lineNumber, qualifiers, isNot, relation }) => {
    expect(recordAt(corrected, lineNumber)).toMatchObject({ qualifiers, isNot, relation });
  });

  it.each([
    { lineNumber: 10, message: "Qualifier (column 4): unknown qualifier 'colocalizes with'" },
    { lineNumber: 11, message: "Qualifier (column 4): more than one relation in 'contributes_to|enables'" },
  ])('line $lineNumber: $message', ({ lineNumber, message }) => {
    expect(corrected.errors.get(lineNumber)).toBe(`line ${lineNumber}: ${message}`);
    expect(corrected.errors.size).toBe(2);
  });
});

describe('fixtures/ontobio/truncated-pombase.gaf (GAF 2.1, 15 to 17 columns)', () => {
  const lines = fixtureLines('fixtures/ontobio/truncated-pombase.gaf');
  const outcome = readFixture(lines);

  it('reads the header block', () => {
    expect(outcome.header.version).toBe('2.1');
    expect(outcome.header.properties).toMatchObject({
      'Submission Date': '04/03/2017',
      Project_name: 'PomBase',
      URL: 'http://www.pombase.org/',
      'Contact Email': 'helpdesk@pombase.org',
    });
  });

  it('accepts every column count the file uses', () => {
    const counts = new Set(
      lines.filter((line) => !line.startsWith('!') && line !== '').map((line) => line.split('\t').length),
    );
    expect([...counts].sort()).toEqual([15, 16, 17]);
  });

  it('keeps the qualifiers and the two optional columns', () => {
    const qualifiers = new Set(outcome.records.map((record) => record.qualifier));
    for (const qualifier of qualifiers)
      expect(['', 'NOT', 'contributes_to', 'colocalizes_with']).toContain(qualifier);
    expect(outcome.records.every((record) => record.taxa.join() === '4896')).toBe(true);
    expect(outcome.records.filter((record) => record.annotationExtension !== null).length).toBeGreaterThan(0);
  });
});

describe('fixtures/ontobio/mgi.gaf (GAF 2.2)', () => {
  const lines = fixtureLines('fixtures/ontobio/mgi.gaf');
  const outcome = readFixture(lines);

  it('reads version and a relation on every line', () => {
    expect(outcome.header.version).toBe('2.2');
    expect(outcome.header.properties['Date Generated']).toBe('2024-03-19 10:16:57.171235');
    expect(outcome.records.every((record) => record.relation !== null)).toBe(true);
  });

  it('spot-checks the first record', () => {
    expect(recordAt(outcome, 8)).toEqual({
      lineNumber: 8,
      db: 'MGI',
      dbObjectId: 'MGI:101757',
      dbObjectSymbol: 'Cfl1',
      qualifier: 'enables',
      qualifiers: ['enables'],
      isNot: false,
      relation: 'enables',
      goId: 'GO:0051015',
      dbReference: 'GO_REF:0000119',
      evidenceCode: 'ISO',
      withFrom: 'UniProtKB:P23528',
      aspect: 'F',
      dbObjectName: 'cofilin 1, non-muscle',
      dbObjectSynonyms: [],
      dbObjectType: 'gene_product',
      taxa: ['10090'],
      date: '20240319',
      assignedBy: 'GO_Central',
      annotationExtension: null,
      geneProductFormId: null,
    });
  });

  it('reads relations by aspect as the file states them', () => {
    const counted = new Map<string, number>();
    for (const line of lines.filter((text) => !text.startsWith('!'))) {
      const columns = line.split('\t');
      const key = `${columns[8]}:${columns[3]}`;
      counted.set(key, (counted.get(key) ?? 0) + 1);
    }
    const parsed = new Map<string, number>();
    for (const record of outcome.records) {
      const key = `${record.aspect}:${record.qualifier}`;
      parsed.set(key, (parsed.get(key) ?? 0) + 1);
    }
    expect(parsed).toEqual(counted);
  });
});

describe('fixtures/goatools/goa_human_illegal.gaf', () => {
  const outcome = readFixture(fixtureLines('fixtures/goatools/goa_human_illegal.gaf'));

  it.each([
    { lineNumber: 60, message: 'DB Object ID (column 2) is empty' },
    { lineNumber: 79, message: "Taxon (column 13) 'NCBITaxon:' is not taxon:<id> or taxon:<id>|taxon:<id>" },
  ])('line $lineNumber: $message', ({ lineNumber, message }) => {
    expect(outcome.errors.get(lineNumber)).toBe(`line ${lineNumber}: ${message}`);
  });

  it('keeps the good lines around the illegal ones', () => {
    expect(recordAt(outcome, 59)).toMatchObject({
      dbObjectId: 'A0A075B6I4',
      goId: 'GO:0005615',
      aspect: 'C',
    });
    expect(recordAt(outcome, 61)).toMatchObject({
      dbObjectId: 'A0A075B6I4',
      goId: 'GO:0006955',
      aspect: 'P',
    });
    expect(recordAt(outcome, 78)).toMatchObject({
      dbObjectId: 'A0A075B6J1',
      goId: 'GO:0005886',
      taxa: ['9606'],
    });
  });

  it('reads the version from the first line and the header keys among prose', () => {
    expect(outcome.header.version).toBe('2.1');
    expect(outcome.header.properties).toEqual({
      'gaf-version': '2.1',
      Generated: '2018-04-23 08:59',
      'GO-version': 'http://purl.obolibrary.org/obo/go/releases/2018-04-20/extensions/go-plus.owl',
    });
  });
});

describe('fixtures/goatools/fig1a.gaf (no header, synthetic ids)', () => {
  const outcome = readFixture(fixtureLines('fixtures/goatools/fig1a.gaf'));

  it('reads lines whose extension column holds non-GAF text as they are', () => {
    expect(outcome.header.version).toBeNull();
    expect(outcome.records[0]).toMatchObject({
      lineNumber: 1,
      db: 'database',
      dbObjectId: 'p89',
      goId: 'GO:0000012',
      annotationExtension: 'set([])',
      geneProductFormId: null,
    });
  });
});

describe('fixtures/cafabeyond/goa_uniprot_all.EXP.NOT.198.gz (UniProt-GOA NOT annotations)', () => {
  const lines = fixtureLines('fixtures/cafabeyond/goa_uniprot_all.EXP.NOT.198.gz');
  const outcome = readFixture(lines);

  it('marks every record NOT, with the relation split off', () => {
    expect(outcome.records.every((record) => record.isNot)).toBe(true);
    const withRelation = lines.filter((line) => /^[^\t]*\t[^\t]*\t[^\t]*\tNOT\|/.test(line)).length;
    expect(outcome.records.filter((record) => record.relation !== null)).toHaveLength(withRelation);
    expect(outcome.records.filter((record) => record.relation === 'colocalizes_with')).toHaveLength(25);
    expect(outcome.records.filter((record) => record.relation === 'contributes_to')).toHaveLength(4);
  });

  it('spot-checks the first line', () => {
    expect(outcome.records[0]).toMatchObject({
      lineNumber: 1,
      db: 'UniProtKB',
      dbObjectId: 'A0A060WMR1',
      qualifier: 'NOT',
      qualifiers: ['NOT'],
      relation: null,
      goId: 'GO:0005886',
      dbReference: 'PMID:27776995',
      evidenceCode: 'IDA',
      withFrom: null,
      aspect: 'C',
      taxa: ['8022'],
      date: '20170412',
      assignedBy: 'AgBase',
    });
  });
});
