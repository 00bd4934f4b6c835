import {
  ASSOCIATION_BYTES,
  AssociationIndex,
  associationIndexBytes,
  associationSourceOf,
  type AspectTerms,
  informedPrior,
} from './association';
import { checkBlendModel, termPrior } from './homology-blend';

const none: readonly string[] = [];
const protein = (F: readonly string[], P: readonly string[], C: readonly string[] = none): AspectTerms => ({
  F,
  P,
  C,
});

/**
 * A hand-made reference: A and B bind DNA (f:dna) and regulate transcription (p:tx) in the nucleus;
 * C is a kinase (f:kin) signalling (p:sig) in the cytoplasm; D binds DNA too but has no process yet.
 * Every protein also has the general f:bind (too common to match on with maxPosting 3).
 */
const references = new Map<string, AspectTerms>([
  ['A', protein(['f:bind', 'f:dna'], ['p:tx'], ['c:nuc'])],
  ['B', protein(['f:bind', 'f:dna'], ['p:tx', 'p:dev'], ['c:nuc'])],
  ['C', protein(['f:bind', 'f:kin'], ['p:sig'], ['c:cyto'])],
  ['D', protein(['f:bind', 'f:dna'], none, ['c:nuc'])],
]);
const priors = {
  F: termPrior([...references.values()].map((p) => p.F)),
  P: termPrior([...references.values()].map((p) => p.P)),
  C: termPrior([...references.values()].map((p) => p.C)),
};
const index = new AssociationIndex(associationSourceOf(references, priors), {
  maxPosting: 3,
  neighbours: 50,
});

describe('association from known terms', () => {
  it('LK: a protein known to bind DNA gets the processes of the DNA binders, not the kinase’s', () => {
    const scores = index.scores(protein(['f:bind', 'f:dna'], none), null);
    // A and B match equally (f:dna; f:bind is too common), carry p:tx both and p:dev one of two;
    // D matches but has no process to vote with; C shares only the common f:bind.
    expect(Object.fromEntries(scores.P!)).toEqual({ 'p:tx': 1, 'p:dev': 0.5 });
    expect(Object.fromEntries(scores.C!)).toEqual({ 'c:nuc': 1 });
    expect(scores.P!.has('p:sig')).toBe(false);
  });

  it('never counts the query as its own neighbour', () => {
    const asA = index.scores(references.get('A')!, 'A');
    // PK in P (A has p:tx): matched on everything; B and D remain; only B has a process.
    expect(Object.fromEntries(asA.P!)).toEqual({ 'p:tx': 1, 'p:dev': 1 });
    expect(index.find('A')).toBe(0);
    expect(index.find('nobody')).toBeUndefined();
  });

  it('PK matches on the aspect itself too; LK only on the other aspects', () => {
    // Known only in C (nucleus): LK for P matches A, B, D through c:nuc.
    expect(Object.fromEntries(index.scores(protein(none, none, ['c:nuc']), null).P!)).toEqual({
      'p:tx': 1,
      'p:dev': 0.5,
    });
    // Known in P (signalling): PK for P matches C through p:sig.
    expect(Object.fromEntries(index.scores(protein(none, ['p:sig']), null).P!)).toEqual({ 'p:sig': 1 });
  });

  it('nothing specific known: no association (the plain prior stays)', () => {
    expect(index.scores(protein(['f:bind'], none), null)).toEqual({});
    expect(index.scores(protein(none, none), null)).toEqual({});
  });

  it('keeps the most similar neighbours only', () => {
    const one = new AssociationIndex(associationSourceOf(references, priors), {
      maxPosting: 3,
      neighbours: 1,
    });
    // Matched on f:dna and c:nuc, A, B and D tie; D has no process and cannot vote; of A and B the
    // lower index, A, is the one neighbour kept.
    expect(Object.fromEntries(one.scores(protein(['f:dna'], none, ['c:nuc']), null).P!)).toEqual({
      'p:tx': 1,
    });
  });
});

describe('AssociationIndex.build', () => {
  it('builds, pausing between steps, the index the constructor builds at once', async () => {
    let pauses = 0;
    const built = await AssociationIndex.build(
      associationSourceOf(references, priors),
      { maxPosting: 3, neighbours: 50 },
      async () => {
        pauses += 1;
      },
      1,
    );
    // One pause per step of one protein.
    expect(pauses).toBe(references.size);
    for (const known of [
      protein(['f:bind', 'f:dna'], none),
      protein(none, none, ['c:nuc']),
      protein(none, ['p:sig']),
      references.get('A')!,
    ])
      expect(built.scores(known, 'A')).toEqual(index.scores(known, 'A'));
    expect(built.find('C')).toBe(2);
  });
});

describe('informedPrior', () => {
  const prior = termPrior([['a', 'b'], ['a'], ['a', 'c'], ['d']]);

  it('mixes the prior and the association, and ranks them as a full sort would', () => {
    const mixed = informedPrior(
      prior,
      new Map([
        ['c', 1],
        ['e', 0.5],
      ]),
      0.5,
    );
    const expected = new Map([
      ['a', 0.375],
      ['b', 0.125],
      ['c', 0.125 + 0.5],
      ['d', 0.125],
      ['e', 0.25],
    ]);
    for (const [term, value] of expected) expect(mixed.frequency.get(term)).toBeCloseTo(value, 12);
    expect(mixed.frequency.get('zzz')).toBeUndefined();
    const ranked = [...mixed.ranked];
    expect(ranked.map(([t]) => t)).toEqual(['c', 'a', 'e', 'b', 'd']);
    for (const [term, value] of ranked) expect(value).toBeCloseTo(expected.get(term)!, 12);
  });

  it('weight 0 or no association: the prior as it is', () => {
    expect(informedPrior(prior, new Map([['a', 1]]), 0)).toBe(prior);
    expect(informedPrior(prior, new Map(), 0.7)).toBe(prior);
  });
});

describe('checkBlendModel: association', () => {
  const model = {
    version: 'v',
    min_score: 0.01,
    donor_evidence: 'experimental',
    aspects: Object.fromEntries(['F', 'P', 'C'].map((a) => [a, { base: 0.5, slope: 0.5, vote_share: 1 }])),
  };
  const weights = { LK: { F: 0.5, P: 1, C: 0 }, PK: { F: 0, P: 0.2, C: 0.6 } };

  it('accepts a model without one or with a valid one', () => {
    expect(checkBlendModel(model).association).toBeUndefined();
    expect(
      checkBlendModel({ ...model, association: { max_posting: 300, neighbours: 50, weights } }).association,
    ).toEqual({
      max_posting: 300,
      neighbours: 50,
      weights,
    });
  });

  it('refuses weights out of [0, 1] or missing, and bad sizes', () => {
    for (const association of [
      { max_posting: 0, neighbours: 50, weights },
      { max_posting: 300, neighbours: 1.5, weights },
      { max_posting: 300, neighbours: 50, weights: { ...weights, LK: { F: 2, P: 1, C: 0 } } },
      { max_posting: 300, neighbours: 50, weights: { LK: weights.LK } },
    ])
      expect(() => checkBlendModel({ ...model, association })).toThrow(/invalid blend model: association/);
  });
});

describe('associationIndexBytes', () => {
  it('counts a posting for every protein carrying a term specific enough to match on', () => {
    // maxPosting 3: f:bind (4 proteins) is left out; f:dna 3, f:kin 1; p:tx 2, p:dev 1, p:sig 1;
    // c:nuc 3, c:cyto 1.
    const size = associationIndexBytes(references.size, priors, { maxPosting: 3, neighbours: 50 });
    expect(size.postings).toBe(3 + 1 + 2 + 1 + 1 + 3 + 1);
    expect(size.terms).toBe(7);
    expect(size.bytes).toBe(
      4 * ASSOCIATION_BYTES.perProtein +
        size.postings * ASSOCIATION_BYTES.perPosting +
        size.terms * ASSOCIATION_BYTES.perTerm,
    );
    // An index that keeps its own accession map (no `find` in its source) counts it.
    expect(
      associationIndexBytes(references.size, priors, { maxPosting: 3, neighbours: 50 }, true).bytes,
    ).toBe(size.bytes + 4 * ASSOCIATION_BYTES.perAccession);
  });

  it('grows with the reference: a larger maxPosting indexes the common terms too', () => {
    const narrow = associationIndexBytes(references.size, priors, { maxPosting: 3, neighbours: 50 });
    const wide = associationIndexBytes(references.size, priors, { maxPosting: 4, neighbours: 50 });
    expect(wide.postings).toBe(narrow.postings + 4);
    expect(wide.bytes).toBeGreaterThan(narrow.bytes);
  });

  it('an index whose priors undercount a term still holds every protein carrying it', () => {
    // Priors counted over A and E only: f:x once; the index reads B, which carries it too.
    const proteins = new Map<string, AspectTerms>([
      ['A', protein(['f:x'], ['p:a'])],
      ['B', protein(['f:x'], ['p:b'])],
      ['E', protein(['f:y'], ['p:c'])],
    ]);
    const counted = [proteins.get('A')!, proteins.get('E')!];
    const undercounted = new AssociationIndex(
      associationSourceOf(proteins, {
        F: termPrior(counted.map((p) => p.F)),
        P: termPrior(counted.map((p) => p.P)),
        C: termPrior(counted.map((p) => p.C)),
      }),
      { maxPosting: 3, neighbours: 50 },
    );
    // Both A and B match f:x and vote: a posting sized from the prior grows to hold B.
    const scores = undercounted.scores(protein(['f:x'], none), null);
    expect(Object.fromEntries(scores.P!)).toEqual({ 'p:a': 0.5, 'p:b': 0.5 });
  });
});
