import { EMPTY_UNIPROT_ENTRY } from './uniprot-entry';
import { parseUniProtTsv } from './uniprot-tsv';

const HEADER =
  'Entry\tEntry Name\tReviewed\tProtein names\tGene Names\tOrganism\tOrganism (ID)\tLength\tSequence';
const P53 =
  'P04637\tP53_HUMAN\treviewed\tCellular tumor antigen p53 (Antigen NY-CO-13) (Tumor suppressor p53)\tTP53 P53\tHomo sapiens (Human)\t9606\t10\tMEEPQSDPSV';
const TREMBL =
  'A0A024R161\tA0A024R161_HUMAN\tunreviewed\tGuanine nucleotide-binding protein subunit gamma\tDNAJC25-GNG10 hCG_1994888\tHomo sapiens (Human)\t9606\t4\tMGAP';

describe('parseUniProtTsv', () => {
  it('reads the REST format=tsv columns', () => {
    expect(parseUniProtTsv([HEADER, P53, TREMBL])).toEqual({
      records: [
        {
          lineNumber: 2,
          accession: 'P04637',
          canonicalAccession: 'P04637',
          isCanonical: true,
          isoformIndex: null,
          entryName: 'P53_HUMAN',
          reviewed: true,
          // Recommended name first, alternative names in parentheses, as UniProt writes them.
          proteinName: 'Cellular tumor antigen p53 (Antigen NY-CO-13) (Tumor suppressor p53)',
          organism: 'Homo sapiens (Human)',
          taxonomyId: '9606',
          geneName: 'TP53',
          length: 10,
          sequence: 'MEEPQSDPSV',
        },
        {
          lineNumber: 3,
          accession: 'A0A024R161',
          canonicalAccession: 'A0A024R161',
          isCanonical: true,
          isoformIndex: null,
          entryName: 'A0A024R161_HUMAN',
          reviewed: false,
          proteinName: 'Guanine nucleotide-binding protein subunit gamma',
          organism: 'Homo sapiens (Human)',
          taxonomyId: '9606',
          geneName: 'DNAJC25-GNG10',
          length: 4,
          sequence: 'MGAP',
        },
      ],
      problems: [],
    });
  });

  it.each([
    {
      name: 'columns in another order, most absent',
      text: 'Sequence\tEntry\nMKT\tQ9Y6K9-2\n',
      expected: {
        accession: 'Q9Y6K9-2',
        canonicalAccession: 'Q9Y6K9',
        isCanonical: false,
        isoformIndex: 2,
        sequence: 'MKT',
        length: null,
      },
    },
    {
      name: 'only the Entry column',
      text: 'Entry\nP12345',
      expected: { accession: 'P12345', reviewed: null, geneName: null, sequence: null },
    },
    {
      name: 'CRLF line endings',
      text: 'Entry\tReviewed\r\nP12345\treviewed\r\n',
      expected: { accession: 'P12345', reviewed: true },
    },
    {
      name: 'a byte order mark',
      text: '\uFEFFEntry\tReviewed\nP12345\tunreviewed\n',
      expected: { accession: 'P12345', reviewed: false },
    },
    {
      name: 'labels in another case',
      text: 'ENTRY\tentry name\nP12345\tAATM_RABIT',
      expected: { accession: 'P12345', entryName: 'AATM_RABIT' },
    },
    {
      name: 'empty optional cells',
      text: 'Entry\tReviewed\tGene Names\tOrganism (ID)\nP12345\t\t\t',
      expected: { reviewed: null, geneName: null, taxonomyId: null },
    },
    {
      name: "'Gene Names (primary)' preferred over 'Gene Names'",
      text: 'Entry\tGene Names\tGene Names (primary)\nP12345\tP53 TP53\tTP53',
      expected: { geneName: 'TP53' },
    },
    {
      name: 'legacy export labels',
      text: 'Entry\tEntry name\tStatus\tGene names  (primary )\tOrganism ID\nP12345\tAATM_RABIT\treviewed\tGOT2\t9986',
      expected: { entryName: 'AATM_RABIT', reviewed: true, geneName: 'GOT2', taxonomyId: '9986' },
    },
    {
      name: 'unknown columns ignored',
      text: 'Entry\tAnnotation\tconstructor\nP12345\t5 out of 5\tx',
      expected: { accession: 'P12345' },
    },
    {
      name: 'a Protein names cell as given, hidden characters stripped and spaces made one',
      text: 'Entry\tProtein names\nP12345\tCellular\u200b tumor  antigen p53 (Antigen NY-CO-13)',
      expected: { proteinName: 'Cellular tumor antigen p53 (Antigen NY-CO-13)' },
    },
    {
      name: 'a Protein names cell at the bound (500 characters)',
      text: `Entry\tProtein names\nP12345\t${'N'.repeat(500)}`,
      expected: { proteinName: 'N'.repeat(500) },
    },
    {
      name: 'a Protein names cell past the bound, dropped rather than cut',
      text: `Entry\tProtein names\nP12345\t${'N'.repeat(501)}`,
      expected: { accession: 'P12345', proteinName: null },
    },
    {
      name: 'a Protein names cell of hidden characters only',
      text: 'Entry\tProtein names\nP12345\t\u200b\u00ad',
      expected: { proteinName: null },
    },
    {
      name: 'a duplicated label (first wins)',
      text: 'Entry\tLength\tLength\nP12345\t3\tabc',
      expected: { length: 3 },
    },
  ])('$name', ({ text, expected }) => {
    const { records, problems } = parseUniProtTsv(text);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ ...expected, lineNumber: 2 });
  });

  it.each([
    { name: 'empty input', text: '', problems: [[0, 'no header row']] },
    { name: 'only blank lines', text: '\n\n', problems: [[0, 'no header row']] },
    {
      name: 'no Entry column',
      text: 'Entry Name\tLength\nX_HUMAN\t3\n',
      problems: [[1, 'line 1: no Entry column in the header row']],
    },
    {
      name: 'a short row',
      text: `${HEADER}\nP12345\treviewed\n`,
      problems: [[2, 'line 2: expected 9 tab-separated columns, found 2']],
    },
    {
      name: 'a long row',
      text: `Entry\nP12345\textra\n`,
      problems: [[2, 'line 2: expected 1 tab-separated columns, found 2']],
    },
    { name: 'an empty Entry', text: 'Entry\tLength\n\t3\n', problems: [[2, 'line 2: Entry is empty']] },
    {
      name: 'an Entry that is not an accession',
      text: 'Entry\nP53_HUMAN\n',
      problems: [[2, "line 2: Entry 'P53_HUMAN' is not a UniProt accession"]],
    },
    {
      name: 'a Reviewed value that is neither',
      text: 'Entry\tReviewed\nP12345\tyes\nQ9Y6K9\ttoString\n',
      problems: [
        [2, "line 2: Reviewed 'yes' is neither reviewed nor unreviewed"],
        [3, "line 3: Reviewed 'toString' is neither reviewed nor unreviewed"],
      ],
    },
    {
      name: 'a non-numeric taxonomy id',
      text: 'Entry\tOrganism (ID)\nP12345\tHuman\n',
      problems: [[2, "line 2: Organism (ID) 'Human' is not a taxonomy id"]],
    },
    {
      name: 'a non-numeric length',
      text: 'Entry\tLength\nP12345\t1.5\n',
      problems: [[2, "line 2: Length '1.5' is not a number"]],
    },
    {
      name: 'a length that does not match the sequence',
      text: 'Entry\tLength\tSequence\nP12345\t4\tMKT\n',
      problems: [[2, 'line 2: Length 4 does not match the sequence (3 residues)']],
    },
    {
      name: 'a duplicate entry',
      text: 'Entry\nP12345\nQ9Y6K9\n\nP12345\n',
      problems: [[5, 'line 5: duplicate entry P12345 (first at line 2)']],
    },
    {
      name: 'several problems on one row, each listed',
      text: 'Entry\tReviewed\tLength\nX\tmaybe\tmany\n',
      problems: [
        [2, "line 2: Entry 'X' is not a UniProt accession"],
        [2, "line 2: Reviewed 'maybe' is neither reviewed nor unreviewed"],
        [2, "line 2: Length 'many' is not a number"],
      ],
    },
  ])('reports $name', ({ text, problems }) => {
    const result = parseUniProtTsv(text);
    expect(result.problems.map((problem) => [problem.lineNumber, problem.message])).toEqual(problems);
  });

  it('keeps the good rows around bad ones', () => {
    const { records } = parseUniProtTsv(['Entry\tLength', 'P12345\t3', 'bad\t3', 'Q9Y6K9\t5']);
    expect(records.map((record) => [record.lineNumber, record.accession])).toEqual([
      [2, 'P12345'],
      [4, 'Q9Y6K9'],
    ]);
  });

  it('reads from any iterable of lines (a streamed response)', () => {
    function* lines(): Generator<string> {
      yield 'Entry\tReviewed\n';
      yield 'P12345\treviewed\n';
    }
    expect(parseUniProtTsv(lines()).records).toEqual([
      {
        ...EMPTY_UNIPROT_ENTRY,
        lineNumber: 2,
        accession: 'P12345',
        canonicalAccession: 'P12345',
        isCanonical: true,
        reviewed: true,
        length: null,
        sequence: null,
      },
    ]);
  });
});
