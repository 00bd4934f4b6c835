import { METADATA_COLUMNS, parseUniProtMetadataTsv } from './uniprot-metadata';

describe('parseUniProtMetadataTsv', () => {
  it('maps labelled columns to metadata columns, empty cells to null, isoforms to the canonical entry', () => {
    const text = [
      'Entry\tFunction [CC]\tEC number\tUnrelated\tKeywords',
      'P12345\tBinds DNA.\t\tx\tNucleus;Zinc',
      'P12345-2\tIsoform text\t1.1.1.1\ty\t',
      '',
    ];
    const { rows, problems } = parseUniProtMetadataTsv(text);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      {
        lineNumber: 2,
        canonicalAccession: 'P12345',
        values: { function_cc: 'Binds DNA.', ec_number: null, keywords: 'Nucleus;Zinc' },
      },
      {
        lineNumber: 3,
        canonicalAccession: 'P12345',
        values: { function_cc: 'Isoform text', ec_number: '1.1.1.1', keywords: null },
      },
    ]);
  });

  it.each([
    [['Accession\tFunction [CC]', 'P1\tx'], 1],
    [['Entry\tFunction [CC]', '\tx'], 1],
  ])('reports problems with line numbers', (lines, count) => {
    expect(parseUniProtMetadataTsv(lines).problems).toHaveLength(count);
  });

  it('covers every metadata column of the protein record once', () => {
    expect(new Set(METADATA_COLUMNS.map((c) => c.column)).size).toBe(METADATA_COLUMNS.length);
    expect(METADATA_COLUMNS).toHaveLength(18);
  });
});
