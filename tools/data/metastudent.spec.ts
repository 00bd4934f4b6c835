import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FASTA_MAX_SEQUENCE_LENGTH,
  formatGafLine,
  GafReader,
  parseFasta,
  parseUniProtFastaHeader,
  type GafAspect,
  type GafRecord,
} from '@svc/domain';
import {
  METASTUDENT_ASPECTS,
  MetastudentConversion,
  metastudentGafFields,
  metastudentGafHeader,
  metastudentGafLine,
  parseAnnotationLine,
  type MetastudentFolder,
} from './metastudent-convert';
import { checkMetastudentInputs, convertMetastudent, MissingInputError } from './metastudent';

const HBA = // P69905, 142 residues: two lines at blastdbcmd's width of 80, three at 60
  'MVLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR';
const HBB =
  'MVHLTPEEKSAVTALWGKVNVDEVGGEALGRLLVVYPWTQRFFESFGDLSTPDAVMGNPKVKAHGKKVLGAFSDGLAHLDNLKGTFATLSELHCDKLHVDPENFRLLGNVLVCVLAHHFGKEFTPPVQAAYQKVVAGVANALAHKYH';
const INS =
  'MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKTRREAEDLQVGQVELGGGPGAGSLQPLALEGSLQKRGIVEQCCTSICSLYQLENYCN';

/** `blastdbcmd -entry all` output: `>ACCESSION|GO:...,GO:...`, the sequence wrapped at 80. */
const blastFasta = (records: [accession: string, goIds: string[], sequence: string][]): string =>
  records
    .map(
      ([accession, goIds, sequence]) =>
        `>${accession}|${goIds.join(',')}\n${sequence.match(/.{1,80}/g)!.join('\n')}\n`,
    )
    .join('');

type Fixture = Record<MetastudentFolder, { annotations: string; sequences: string }>;

/** A protein in two aspects (P69905: MFO and BPO; P68871: MFO and CCO; P01308: BPO and CCO), repeated GO ids. */
const FIXTURE: Fixture = {
  MFO: {
    annotations: 'P69905\tGO:0005344\tGO:0019825\tGO:0005344\nP68871\tGO:0005344\tGO:0005344\tGO:0005344\n',
    sequences: blastFasta([
      ['P69905', ['GO:0005344', 'GO:0019825', 'GO:0005344'], HBA],
      ['P68871', ['GO:0005344', 'GO:0005344', 'GO:0005344'], HBB],
    ]),
  },
  BPO: {
    annotations: 'P69905\tGO:0015671\nP01308\tGO:0006006\tGO:0006006\n',
    sequences: blastFasta([
      ['P69905', ['GO:0015671'], HBA],
      ['P01308', ['GO:0006006', 'GO:0006006'], INS],
    ]),
  },
  CCO: {
    annotations: 'P68871\tGO:0005833\nP01308\tGO:0005576\n',
    sequences: blastFasta([
      ['P68871', ['GO:0005833'], HBB],
      ['P01308', ['GO:0005576'], INS],
    ]),
  },
};

const EXPECTED_TERMS = [
  'P69905 GO:0005344 F',
  'P69905 GO:0019825 F',
  'P68871 GO:0005344 F',
  'P69905 GO:0015671 P',
  'P01308 GO:0006006 P',
  'P68871 GO:0005833 C',
  'P01308 GO:0005576 C',
];

/** What the CLI does, with text in place of files: annotations and sequences per aspect, in either order. */
function convert(
  fixture: Fixture,
  order: 'annotations first' | 'sequences first' = 'annotations first',
): { gaf: string; fasta: string; conversion: MetastudentConversion } {
  const conversion = new MetastudentConversion();
  let gaf = metastudentGafHeader({ generated: '2026-11-29' });
  let fasta = '';
  const annotate = (): void => {
    for (const { folder, aspect } of METASTUDENT_ASPECTS)
      for (const line of fixture[folder].annotations.split('\n'))
        gaf += conversion.annotationLine(aspect, line);
  };
  const sequence = (): void => {
    for (const { folder, aspect } of METASTUDENT_ASPECTS) {
      for (const line of fixture[folder].sequences.split('\n'))
        fasta += conversion.sequenceLine(aspect, line);
      fasta += conversion.endSequences(aspect);
    }
  };
  if (order === 'annotations first') {
    annotate();
    sequence();
  } else {
    sequence();
    annotate();
  }
  return { gaf, fasta, conversion };
}

function readGaf(text: string): { reader: GafReader; records: GafRecord[]; errors: string[] } {
  const reader = new GafReader();
  const records: GafRecord[] = [];
  const errors: string[] = [];
  for (const line of text.split('\n')) {
    const parsed = reader.push(line);
    if (parsed.kind === 'record') records.push(parsed.record);
    if (parsed.kind === 'error') errors.push(parsed.message);
  }
  return { reader, records, errors };
}

describe('metastudent-data to FASTA and GAF', () => {
  const { gaf, fasta, conversion } = convert(FIXTURE);

  it('the FASTA reads back with the service’s reader: each protein once, its sequence, keyed on the accession', () => {
    const parsed = parseFasta(fasta, { maxSequenceLength: FASTA_MAX_SEQUENCE_LENGTH });
    expect(parsed.problems).toEqual([]);
    expect(parsed.records.map((r) => [r.identifier, r.sequence])).toEqual([
      ['P69905', HBA],
      ['P68871', HBB],
      ['P01308', INS],
    ]);
    expect(parseUniProtFastaHeader(parsed.records[0]!.header)).toMatchObject({
      accession: 'P69905',
      reviewed: true,
      entryName: null,
      taxonomyId: null,
    });
    expect(fasta.split('\n').slice(0, 4)).toEqual([
      '>sp|P69905|',
      HBA.slice(0, 60),
      HBA.slice(60, 120),
      HBA.slice(120),
    ]);
  });

  it('the GAF reads back with the service’s reader: one IEA line per accession, GO id and aspect', () => {
    const { records, errors } = readGaf(gaf);
    expect(errors).toEqual([]);
    expect(records.map((r) => `${r.dbObjectId} ${r.goId} ${r.aspect}`)).toEqual(EXPECTED_TERMS);
    const relation: Record<GafAspect, string> = { F: 'enables', P: 'involved_in', C: 'located_in' };
    for (const r of records)
      expect(r).toMatchObject({
        db: 'UniProtKB',
        dbObjectSymbol: r.dbObjectId,
        isNot: false,
        relation: relation[r.aspect],
        dbReference: 'metastudent:dataset_201401',
        evidenceCode: 'IEA',
        withFrom: null,
        dbObjectType: 'protein',
        taxa: ['32644'],
        date: '20140101',
        assignedBy: 'UniProt',
      });
  });

  it('the GAF header names the source and says every line is IEA because the source records no evidence', () => {
    const { reader } = readGaf(gaf);
    expect(reader.header.version).toBe('2.2');
    const { properties } = reader.header;
    expect(properties['date-generated']).toBe('2026-11-29');
    expect(properties.source).toMatch(/metastudent-data, dataset_201401.*Swiss-Prot 2014-01/);
    expect(properties.evidence).toMatch(
      /^not recorded in the source; every line is marked IEA for that reason/,
    );
    expect(gaf).toContain('donor_evidence "all"');
  });

  it('every line is what formatGafLine makes of its fields', () => {
    for (const term of EXPECTED_TERMS) {
      const [accession, goId, aspect] = term.split(' ') as [string, string, GafAspect];
      expect(metastudentGafLine(accession, goId, aspect)).toBe(
        formatGafLine(metastudentGafFields(accession, goId, aspect)),
      );
    }
  });

  it('counts proteins, lines and repeats per aspect', () => {
    const none = { annotatedWithoutSequence: 0, sequencesWithoutAnnotation: 0 };
    expect(conversion.summary()).toEqual({
      proteins: 3,
      annotationLines: 7,
      aspects: {
        MFO: {
          annotatedProteins: 2,
          annotationLines: 3,
          repeatedGoIds: 3,
          sequences: 2,
          newProteins: 2,
          ...none,
        },
        BPO: {
          annotatedProteins: 2,
          annotationLines: 2,
          repeatedGoIds: 1,
          sequences: 2,
          newProteins: 1,
          ...none,
        },
        CCO: {
          annotatedProteins: 2,
          annotationLines: 2,
          repeatedGoIds: 0,
          sequences: 2,
          newProteins: 0,
          ...none,
        },
      },
    });
  });

  it('gives the same files and counts whether the sequences or the annotations come first', () => {
    const other = convert(FIXTURE, 'sequences first');
    expect([other.gaf, other.fasta, other.conversion.summary()]).toEqual([gaf, fasta, conversion.summary()]);
  });

  it('counts an annotated protein without a sequence, and a sequence without annotations', () => {
    const { conversion: partial } = convert({
      ...FIXTURE,
      CCO: { annotations: 'Q9Y6K9\tGO:0005737\n', sequences: blastFasta([['P01308', ['GO:0005576'], INS]]) },
    });
    expect(partial.summary().aspects.CCO).toMatchObject({
      annotatedWithoutSequence: 1,
      sequencesWithoutAnnotation: 1,
    });
  });

  const broken: { name: string; fixture: Fixture; error: RegExp }[] = [
    {
      name: 'two different sequences for one accession',
      fixture: { ...FIXTURE, CCO: { ...FIXTURE.CCO, sequences: blastFasta([['P68871', [], HBA]]) } },
      error: /P68871 has a different sequence in aspect C/,
    },
    {
      name: 'a protein listed twice in one annotation file',
      fixture: {
        ...FIXTURE,
        BPO: { ...FIXTURE.BPO, annotations: 'P01308\tGO:0006006\nP01308\tGO:0008150\n' },
      },
      error: /P01308 is listed twice in the annotations of aspect P/,
    },
    {
      name: 'a cell that is no GO id',
      fixture: { ...FIXTURE, MFO: { ...FIXTURE.MFO, annotations: 'P69905\tGO:5344\n' } },
      error: /'GO:5344' of P69905 is not a GO id/,
    },
    {
      name: 'a title without an accession',
      fixture: { ...FIXTURE, MFO: { ...FIXTURE.MFO, sequences: '>lcl|1\nMKV\n' } },
      error: /title 'lcl\|1' does not start with an accession/,
    },
    {
      name: 'a residue that is no letter',
      fixture: { ...FIXTURE, MFO: { ...FIXTURE.MFO, sequences: '>P69905|GO:0005344\nMK-V\n' } },
      error: /invalid residue letters '-' in P69905/,
    },
    {
      name: 'a record without residues',
      fixture: {
        ...FIXTURE,
        MFO: { ...FIXTURE.MFO, sequences: '>P69905|GO:0005344\n>P68871|GO:0005344\nMKV\n' },
      },
      error: /P69905 has no sequence in aspect F/,
    },
  ];
  it.each(broken)('fails on $name, naming it', ({ fixture, error }) => {
    expect(() => convert(fixture)).toThrow(error);
  });
});

describe('parseAnnotationLine', () => {
  it.each([
    { line: 'P69905\tGO:0005344', expected: { accession: 'P69905', goIds: ['GO:0005344'], repeats: 0 } },
    {
      line: 'Q58380\tGO:0016829\tGO:0016829\tGO:0016852\tGO:0016829\r',
      expected: { accession: 'Q58380', goIds: ['GO:0016829', 'GO:0016852'], repeats: 2 },
    },
    { line: '', expected: null },
  ])('$line', ({ line, expected }) => expect(parseAnnotationLine(line)).toEqual(expected));

  it.each([
    { line: 'not-an-accession\tGO:0005344', error: /is not a UniProt accession/ },
    { line: 'P69905', error: /P69905 has no GO id/ },
  ])('refuses $line', ({ line, error }) => expect(() => parseAnnotationLine(line)).toThrow(error));
});

describe('the data:metastudent command on a package laid out like Debian’s', () => {
  let root: string;
  let blastdbcmd: string;

  /** The package's folders, with each BLAST database's `-entry all` output beside it for the stand-in. */
  const install = (fixture: Fixture): string => {
    const source = join(root, 'dataset_201401');
    for (const { folder } of METASTUDENT_ASPECTS) {
      mkdirSync(join(source, folder), { recursive: true });
      writeFileSync(join(source, folder, 'goasp_annot.dat'), fixture[folder].annotations);
      for (const suffix of ['phr', 'pin', 'psq'])
        writeFileSync(join(source, folder, `goasp.fasta.${suffix}`), '');
      writeFileSync(join(source, folder, 'goasp.fasta.entries'), fixture[folder].sequences);
    }
    return source;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-metastudent-'));
    // A stand-in for Debian's blastdbcmd: `-version`, and `-db DB -entry all` printing DB.entries.
    blastdbcmd = join(root, 'blastdbcmd');
    writeFileSync(blastdbcmd, '#!/bin/sh\n[ "$1" = -version ] && exit 0\nexec cat "$2.entries"\n');
    chmodSync(blastdbcmd, 0o755);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes swissprot-2014.fasta and swissprot-2014.gaf, the same as the conversion of the text', async () => {
    const source = install(FIXTURE);
    const outDir = join(root, 'out');
    const output = await convertMetastudent({ source, outDir, generated: '2026-11-29', blastdbcmd });
    const expected = convert(FIXTURE);
    expect(readFileSync(join(outDir, 'swissprot-2014.fasta'), 'utf8')).toBe(expected.fasta);
    expect(readFileSync(join(outDir, 'swissprot-2014.gaf'), 'utf8')).toBe(expected.gaf);
    expect(output.summary).toEqual(expected.conversion.summary());
    expect(readdirSync(outDir).sort()).toEqual(['swissprot-2014.fasta', 'swissprot-2014.gaf']);
  });

  it('leaves no file behind when the conversion fails', async () => {
    const source = install({
      ...FIXTURE,
      CCO: { ...FIXTURE.CCO, sequences: blastFasta([['P68871', [], HBA]]) },
    });
    const outDir = join(root, 'out');
    await expect(convertMetastudent({ source, outDir, generated: '2026-11-29', blastdbcmd })).rejects.toThrow(
      /P68871 has a different sequence/,
    );
    expect(readdirSync(outDir)).toEqual([]);
  });

  it.each([
    { name: 'the package', source: (): string => join(root, 'missing'), tool: (): string => blastdbcmd },
    {
      name: 'blastdbcmd',
      source: (): string => install(FIXTURE),
      tool: (): string => join(root, 'no-blastdbcmd'),
    },
  ])('says how to install $name when it is missing', ({ source, tool }) => {
    const check = (): void => checkMetastudentInputs(source(), tool());
    expect(check).toThrow(MissingInputError);
    expect(check).toThrow(/apt-get install metastudent-data ncbi-blast\+$/);
  });
});
