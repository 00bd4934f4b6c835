import { type ComposedPriorWrite, decodeComposedPrior, encodeComposedPrior } from './composed-prior';

const WRITE: ComposedPriorWrite = {
  prior: {
    digest: 'ab'.repeat(16),
    minScore: 0.01,
    terms: [
      {
        aspect: 'F',
        goTermId: 7,
        goId: 'GO:0005515',
        frequency: 0.375,
        termFrequency: 3,
        calibration: { raw: [0, 1], calibrated: [0, 0.9] },
      },
      { aspect: 'C', goTermId: 9, goId: 'GO:0005634', frequency: 1e-7, termFrequency: 1, calibration: null },
    ],
  },
  pairs: [
    {
      accession: 'P04637',
      aspect: 'F',
      weight: 0.25,
      associationWeight: 0.5,
      associatedTerms: [7],
      associations: [0.125],
      queryTaxonomyId: '9606',
      neighbourhood: true,
      composedRows: 1,
      storedTerms: [3, 4],
    },
  ],
};

/** The encoded message with one part replaced. */
function tampered(
  edit: (body: { digest: unknown; min_score: unknown; terms: unknown[][]; pairs: unknown[][] }) => void,
) {
  const body = JSON.parse(encodeComposedPrior(WRITE)) as Parameters<typeof edit>[0];
  edit(body);
  return decodeComposedPrior(JSON.stringify(body));
}

describe('decodeComposedPrior', () => {
  it('gives back what encodeComposedPrior wrote', () => {
    expect(decodeComposedPrior(encodeComposedPrior(WRITE))).toEqual({ value: WRITE });
  });

  it('refuses a message that is not the encoding, saying what is wrong', () => {
    expect(decodeComposedPrior('{"digest":')).toEqual({ error: 'composed_prior is not JSON' });
    expect(decodeComposedPrior('null')).toEqual({ error: 'composed_prior is not an object' });
    expect(tampered((b) => (b.digest = "x' OR 1=1"))).toEqual({
      error: 'composed_prior.digest must be 32 hex digits',
    });
    expect(tampered((b) => (b.min_score = 2))).toEqual({
      error: 'composed_prior.min_score must be in [0, 1]',
    });
    expect(tampered((b) => (b.pairs = {} as unknown[][]))).toEqual({
      error: 'composed_prior.terms and pairs must be arrays',
    });
    const term = { error: 'composed_prior.terms holds a malformed term' };
    expect(tampered((b) => (b.terms[0]![0] = 'X'))).toEqual(term);
    expect(tampered((b) => (b.terms[0]![1] = -1))).toEqual(term);
    expect(tampered((b) => (b.terms[0]![3] = 1.5))).toEqual(term);
    expect(tampered((b) => (b.terms[0]![3] = '0.3'))).toEqual(term);
    expect(tampered((b) => (b.terms[0]![6] = [0]))).toEqual(term);
    expect(tampered((b) => (b.terms[0]![6] = null))).toEqual(term);
    expect(tampered((b) => (b.terms[1] = 'GO:0005634' as unknown as unknown[]))).toEqual(term);
    const pair = { error: 'composed_prior.pairs holds a malformed pair' };
    expect(tampered((b) => (b.pairs[0]![0] = 42))).toEqual(pair);
    expect(tampered((b) => (b.pairs[0]![2] = -0.5))).toEqual(pair);
    expect(tampered((b) => (b.pairs[0]![3] = 3))).toEqual(pair);
    expect(tampered((b) => (b.pairs[0]![4] = 9606))).toEqual(pair);
    expect(tampered((b) => (b.pairs[0]![5] = 'yes'))).toEqual(pair);
    expect(tampered((b) => (b.pairs[0]![6] = 1.5))).toEqual(pair);
    expect(tampered((b) => (b.pairs[0]![7] = ['3']))).toEqual(pair);
    expect(tampered((b) => (b.pairs[0]![9] = [0.125, 0.5]))).toEqual(pair);
  });
});
