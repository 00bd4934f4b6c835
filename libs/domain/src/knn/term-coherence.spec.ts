import { parseTermEmbeddings, termCoherence } from './term-coherence';

describe('parseTermEmbeddings', () => {
  it('reads tab, space and comma separated values; skips comments and blanks', () => {
    const map = parseTermEmbeddings('# header\nGO:0000001\t1 0\n\nGO:0000002 0,1\n');
    expect([...map.keys()]).toEqual(['GO:0000001', 'GO:0000002']);
    expect(Array.from(map.get('GO:0000002')!)).toEqual([0, 1]);
  });
  it.each([['GO:1\t1 2'], ['GO:0000001\tx'], ['GO:0000001\t1 2\nGO:0000002\t1']])('refuses %p', (text) =>
    expect(() => parseTermEmbeddings(text)).toThrow(/line/),
  );
});

describe('termCoherence', () => {
  const vectors = new Map([
    ['GO:A', Float64Array.from([1, 0])],
    ['GO:B', Float64Array.from([1, 0])],
    ['GO:C', Float64Array.from([0, 1])],
  ]);
  it("compares each term with the mean of the query's other embedded terms", () => {
    const got = termCoherence(
      ['q1', 'q1', 'q1', 'q2', 'q2'],
      ['GO:A', 'GO:B', 'GO:C', 'GO:A', 'GO:X'],
      vectors,
    );
    // q1: A vs mean(B, C) = (0.5, 0.5) -> cos = 1/sqrt(2); C vs mean(A, B) = (1, 0) -> 0.
    expect(got[0]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(got[1]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(got[2]).toBeCloseTo(0, 12);
    // q2: only one embedded term; GO:X has no embedding.
    expect(got[3]).toBeNull();
    expect(got[4]).toBeNull();
  });
});
