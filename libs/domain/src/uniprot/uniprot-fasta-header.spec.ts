import { EMPTY_UNIPROT_ENTRY } from './uniprot-entry';
import {
  KNOWN_GO_IDS_MAX,
  parseGeneNameTag,
  parseKnownGoTag,
  parseSpeciesTags,
  parseUniProtFastaHeader,
  UNIPROT_HEADER_FIELD_MAX_LENGTH,
} from './uniprot-fasta-header';

describe('parseUniProtFastaHeader', () => {
  it('reads an isoform header', () => {
    expect(
      parseUniProtFastaHeader(
        'sp|P12345-2|ABC_HUMAN Isoform 2 of Protein X OS=Homo sapiens OX=9606 GN=ABC PE=1 SV=2',
      ),
    ).toEqual({
      accession: 'P12345-2',
      canonicalAccession: 'P12345',
      isCanonical: false,
      isoformIndex: 2,
      entryName: 'ABC_HUMAN',
      reviewed: true,
      proteinName: 'Isoform 2 of Protein X',
      organism: 'Homo sapiens',
      taxonomyId: '9606',
      geneName: 'ABC',
    });
  });

  it.each([
    {
      name: 'Swiss-Prot canonical',
      header: '>sp|P04637|P53_HUMAN Cellular tumor antigen p53 OS=Homo sapiens OX=9606 GN=TP53 PE=1 SV=4',
      expected: {
        accession: 'P04637',
        canonicalAccession: 'P04637',
        isCanonical: true,
        isoformIndex: null,
        entryName: 'P53_HUMAN',
        reviewed: true,
        proteinName: 'Cellular tumor antigen p53',
        organism: 'Homo sapiens',
        taxonomyId: '9606',
        geneName: 'TP53',
      },
    },
    {
      name: 'TrEMBL without a gene name',
      header:
        'tr|A0A024R161|A0A024R161_HUMAN Guanine nucleotide-binding protein subunit gamma OS=Homo sapiens OX=9606 PE=3 SV=1',
      expected: {
        accession: 'A0A024R161',
        canonicalAccession: 'A0A024R161',
        isCanonical: true,
        isoformIndex: null,
        entryName: 'A0A024R161_HUMAN',
        reviewed: false,
        proteinName: 'Guanine nucleotide-binding protein subunit gamma',
        organism: 'Homo sapiens',
        taxonomyId: '9606',
        geneName: null,
      },
    },
    {
      name: 'organism with strain in parentheses',
      header:
        'sp|P0A7V8|RS4_ECOLI Small ribosomal subunit protein uS4 OS=Escherichia coli (strain K12) OX=83333 GN=rpsD PE=1 SV=2',
      expected: {
        accession: 'P0A7V8',
        canonicalAccession: 'P0A7V8',
        isCanonical: true,
        isoformIndex: null,
        entryName: 'RS4_ECOLI',
        reviewed: true,
        proteinName: 'Small ribosomal subunit protein uS4',
        organism: 'Escherichia coli (strain K12)',
        taxonomyId: '83333',
        geneName: 'rpsD',
      },
    },
    {
      name: 'pre-2019 header without OX',
      header:
        'sp|P12345|AATM_RABIT Aspartate aminotransferase, mitochondrial OS=Oryctolagus cuniculus GN=GOT2 PE=1 SV=2',
      expected: {
        accession: 'P12345',
        canonicalAccession: 'P12345',
        isCanonical: true,
        isoformIndex: null,
        entryName: 'AATM_RABIT',
        reviewed: true,
        proteinName: 'Aspartate aminotransferase, mitochondrial',
        organism: 'Oryctolagus cuniculus',
        taxonomyId: null,
        geneName: 'GOT2',
      },
    },
    {
      name: 'no description at all',
      header: 'sp|P12345|AATM_RABIT',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'P12345',
        canonicalAccession: 'P12345',
        isCanonical: true,
        entryName: 'AATM_RABIT',
        reviewed: true,
      },
    },
    {
      name: 'empty entry name',
      header: 'tr|Q9Y6K9|',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'Q9Y6K9',
        canonicalAccession: 'Q9Y6K9',
        isCanonical: true,
        reviewed: false,
      },
    },
    {
      name: "'=' inside the protein name is not a tag",
      header: 'sp|P12345|X_HUMAN Protein pH=7 sensor OS=Homo sapiens OX=9606',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'P12345',
        canonicalAccession: 'P12345',
        isCanonical: true,
        entryName: 'X_HUMAN',
        reviewed: true,
        proteinName: 'Protein pH=7 sensor',
        organism: 'Homo sapiens',
        taxonomyId: '9606',
      },
    },
    {
      name: 'plain accession',
      header: 'P12345',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'P12345',
        canonicalAccession: 'P12345',
        isCanonical: true,
      },
    },
    {
      name: 'plain accession with text',
      header: '>P12345 some text',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'P12345',
        canonicalAccession: 'P12345',
        isCanonical: true,
      },
    },
    {
      name: 'plain isoform accession',
      header: 'Q9Y6K9-3',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'Q9Y6K9-3',
        canonicalAccession: 'Q9Y6K9',
        isCanonical: false,
        isoformIndex: 3,
      },
    },
    {
      name: 'plain accession with species tags (query-set uploads)',
      header: 'A0A183 Late cornified envelope protein OS=Homo sapiens OX=9606 GN=LCE6A',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'A0A183',
        canonicalAccession: 'A0A183',
        isCanonical: true,
        organism: 'Homo sapiens',
        taxonomyId: '9606',
        geneName: 'LCE6A',
      },
    },
    {
      name: 'shared data set header: accession and a source note, no tags',
      header: 'A0A183 source=metastudent-data/dataset_201401 (UniProtKB/Swiss-Prot ~2014-01)',
      expected: {
        ...EMPTY_UNIPROT_ENTRY,
        accession: 'A0A183',
        canonicalAccession: 'A0A183',
        isCanonical: true,
      },
    },
    {
      name: 'tags after an identifier that is no accession',
      header: 'my_protein_1 Kinase OS=Mus musculus OX=10090 GN=Trp53',
      expected: { ...EMPTY_UNIPROT_ENTRY, organism: 'Mus musculus', taxonomyId: '10090', geneName: 'Trp53' },
    },
    { name: 'not an accession', header: 'my_protein_1 from the lab', expected: EMPTY_UNIPROT_ENTRY },
    { name: 'lower-case accession', header: 'p12345', expected: EMPTY_UNIPROT_ENTRY },
    { name: 'empty header', header: '', expected: EMPTY_UNIPROT_ENTRY },
    { name: 'only >', header: '>', expected: EMPTY_UNIPROT_ENTRY },
  ])('$name', ({ header, expected }) => {
    expect(parseUniProtFastaHeader(header)).toEqual(expected);
  });
});

describe('parseUniProtFastaHeader with untrusted values', () => {
  const { entryName, proteinName, organism, geneName } = UNIPROT_HEADER_FIELD_MAX_LENGTH;
  const p53 = (description: string, entry = 'P53_HUMAN'): string => `sp|P04637|${entry} ${description}`;

  it.each([
    {
      name: 'tabs and runs of spaces become one space',
      header: p53('Cellular\ttumor  antigen p53\tOS=Homo\t sapiens\tOX=9606\tGN=TP53'),
      expected: { proteinName: 'Cellular tumor antigen p53', organism: 'Homo sapiens', geneName: 'TP53' },
    },
    {
      name: 'control and invisible formatting characters are stripped',
      header: p53(
        'Cellular tumor\u0000 antigen p53\u0085 OS=Homo sapiens\u202e OX=9606 GN=TP\u200b53\u00ad PE=1',
      ),
      expected: { proteinName: 'Cellular tumor antigen p53', organism: 'Homo sapiens', geneName: 'TP53' },
    },
    {
      name: 'a value of hidden characters only is no value',
      header: p53('Protein OS=\u200b\u2060 OX=9606 GN=\u0007'),
      expected: { proteinName: 'Protein', organism: null, taxonomyId: '9606', geneName: null },
    },
    {
      name: 'values at their bounds are kept',
      header: p53(
        `${'N'.repeat(proteinName)} OS=${'O'.repeat(organism)} OX=9606 GN=${'G'.repeat(geneName)}`,
        'E'.repeat(entryName),
      ),
      expected: {
        entryName: 'E'.repeat(entryName),
        proteinName: 'N'.repeat(proteinName),
        organism: 'O'.repeat(organism),
        geneName: 'G'.repeat(geneName),
      },
    },
    {
      name: 'values past their bounds are dropped, not cut; the others stay',
      header: p53(
        `${'N'.repeat(proteinName + 1)} OS=${'O'.repeat(organism + 1)} OX=9606 GN=${'G'.repeat(geneName + 1)}`,
        'E'.repeat(entryName + 1),
      ),
      expected: {
        accession: 'P04637',
        entryName: null,
        reviewed: true,
        proteinName: null,
        organism: null,
        taxonomyId: '9606',
        geneName: null,
      },
    },
    {
      name: 'an entry name that is not one plain token is dropped',
      header: p53('Protein OS=Homo sapiens', '<img/src=x>'),
      expected: { accession: 'P04637', entryName: null, proteinName: 'Protein', organism: 'Homo sapiens' },
    },
    {
      name: 'a taxonomy id past what the taxon columns hold is dropped',
      header: p53('Protein OS=Homo sapiens OX=99999999999 GN=TP53'),
      expected: { organism: 'Homo sapiens', taxonomyId: null, geneName: 'TP53' },
    },
    {
      name: 'taxonomy id 0 is no taxon',
      header: p53('Protein OX=0'),
      expected: { taxonomyId: null },
    },
    {
      name: 'a taxonomy id with leading zeros is written plainly',
      header: p53('Protein OX=09606'),
      expected: { taxonomyId: '9606' },
    },
    {
      name: 'plain headers are checked the same way',
      header: `P04637 OS=${'O'.repeat(organism + 1)} OX=-9606 GN=TP\u008553`,
      expected: { accession: 'P04637', organism: null, taxonomyId: null, geneName: 'TP53' },
    },
    {
      name: 'a megabyte of text is read, and dropped',
      header: p53(`${'x'.repeat(1_000_000)} OS=Homo sapiens`),
      expected: { accession: 'P04637', proteinName: null, organism: 'Homo sapiens' },
    },
  ])('$name', ({ header, expected }) => {
    expect(parseUniProtFastaHeader(header)).toMatchObject(expected);
  });
});

describe('parseSpeciesTags', () => {
  it.each([
    {
      description: 'Protein X OS=Homo sapiens OX=9606 GN=ABC PE=1 SV=2',
      organism: 'Homo sapiens',
      taxonomyId: '9606',
    },
    { description: 'OS=Mus musculus OX=10090', organism: 'Mus musculus', taxonomyId: '10090' },
    { description: 'OX=9606 OS=Homo sapiens', organism: 'Homo sapiens', taxonomyId: '9606' },
    {
      description: 'Protein X OS=Saccharomyces cerevisiae (strain ATCC 204508 / S288c)',
      organism: 'Saccharomyces cerevisiae (strain ATCC 204508 / S288c)',
      taxonomyId: null,
    },
    { description: 'Protein X', organism: null, taxonomyId: null },
    { description: '', organism: null, taxonomyId: null },
    { description: 'OS= OX=', organism: null, taxonomyId: null },
    { description: 'OS=Homo sapiens OX=human', organism: 'Homo sapiens', taxonomyId: null },
    { description: 'OS=Homo sapiens OX=9606 OX=10090', organism: 'Homo sapiens', taxonomyId: '9606' },
    { description: 'XOS=Homo sapiens', organism: null, taxonomyId: null },
    { description: 'Protein\tOS=Homo sapiens\tOX=9606', organism: 'Homo sapiens', taxonomyId: '9606' },
  ])('$description', ({ description, organism, taxonomyId }) => {
    expect(parseSpeciesTags(description)).toEqual({ organism, taxonomyId });
  });
});

describe('parseGeneNameTag', () => {
  it.each([
    { description: 'Cellular tumor antigen p53 OS=Homo sapiens OX=9606 GN=TP53 PE=1 SV=4', geneName: 'TP53' },
    { description: 'Protein X GN=ABC', geneName: 'ABC' },
    { description: 'GN=rpsD OS=Escherichia coli', geneName: 'rpsD' },
    { description: 'Protein X OS=Homo sapiens OX=9606', geneName: null },
    { description: 'Protein X GN= PE=1', geneName: null },
    { description: 'GN=ABC GN=DEF', geneName: 'ABC' },
    { description: 'XGN=ABC', geneName: null },
    { description: '', geneName: null },
  ])('$description', ({ description, geneName }) => {
    expect(parseGeneNameTag(description)).toBe(geneName);
  });
});

describe('parseKnownGoTag', () => {
  it('reads the GO ids a header says are known, once each, beside the UniProt tags', () => {
    const header = 'Kinase X OS=Homo sapiens OX=9606 GN=KX GO=GO:0003677, GO:0005634,GO:0003677 PE=1 SV=2';
    expect(parseKnownGoTag(header)).toEqual({ ids: ['GO:0003677', 'GO:0005634'] });
    // GO= ends the gene name, as any tag does, and is not part of it.
    expect(parseGeneNameTag(header)).toBe('KX');
    expect(parseUniProtFastaHeader(`sp|P12345|KX_HUMAN ${header}`).proteinName).toBe('Kinase X');
  });

  it('is null for a header without GO=, and GO= inside a word is no tag', () => {
    expect(parseKnownGoTag('Protein X OS=Homo sapiens')).toBeNull();
    expect(parseKnownGoTag('Protein XGO=GO:0005634')).toBeNull();
    expect(parseKnownGoTag('')).toBeNull();
  });

  it('refuses a malformed list as a whole, saying why', () => {
    for (const bad of ['GO=', 'GO=GO:0005634,', 'GO=,GO:0005634', 'GO=GO:0005634,,GO:0003677']) {
      expect(parseKnownGoTag(`Protein ${bad}`)).toEqual({
        problem: expect.stringContaining('no empty item'),
      });
    }
    const notIds = parseKnownGoTag('P GO=GO:0005634,go:0003677,GO:12,0005634,GO:0003677;DROP');
    expect(notIds).toEqual({ problem: expect.stringContaining('4 item(s) that are not GO ids') });
    expect((notIds as { problem: string }).problem).toContain('"go:0003677"');
    // What is echoed is bounded and escaped.
    const long = parseKnownGoTag(`P GO=${'x'.repeat(3000)}\u0007`) as { problem: string };
    expect(long.problem.length).toBeLessThan(200);
    expect(long.problem).not.toContain('\u0007');
  });

  it(`allows ${KNOWN_GO_IDS_MAX} distinct ids and refuses one more`, () => {
    const ids = (n: number): string[] =>
      Array.from({ length: n }, (_, i) => `GO:${String(i + 1).padStart(7, '0')}`);
    expect(parseKnownGoTag(`P GO=${ids(KNOWN_GO_IDS_MAX).join(',')}`)).toEqual({
      ids: ids(KNOWN_GO_IDS_MAX),
    });
    expect(parseKnownGoTag(`P GO=${ids(KNOWN_GO_IDS_MAX + 1).join(',')}`)).toEqual({
      problem: expect.stringContaining(`at most ${KNOWN_GO_IDS_MAX}`),
    });
  });
});
