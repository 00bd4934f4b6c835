import { featureSchemaSha } from './feature-schema-sha';

// Expected digests computed independently with Python:
//   hashlib.sha256("\n".join(names).encode("utf-8")).hexdigest()
describe('featureSchemaSha', () => {
  it.each([
    {
      name: 'no features',
      names: [],
      sha: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    },
    {
      name: 'one feature',
      names: ['embedding_similarity'],
      sha: 'df5696db5dc8be17624f6004228736a3d6e76be0fa44398e2997637aa03dbf77',
    },
    {
      name: 'the six scoring features, in order',
      names: [
        'embedding_similarity',
        'identity_nw',
        'identity_sw',
        'evidence_weight',
        'taxonomic_proximity',
        'neighbor_vote_fraction',
      ],
      sha: '7567a2170747ceb830e9ff827172a3ea3aedca9e8cd45646eb53d2a6c3755457',
    },
    {
      name: 'a then b',
      names: ['a', 'b'],
      sha: '7e18f737311b2dc3b2f269dd78396b0351f14fb66efa879f768cb23181883c78',
    },
    {
      name: 'order matters',
      names: ['b', 'a'],
      sha: 'c4a78e5bdf318c857b19a6ae4678d9fc8ab0d9bf2b7dd11b41a06c4c1047d943',
    },
    {
      name: 'the separator matters',
      names: ['ab'],
      sha: 'fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603',
    },
    {
      name: 'UTF-8 names',
      names: ['été'],
      sha: 'bd010c64132bf5cae8aea89f6762515727dcf68a5dd1de813c87f50a16c4513c',
    },
  ])('$name', ({ names, sha }) => expect(featureSchemaSha(names)).toBe(sha));

  it.each([
    { name: 'an empty name (would equal the empty list)', names: [''] },
    { name: 'an empty name among others', names: ['a', ''] },
    { name: 'a name with a newline (would equal two names)', names: ['a\nb'] },
  ])('refuses $name', ({ names }) => expect(() => featureSchemaSha(names)).toThrow(RangeError));
});
