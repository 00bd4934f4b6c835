import {
  basisOf,
  coverageOf,
  provenanceComment,
  provenanceHeader,
  provenanceWarningCodes,
  provenanceWarnings,
  type ReferenceSummary,
} from './provenance';

const reference = (donors: number, label = 'goa gene2go-2022-09-12'): ReferenceSummary => ({
  reference_name: null,
  ontology_snapshot_id: 's',
  ontology_version: 'releases/2022-07-01',
  annotation_set_id: 'a',
  annotation_set_label: label,
  annotation_source_version: 'gene2go-2022-09-12',
  donor_evidence: 'experimental',
  donor_proteins: donors,
  donor_proteins_per_aspect: { F: donors, P: donors, C: donors },
  donor_species: [{ taxon: 'taxon:9606', proteins: donors }],
  search_backend: 'diamond',
  blend_version: 'homology-blend-v1',
  blend_donor_evidence: 'experimental',
  self_transfer: true,
});

describe('provenance', () => {
  it('basisOf: known before homology before the prior', () => {
    expect(basisOf({ homologs: 3, known_terms: 2 })).toBe('known');
    expect(basisOf({ homologs: 3, known_terms: 0 })).toBe('homology');
    expect(basisOf({ homologs: 0, known_terms: 0 })).toBe('prior');
  });

  it('coverageOf counts and rounds the share', () => {
    expect(coverageOf({ queries: 3, without_homolog: 1, known: 0 })).toEqual({
      queries: 3,
      with_homolog: 2,
      without_homolog: 1,
      without_homolog_share: 0.3333,
      known: 0,
    });
    expect(coverageOf({ queries: 0, without_homolog: 0, known: 0 }).without_homolog_share).toBe(0);
  });

  it('warns of a small reference and of a majority without a homolog, not otherwise', () => {
    const many = reference(15398);
    expect(provenanceWarnings(many, coverageOf({ queries: 20, without_homolog: 10, known: 0 }))).toEqual([]);
    expect(provenanceWarnings(reference(300), null)).toEqual([
      expect.stringMatching(/^The reference is small: 300 donor proteins \(annotation set goa gene2go/),
    ]);
    expect(provenanceWarnings(many, coverageOf({ queries: 20, without_homolog: 14, known: 0 }))).toEqual([
      '14 of 20 proteins (70 %) found no homolog in the reference: their terms rest on the prior alone (how common each term is), not on their sequence.',
    ]);
    expect(provenanceWarnings(null, null)).toEqual([]);
  });

  it.each([
    {
      name: 'experimental donors, blend fitted on experimental',
      run: 'experimental',
      fitted: 'experimental',
      warned: false,
    },
    {
      name: 'every code donates, blend fitted on experimental',
      run: 'all',
      fitted: 'experimental',
      warned: true,
    },
    {
      name: 'experimental donors, a blend fitted on every code',
      run: 'experimental',
      fitted: 'all',
      warned: true,
    },
    { name: 'every code donates, a blend fitted on every code', run: 'all', fitted: 'all', warned: false },
    { name: 'an embedding search (no blend)', run: 'all', fitted: null, warned: false },
    { name: 'a set recorded before the fitted policy was', run: 'all', fitted: undefined, warned: false },
  ] as const)(
    'warns that the donor policy differs from the calibration only when it does: $name',
    ({ run, fitted, warned }) => {
      const summary = {
        ...reference(15398),
        donor_evidence: run,
        blend_donor_evidence: fitted,
      } as ReferenceSummary;
      const codes = provenanceWarningCodes(summary, null);
      const messages = provenanceWarnings(summary, null);
      expect(codes).toEqual(warned ? ['donor_policy_differs_from_calibration'] : []);
      expect(messages).toHaveLength(codes.length);
      if (warned) {
        expect(messages[0]).toMatch(/calibrat/);
        expect(messages[0]).toContain('homology-blend-v1');
        // The header of every export names it too.
        expect(provenanceHeader(summary, null)['warnings']).toBe('donor_policy_differs_from_calibration');
      } else expect(provenanceHeader(summary, null)['warnings']).toBeUndefined();
    },
  );

  it('gives every warning a stable code, in the order of the messages', () => {
    const small = { ...reference(300), donor_evidence: 'all' as const };
    const coverage = coverageOf({ queries: 20, without_homolog: 14, known: 0 });
    expect(provenanceWarningCodes(small, coverage)).toEqual([
      'small_reference',
      'donor_policy_differs_from_calibration',
      'low_coverage',
    ]);
    expect(provenanceWarnings(small, coverage)).toHaveLength(3);
    expect(provenanceHeader(small, coverage)['warnings']).toBe(
      'small_reference, donor_policy_differs_from_calibration, low_coverage',
    );
  });

  it('names the reference in export headers, with no line break from an uploaded label', () => {
    const header = provenanceHeader(
      reference(15398, 'goa evil\nlabel'),
      coverageOf({ queries: 2, without_homolog: 1, known: 0 }),
    );
    expect(header).toMatchObject({
      'go-version': 'releases/2022-07-01',
      'reference-annotations': 'goa evil label (experimental evidence codes donate)',
      'reference-donors': '15398 proteins (F 15398, P 15398, C 15398)',
      'search-backend': 'diamond',
      'blend-calibration': 'fitted transferring annotations of experimental evidence codes only',
      coverage: '1 of 2 proteins with a homolog; 1 on the prior alone; 0 with known terms',
    });
    expect(provenanceComment({ a: 'x; y', b: 'z' })).toBe('# a: x, y; b: z');
    expect(provenanceHeader(null, null)).toEqual({
      reference: 'not recorded (a set made before references were recorded)',
    });
  });
});
