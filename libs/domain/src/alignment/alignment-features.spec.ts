import { computeAlignmentFeatures } from './alignment-features';

describe('computeAlignmentFeatures', () => {
  it('reports the global and local alignment of query against reference', () => {
    expect(computeAlignmentFeatures({ query: 'MKWVTF', reference: 'WVT' })).toEqual({
      identity_nw: 0.5,
      similarity_nw: 0.5,
      alignment_score_nw: 20,
      gaps_pct_nw: 50,
      alignment_length_nw: 6,
      identity_sw: 1,
      similarity_sw: 1,
      alignment_score_sw: 20,
      gaps_pct_sw: 0,
      alignment_length_sw: 3,
      length_query: 6,
      length_ref: 3,
    });
  });

  it('passes gap penalties to both alignments', () => {
    const features = computeAlignmentFeatures({
      query: 'MKVLWACDEFGHIK',
      reference: 'MKVLWFGHIK',
      options: { gapOpen: 25, gapExtend: 5 },
    });
    expect(features).toMatchObject({
      alignment_score_nw: 19,
      alignment_score_sw: 29,
      alignment_length_sw: 5,
    });
  });
});
