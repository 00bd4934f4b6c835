import { isSelfHit, selectNeighbours, standardDeviation } from './neighbours';
import { DonorAnnotation, transferTerms } from './transfer';
import { activeFeatureNames, DEFAULT_FEATURE_FLAGS, featureFlagsOf } from './feature-schema';

const ann = (goTermId: number, aspect: 'F' | 'P' | 'C' = 'F', evidenceCode = 'IDA'): DonorAnnotation => ({
  goTermId,
  goId: `GO:${String(goTermId).padStart(7, '0')}`,
  aspect,
  qualifier: null,
  evidenceCode,
});

const accessions = ['Q1', 'P1', 'P1-2', 'P2', 'P3'];
const canonical = ['Q1', 'P1', 'P1', 'P2', 'P3'];

describe('selectNeighbours', () => {
  const base = {
    k: 2,
    queryAccession: 'Q1',
    queryCanonical: 'Q1',
    accessionOf: (r: number) => accessions[r]!,
    canonicalOf: (r: number) => canonical[r]!,
  };
  it.each([
    {
      name: 'drops the query itself and keeps the k nearest, ranked from 1',
      hits: [
        { refIndex: 0, distance: 0 },
        { refIndex: 1, distance: 0.1 },
        { refIndex: 3, distance: 0.2 },
        { refIndex: 4, distance: 0.3 },
      ],
      extra: {},
      expected: [
        { refIndex: 1, distance: 0.1, rank: 1 },
        { refIndex: 3, distance: 0.2, rank: 2 },
      ],
    },
    {
      name: 'an isoform of the query is not a donor',
      hits: [
        { refIndex: 2, distance: 0.05 },
        { refIndex: 3, distance: 0.2 },
      ],
      extra: { queryAccession: 'P1', queryCanonical: 'P1' },
      expected: [{ refIndex: 3, distance: 0.2, rank: 1 }],
    },
    {
      name: 'the distance threshold cuts the list',
      hits: [
        { refIndex: 1, distance: 0.1 },
        { refIndex: 3, distance: 0.6 },
      ],
      extra: { distanceThreshold: 0.5 },
      expected: [{ refIndex: 1, distance: 0.1, rank: 1 }],
    },
    {
      name: 'tiny negative distances from rounding are clamped to 0; NaN hits are skipped',
      hits: [
        { refIndex: 3, distance: Number.NaN },
        { refIndex: 1, distance: -1e-7 },
      ],
      extra: {},
      expected: [{ refIndex: 1, distance: 0, rank: 1 }],
    },
    { name: 'no hits, no neighbours', hits: [], extra: {}, expected: [] },
    {
      name: 'annotation mode (excludeSelf false): the query itself is its nearest donor',
      hits: [
        { refIndex: 0, distance: 0 },
        { refIndex: 1, distance: 0.1 },
        { refIndex: 3, distance: 0.2 },
      ],
      extra: { excludeSelf: false },
      expected: [
        { refIndex: 0, distance: 0, rank: 1 },
        { refIndex: 1, distance: 0.1, rank: 2 },
      ],
    },
    {
      name: 'annotation mode keeps an isoform of the query',
      hits: [
        { refIndex: 2, distance: 0.05 },
        { refIndex: 3, distance: 0.2 },
      ],
      extra: { queryAccession: 'P1', queryCanonical: 'P1', excludeSelf: false },
      expected: [
        { refIndex: 2, distance: 0.05, rank: 1 },
        { refIndex: 3, distance: 0.2, rank: 2 },
      ],
    },
  ])('$name', ({ hits, extra, expected }) => {
    expect(selectNeighbours({ ...base, hits, ...extra })).toEqual(expected);
  });
});

describe('isSelfHit', () => {
  it.each([
    { name: 'the same accession', query: ['Q9', 'Q9'], ref: ['Q9', 'Q9'], expected: true },
    { name: 'an isoform of the query', query: ['P1', 'P1'], ref: ['P1-2', 'P1'], expected: true },
    {
      name: 'the canonical entry of an isoform query',
      query: ['P1-3', 'P1'],
      ref: ['P1', 'P1'],
      expected: true,
    },
    { name: 'another protein', query: ['P1', 'P1'], ref: ['P2', 'P2'], expected: false },
  ])('$name', ({ query, ref, expected }) => {
    expect(
      isSelfHit({
        queryAccession: query[0]!,
        queryCanonical: query[1]!,
        accession: ref[0]!,
        canonical: ref[1]!,
      }),
    ).toBe(expected);
  });
});

describe('standardDeviation', () => {
  it.each([
    { values: [], expected: 0 },
    { values: [0.3], expected: 0 },
    { values: [0.1, 0.3], expected: 0.1 },
    { values: [1, 1, 1], expected: 0 },
  ])('$values -> $expected', ({ values, expected }) =>
    expect(standardDeviation(values)).toBeCloseTo(expected, 12),
  );
});

describe('transferTerms', () => {
  const annotations: DonorAnnotation[][] = [
    [ann(1), ann(2)], // ref 0
    [ann(2), ann(3), ann(3, 'F', 'IEA')], // ref 1: term 3 twice
    [ann(1)], // ref 2
  ];
  const neighbours = [
    { refIndex: 0, distance: 0.1, rank: 1 },
    { refIndex: 1, distance: 0.2, rank: 2 },
    { refIndex: 2, distance: 0.4, rank: 3 },
  ];

  it('one row per term from its nearest donor, with votes over the neighbourhood', () => {
    const rows = transferTerms({
      neighbours,
      annotationsOf: (r) => annotations[r]!,
      termFrequency: (id) => id * 10,
    });
    const byTerm = new Map(rows.map((r) => [r.goTermId, r]));
    expect([...byTerm.keys()].sort()).toEqual([1, 2, 3]);
    expect(byTerm.get(1)).toMatchObject({
      refIndex: 0,
      distance: 0.1,
      kPosition: 1,
      voteCount: 2,
      goTermFrequency: 10,
    });
    expect(byTerm.get(1)!.neighbourVoteFraction).toBeCloseTo(2 / 3, 12);
    expect(byTerm.get(1)!.meanDistance).toBeCloseTo(0.25, 12);
    expect(byTerm.get(2)).toMatchObject({ refIndex: 0, voteCount: 2, refAnnotationDensity: 2 });
    // The duplicate annotation of term 3 on one donor is one vote; the first row's evidence wins.
    expect(byTerm.get(3)).toMatchObject({
      refIndex: 1,
      kPosition: 2,
      voteCount: 1,
      evidenceCode: 'IDA',
      refAnnotationDensity: 2,
    });
    expect(byTerm.get(3)!.neighbourDistanceStd).toBeCloseTo(standardDeviation([0.1, 0.2, 0.4]), 12);
    expect(rows.map((r) => r.distance)).toEqual([...rows.map((r) => r.distance)].sort((a, b) => a - b));
  });

  it('with ancestors, a donor votes once for each ancestor of its terms, in the same aspect only', () => {
    const parents: Record<number, number[]> = { 1: [10, 20], 2: [10], 3: [] };
    const info: Record<number, { goId: string; aspect: 'F' | 'P' | 'C' }> = {
      10: { goId: 'GO:0000010', aspect: 'F' },
      20: { goId: 'GO:0000020', aspect: 'P' },
    };
    const rows = transferTerms({
      neighbours,
      annotationsOf: (r) => annotations[r]!,
      ancestorsOf: (id) => parents[id] ?? [],
      termInfo: (id) => info[id] ?? null,
    });
    const ancestor = rows.find((r) => r.goTermId === 10)!;
    expect(ancestor).toMatchObject({ voteCount: 3, refIndex: 0, viaDescendant: true, qualifier: null });
    expect(rows.find((r) => r.goTermId === 20)).toBeUndefined();
    expect(rows.find((r) => r.goTermId === 1)!.viaDescendant).toBe(false);
  });

  it('no neighbours, no rows', () => {
    expect(transferTerms({ neighbours: [], annotationsOf: () => [] })).toEqual([]);
  });
});

describe('feature schema', () => {
  it('orders features by flag and changes with the flags', () => {
    const all = activeFeatureNames(DEFAULT_FEATURE_FLAGS);
    expect(all.slice(0, 3)).toEqual(['distance', 'vote_count', 'k_position']);
    expect(all).toContain('identity_sw');
    const none = activeFeatureNames(
      featureFlagsOf({
        compute_alignments: false,
        compute_taxonomy: false,
        compute_reranker_features: false,
      }),
    );
    expect(none).toEqual(['distance', 'vote_count', 'k_position']);
    expect(activeFeatureNames(featureFlagsOf({ compute_ia: true }))).toContain('ia');
  });
});
