import { defaultDonorEvidence, REFERENCE_CATALOG, type ReferenceBundleSpec } from './catalog';

const catalog: ReferenceBundleSpec[] = [
  { name: 'curated', description: '', taxon: '9606', donorEvidence: 'experimental', files: [] },
  { name: 'broad', description: '', taxon: '9606', donorEvidence: 'all', files: [] },
];

describe('defaultDonorEvidence', () => {
  it.each([
    { name: 'no installed reference (loaded by hand)', installed: null, expected: 'experimental' },
    { name: 'an installed reference of experimental donors', installed: 'curated', expected: 'experimental' },
    { name: 'an installed reference of every evidence code', installed: 'broad', expected: 'all' },
    { name: 'an install the catalog no longer names', installed: 'gone', expected: 'experimental' },
  ] as const)('$name: $expected', ({ installed, expected }) => {
    expect(defaultDonorEvidence(installed, catalog)).toBe(expected);
  });

  it('the shipped references donate experimental annotations, as the blend was fitted', () => {
    for (const spec of REFERENCE_CATALOG) expect(defaultDonorEvidence(spec.name)).toBe('experimental');
  });
});
