import { propagatedTruth, TruthOntology } from './propagated-truth';

const parents: Record<string, string[]> = {
  'GO:3': ['GO:2'],
  'GO:2': ['GO:1'],
  'GO:1': [],
  'GO:9': [],
};
const ontology: TruthOntology = {
  resolve: (id) => (id === 'GO:alt3' ? 'GO:3' : id in parents ? id : null),
  ancestors: (id) => {
    const out: string[] = [];
    const stack = [...(parents[id] ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      out.push(next);
      stack.push(...(parents[next] ?? []));
    }
    return out;
  },
};

describe('propagatedTruth', () => {
  const truth = propagatedTruth([{ protein: 'P1', goId: 'GO:3' }], ontology);

  it('labels the term itself, its ancestors and its alt ids true, and nothing else', () => {
    expect(['GO:3', 'GO:2', 'GO:1', 'GO:alt3'].map((t) => truth.label('P1', t))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(truth.label('P1', 'GO:9')).toBe(false);
    expect(truth.label('P2', 'GO:3')).toBe(false);
  });

  it('covers only proteins with a ground-truth term', () => {
    expect(truth.covers('P1')).toBe(true);
    expect(truth.covers('P2')).toBe(false);
  });
});
